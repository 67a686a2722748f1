package playground

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// Console is the dead-letter queue as an operator reads it at the step
// shown: its DEAD tasks grouped by the fingerprint of their error, each
// group with what it holds up and the commands that preview and redrive
// it; the tasks that keep dying and need a person; and the growth alert.
type Console struct {
	Groups   []ConsoleGroup
	Poisoned []string // DEAD tasks past the poison-pill cap: bulk redrive skips them
	Force    []string // the command that moves each of them: "redrive! T"
	Alert    string   // the alert's banner while it is raised; "" otherwise
	// Paced is the redrive at a rate in progress, nil if none is. While
	// one is, the groups' Redrive buttons are refused (see Refused).
	Paced *PacedRedrive
}

// ConsoleGroup is a root cause: the DEAD tasks whose errors share a
// fingerprint, and what they block.
type ConsoleGroup struct {
	Number      int    // its number in the dlq view, from 1
	Fingerprint string // the error with its variable parts normalised
	Example     string // the error of its first task
	Count       int    // its DEAD tasks
	BlastRadius int    // the BLOCKED tasks they hold
	// Bar is BlastRadius against the largest group's, from 0 to 1, for a
	// bar that compares them at a glance.
	Bar     float64
	Tasks   []string // its DEAD tasks, in DLQ order
	Blocked []string // the BLOCKED tasks whose root is one of them
	// The commands of its buttons: what a redrive would do, changing
	// nothing; a redrive of all at once; one at RedriveRate.
	Preview, Redrive, RedriveAtRate string
	// RateLabel is the label of RedriveAtRate's button: "Redrive at 2/s".
	RateLabel string
	// Refused says why the queue would refuse Redrive and RedriveAtRate
	// now (a paced redrive is in progress), for their buttons to be
	// disabled with it; "" when it would take them.
	Refused string
}

// RedriveRate is the rate the console offers for a bulk redrive: enough
// to see the releases come in waves as the clock moves, slow enough not to
// stampede a dependency that has just come back.
const RedriveRate = "2/1s"

// redriveRateLabel is the label of the button that redrives at RedriveRate.
const redriveRateLabel = "Redrive at 2/s"

// Console returns the operator's view of the dead-letter queue at the step
// shown. The cost is O(entries).
func (p *Page) Console() Console {
	s := p.s
	var c Console
	if p.live != "" && p.livePaced != nil {
		pr := *p.livePaced // a live DAG's state says it; it has no steps
		c.Paced = &pr
	} else if k := p.s.Cursor(); k > 0 {
		if pr, ok := pacedRedrive(p.s, k); ok {
			if p.live != "" {
				pr.Next = "" // the live queue's clock moves by itself
			}
			c.Paced = &pr
		}
	}
	groups := s.DeadLetterGroups()
	letters := s.DeadLetters()
	blocked := map[string][]string{} // root → the tasks it blocks
	dead := 0
	for _, d := range letters {
		if d.State == core.Blocked {
			blocked[d.Root] = append(blocked[d.Root], d.Task)
		} else {
			dead++
		}
		if d.State == core.Dead && d.Poisoned {
			c.Poisoned = append(c.Poisoned, d.Task)
			c.Force = append(c.Force, "redrive! "+d.Task)
		}
	}
	most := 0
	for _, g := range groups {
		most = max(most, g.BlastRadius)
	}
	for i, g := range groups {
		n := strconv.Itoa(i + 1)
		cg := ConsoleGroup{
			Number: i + 1, Fingerprint: g.Fingerprint, Example: g.Example, Count: g.Count,
			BlastRadius: g.BlastRadius, Tasks: slices.Clone(g.Tasks),
			Preview:       "preview redrive group " + n,
			Redrive:       "redrive group " + n,
			RedriveAtRate: "redrive group " + n + " at " + RedriveRate,
			RateLabel:     redriveRateLabel,
		}
		if c.Paced != nil {
			cg.Refused = refusedWhileRedriving
		}
		if most > 0 {
			cg.Bar = float64(g.BlastRadius) / float64(most)
		}
		for _, t := range g.Tasks {
			cg.Blocked = append(cg.Blocked, blocked[t]...)
		}
		c.Groups = append(c.Groups, cg)
	}
	if raised, count, window := s.Alert(); raised {
		// The alert stays up while the queue shrinks (a redrive takes
		// entries out): it says what raised it, not that it grows.
		// Its entries are the DEAD tasks and the BLOCKED ones behind
		// them: both are said, beside the DEAD count's badge.
		c.Alert = "Dead-letter queue alert: " + strconv.Itoa(count) + " or more dead letters came in within " + scenario.FormatDuration(window) +
			"; " + strconv.Itoa(len(letters)) + " in it now (" + strconv.Itoa(dead) + " DEAD, " + strconv.Itoa(len(letters)-dead) + " BLOCKED)." +
			" It clears when fewer come in within " + scenario.FormatDuration(window) + "."
	}
	return c
}

// PreviewMarks returns, at a preview step or while a [Page.Preview] is
// shown, the tasks the previewed redrive would redrive and those it would
// release, for the drawing to mark; nil otherwise.
func (p *Page) PreviewMarks() (redrive, release []string) {
	if v := p.shownPreview(); v != nil {
		return v.redrive, v.release
	}
	s := p.s
	k := s.Cursor()
	if k == 0 || s.Step(k).Command.Op != scenario.OpPreview || s.Step(k).Preview == nil {
		return nil, nil
	}
	for _, r := range s.Step(k).Preview.Roots {
		redrive = append(redrive, r.Task)
		release = append(release, r.Release...)
	}
	return redrive, release
}

// shownPreview is a preview of the console's, made at step k of session s.
type shownPreview struct {
	s                *session.Session
	k                int
	text             string // what the caption says of it
	redrive, release []string
}

// Preview says what a preview command (a console group's Preview, e.g.
// "preview redrive group 1") finds at the step shown, changing nothing:
// not the queue, not the script, not the steps after it. Its marks
// ([Page.PreviewMarks]) and its sentence (the [Page.Caption]) are shown
// until the page moves to another step or script. A preview typed in the
// command box is a step of the script instead, as any command is.
//
// The cost is a run of the script up to the step shown.
func (p *Page) Preview(cmd string) error {
	s := p.s
	k := s.Cursor()
	fresh, err := session.New(cut(s, k), p.options())
	if err != nil {
		return err
	}
	fresh.Seek(StepEnd)
	if err := fresh.Append(cmd); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "scenario: "))
	}
	last := fresh.Len()
	st := fresh.Step(last)
	if st.Command.Op != scenario.OpPreview || st.Preview == nil {
		return errors.New(cmd + ": not a preview")
	}
	v := &shownPreview{s: s, k: k, text: Explain(fresh, last)}
	for _, r := range st.Preview.Roots {
		v.redrive = append(v.redrive, r.Task)
		v.release = append(v.release, r.Release...)
	}
	p.preview = v
	return nil
}

// shownPreview returns the console's preview if its step is shown.
func (p *Page) shownPreview() *shownPreview {
	if v := p.preview; v != nil && v.s == p.s && v.k == p.s.Cursor() {
		return v
	}
	return nil
}
