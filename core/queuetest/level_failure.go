package queuetest

import (
	"fmt"
	"os"
	"strings"

	"github.com/dagq/dagq/internal/playground"
)

// PlaygroundEnv names the environment variable that sets the playground a
// [Failure]'s link opens: its address, "http://localhost:8080/" (what
// `wq serve` serves) when unset.
const PlaygroundEnv = "DAGQ_PLAYGROUND"

// Failure is a rule a candidate's queue breaks, shown on the smallest
// script that breaks it. Its fields carry the facts; Error writes them for
// a person.
type Failure struct {
	Level    Level
	Test     string // the rung, "L4/FirstInFirstOut", or "L5/RandomSequences"
	Rule     string // the rule broken, as a sentence
	Seed     uint64 // a random sequence's seed (-queuetest.seed replays it); 0 for a rung
	Settings Settings
	// Ops are the operations of the smallest failing script, one a line in
	// the scenario language; the last is the one after which the queues
	// differ. Original is how many operations the sequence had when it
	// first failed.
	Ops      []string
	Original int
	// Got and Want say, fact by fact, what the candidate's queue did after
	// the last operation and what dagq's did.
	Got, Want []string
	// Script is the scenario: the settings, Ops, and an expect line for
	// each task whose state differs, as dagq's queue has it. Link opens it
	// in the playground, at its end.
	Script string
	Link   string
}

// fill replays ops, the last of which fails, to complete f.
func fill[Q L4Queue](f *Failure, level Level, ops []levelOp, open func(Settings) Q) error {
	p, err := newLevelPair(level, f.Settings, open)
	if err != nil {
		return err
	}
	var d *levelDiff
	for _, o := range ops {
		f.Ops = append(f.Ops, o.String())
		if d, err = p.step(o); err != nil {
			return err
		}
		if d != nil {
			break
		}
	}
	if d == nil {
		return errNoFailure
	}
	f.Got, f.Want = d.got, d.want
	var b strings.Builder
	b.WriteString(header(f.Settings))
	for _, o := range f.Ops {
		b.WriteString(o + "\n")
	}
	for _, n := range d.names {
		if s, ok := p.ref.Status(n); ok {
			fmt.Fprintf(&b, "expect %s %s\n", n, s)
		}
	}
	f.Script = b.String()
	base := os.Getenv(PlaygroundEnv)
	if base == "" {
		base = "http://localhost:8080/"
	}
	f.Link = base + playground.Link{Script: f.Script, HasScript: true, Step: playground.StepEnd, HasStep: true}.Fragment()
	return f
}

// header writes the settings as a script's first lines.
func header(s Settings) string {
	h := fmt.Sprintf("attempts %d\n", s.MaxAttempts)
	if s.LeaseTimeout > 0 {
		h += fmt.Sprintf("lease %v\n", s.LeaseTimeout)
	}
	if b := s.Backoff; b.Base > 0 {
		f := b.Factor
		if f == 0 {
			f = 1
		}
		h += fmt.Sprintf("backoff %v %v %v\n", b.Base, f, b.Max)
	}
	return h
}

// Error writes the failure for a person: the rule, the script, what each
// queue did, the link, and how to replay a random sequence.
func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", f.Test, f.Rule)
	ops := fmt.Sprintf("%d operations", len(f.Ops))
	if len(f.Ops) == 1 {
		ops = "1 operation"
	}
	if f.Original > len(f.Ops) {
		ops += fmt.Sprintf(", shrunk from %d", f.Original)
	}
	fmt.Fprintf(&b, "The smallest script that breaks your queue (%s):\n\n", ops)
	for _, line := range strings.Split(strings.TrimSuffix(f.Script, "\n"), "\n") {
		b.WriteString("\t" + line + "\n")
	}
	fmt.Fprintf(&b, "\nAfter its last operation, %q:\n", f.Ops[len(f.Ops)-1])
	for i := range f.Got {
		fmt.Fprintf(&b, "\tyour queue: %s\n\tdagq:       %s\n", f.Got[i], f.Want[i])
	}
	fmt.Fprintf(&b, "\nWatch dagq's queue run it (wq serve, or %s=URL for another playground):\n\t%s\n", PlaygroundEnv, f.Link)
	if f.Seed != 0 {
		fmt.Fprintf(&b, "Replay this sequence alone: go test -run '/%s' -queuetest.seed=%d\n", f.Test, f.Seed)
	}
	return b.String()
}
