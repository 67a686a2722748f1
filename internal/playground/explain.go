package playground

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"

	"github.com/dagq/dagq/internal/wording"
)

// Steps is what [Explain] reads of a run: a *session.Session, or the
// *scenario.Moment of the step explained, which a picture of a run gets
// without keeping every step.
type Steps interface {
	Len() int
	Step(k int) scenario.Step
	BoardAt(k int) *scenario.Board
	Attempts() int
	Strategy() string
}

// Explain describes step k of a session in one sentence, for the caption
// under the drawing: what the command did and what followed from it, e.g.
// "a is DEAD: failed after 3 attempts: connection reset. Blocked
// downstream, nearest first: b, c, d." Step 0 says how many steps there
// are. It asks s for step k only, and leaves a session's cursor where it
// was.
func Explain(s Steps, k int) string {
	if k <= 0 || k > s.Len() {
		switch n := s.Len(); n {
		case 0:
			return "The script has no commands yet."
		default:
			return "Nothing has run yet: " + wording.Plural(n, "command") + " to step through."
		}
	}
	st := s.Step(k)
	c := st.Command
	byKind := func(kind core.EventKind) []string {
		var out []string
		for _, e := range st.Events {
			if e.Kind == kind {
				out = append(out, e.Task)
			}
		}
		return out
	}
	if !st.OK {
		if c.Op == scenario.OpExpect {
			return "expect failed: " + st.Err + "; the run stops here."
		}
		return c.String() + " is refused: " + st.Err + ". Nothing changed."
	}
	switch c.Op {
	case scenario.OpAttempts:
		return "A task gets at most " + wording.Plural(s.Attempts(), "attempt") + "."
	case scenario.OpStrategy:
		return "Cycles are checked with " + s.Strategy() + "."
	case scenario.OpExpect:
		return "expect holds: " + c.Task + " is " + string(st.State) + "."
	case scenario.OpNext:
		if st.Task == "" {
			return "next hands out nothing: no task is READY."
		}
		for _, e := range st.Events {
			if e.Kind == core.EventStarted {
				return "next hands out " + e.Task + ", the front of the READY line (attempt " + strconv.Itoa(e.Attempt) + " of " + strconv.Itoa(s.Attempts()) + ")."
			}
		}
	case scenario.OpComplete:
		out := c.Task + " SUCCEEDED."
		switch ready := byKind(core.EventReady); len(ready) {
		case 0:
		case 1:
			out += " " + ready[0] + " waited on nothing else and is READY."
		default:
			out += " " + wording.Plural(len(ready), "task") + " waited on nothing else and are READY: " + nameList(ready) + "."
		}
		return out
	case scenario.OpFail:
		for _, e := range st.Events {
			switch e.Kind {
			case core.EventRetried:
				out := c.Task + " failed attempt " + strconv.Itoa(e.Attempt) + " of " + strconv.Itoa(s.Attempts())
				if e.Reason != "" {
					out += " (" + e.Reason + ")"
				}
				out += ": READY again at the back of the line"
				if ahead := s.BoardAt(k).Ready(); len(ahead) > 1 {
					out += ", behind " + nameList(ahead[:len(ahead)-1])
				}
				return out + "."
			case core.EventDelayed:
				out := c.Task + " failed attempt " + strconv.Itoa(e.Attempt) + " of " + strconv.Itoa(s.Attempts())
				if e.Reason != "" {
					out += " (" + e.Reason + ")"
				}
				return out + ": DELAYED until " + scenario.FormatDuration(e.Due) + ", when it joins the back of the READY line."
			case core.EventDead:
				out := c.Task + " is DEAD: " + e.Reason + "."
				if blocked := byKind(core.EventBlocked); len(blocked) > 0 {
					out += " Blocked downstream, nearest first: " + nameList(blocked) + "."
				}
				return out
			}
		}
	case scenario.OpSubmit:
		for _, e := range st.Events {
			if e.Kind != core.EventSubmitted {
				continue
			}
			out := c.Task + " arrives " + string(e.To)
			switch {
			case e.To == core.Blocked:
				out += " (" + e.Reason + ")"
			case len(e.Deps) > 0:
				out += ", waiting on " + nameList(e.Deps)
			}
			out += "."
			if blocked := byKind(core.EventBlocked); len(blocked) > 0 {
				out += " Waiting on it, " + nameList(blocked) + " " + wording.IsAre(len(blocked)) + " blocked too, nearest first."
			}
			return out + " The cycle check examined " + wording.Plural(int(e.Visits), "edge") + "."
		}
	case scenario.OpAdvance:
		out := "The clock moves to " + scenario.FormatDuration(st.Now) + ":"
		var fired, batches []string
		for _, e := range st.Events {
			switch e.Kind {
			case core.EventExpired:
				fired = append(fired, e.Task+"'s lease expires at "+scenario.FormatDuration(e.At))
			case core.EventRetried:
				fired = append(fired, e.Task+" is READY again at the back of the line")
			case core.EventDelayed:
				fired = append(fired, e.Task+" waits, DELAYED until "+scenario.FormatDuration(e.Due))
			case core.EventDead:
				fired = append(fired, e.Task+" is DEAD ("+e.Reason+")")
			case core.EventDue:
				fired = append(fired, e.Task+" falls due and joins the back of the READY line")
			case core.EventBlocked:
				fired = append(fired, e.Task+" is BLOCKED")
			case core.EventRedriveProgress, core.EventRedriveDone, core.EventRedriveCancelled:
				// A paced redrive's batch fell due: named as wq run names it.
				batches = append(batches, e.String())
			}
		}
		if len(fired) == 0 && len(batches) == 0 {
			return out + " nothing falls due."
		}
		if len(fired) > 0 {
			out += " " + wording.Names(fired, 6) + "."
		}
		for _, b := range batches {
			out += " " + b + "."
		}
		if freed := byKind(core.EventUnblocked); len(freed) > 0 {
			out += " Released: " + nameList(freed) + "."
		}
		return out
	case scenario.OpHeartbeat:
		for _, e := range st.Events {
			if e.Kind == core.EventHeartbeat && e.Deadline > 0 {
				return c.Task + " sends a heartbeat: its lease now ends at " + scenario.FormatDuration(e.Deadline) + "."
			}
		}
		return c.Task + " sends a heartbeat: its lease never expires."
	case scenario.OpLease:
		return "A lease expires " + scenario.FormatDuration(c.Dur) + " after hand-out or heartbeat: a worker that goes silent loses its task."
	case scenario.OpBackoff, scenario.OpJitter:
		return "A retry waits out a delay, DELAYED: " + c.String() + "."
	case scenario.OpPreview:
		if pv := st.Preview; pv != nil {
			out := "Preview, nothing changed: " + c.String()[len("preview "):] + " would redrive " + wording.Plural(len(pv.Roots), "task") +
				" and release " + wording.Plural(pv.Released, "blocked task")
			if pv.Blocked > 0 {
				out += "; " + wording.Plural(pv.Blocked, "task") + " would stay blocked by another root"
			}
			if len(pv.Skipped) > 0 {
				out += "; it would skip " + nameList(pv.Skipped) + ", poisoned"
			}
			return out + "."
		}
	case scenario.OpRedriveMatching, scenario.OpRedriveGroup, scenario.OpRedriveCancel:
		if len(st.Events) > 0 {
			out := st.Events[0].String() + "."
			if freed := byKind(core.EventUnblocked); len(freed) > 0 {
				out += " Released: " + nameList(freed) + "."
			}
			return out
		}
	case scenario.OpDLQ:
		return "The dead-letter queue, grouped by root cause: see the console above the queue."
	case scenario.OpRedrive:
		out := c.Task + " is redriven: READY with fresh attempts."
		if freed := byKind(core.EventUnblocked); len(freed) > 0 {
			out += " Released: " + nameList(freed) + "."
		}
		if kept := byKind(core.EventRerooted); len(kept) > 0 {
			out += " Still blocked by another dead task: " + nameList(kept) + "."
		}
		return out
	}
	return c.String() + "."
}

// About returns what a library scenario's opening comment says after its
// title: the comment lines up to the first line that is not a comment,
// without their "#", paragraphs joined into lines and separated by blank
// lines. It is "" for a script that does not open with a comment.
func About(text string) string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for i, line := range strings.Split(text, "\n") {
		body, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
		if !ok {
			break
		}
		if i == 0 {
			continue // the title
		}
		body = strings.TrimSpace(body)
		if body == "" {
			flush()
			continue
		}
		cur = append(cur, body)
	}
	flush()
	// The generated scenarios end their comment with how they were made;
	// that is for their maintainers.
	paras = slices.DeleteFunc(paras, func(p string) bool { return strings.HasPrefix(p, "Generated by") })
	return strings.Join(paras, "\n\n")
}

// nameList joins names with commas, eight at most: "a, b and 3 more".
func nameList(names []string) string { return wording.Names(names, 8) }
