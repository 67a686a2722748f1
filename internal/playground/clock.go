package playground

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// Clock is what the page shows of the queue's clock at the step shown:
// the time, the buttons that move it, and a countdown on every task that
// waits for it.
type Clock struct {
	// Shown is false for a script that never uses time (no lease, no
	// backoff, no advance): the page then shows no clock.
	Shown bool
	Now   time.Duration
	Label string // "clock 30s"
	// Advances are the buttons that move the clock: +1s, +10s and, when a
	// timer is pending, "next deadline", each with the command it runs.
	Advances []Advance
	// Timers are the tasks waiting on the clock, soonest first: each
	// RUNNING task whose lease expires, and each DELAYED task.
	Timers []TaskTimer
}

// Advance is a button that moves the clock.
type Advance struct {
	Label   string // "+1s", "+10s", "next deadline (4s)"
	Command string // what it runs: "advance 1s"
}

// TaskTimer is a task's countdown.
type TaskTimer struct {
	Task string
	Kind string        // "lease" for a RUNNING task's deadline, "due" for a DELAYED task
	At   time.Duration // when it fires
	Left time.Duration // At − Now
	// Fraction is how much of its span is left, from 1 (just set) down to
	// 0: of the lease timeout for a lease; for a delay, 1 until it is due
	// within a lease timeout's span or a second, whichever is larger.
	Fraction float64
	Text     string // "lease ends in 12s", "due in 800ms"
}

// Clock returns the clock at the step shown. The cost is O(tasks) plus,
// once per script, O(len(script)) to read its settings.
func (p *Page) Clock() Clock {
	s := p.s
	set := p.timeSettings()
	k := s.Cursor()
	var now time.Duration
	if k > 0 {
		now = s.Step(k).Now
	}
	c := Clock{Now: now, Label: "clock " + scenario.FormatDuration(now)}
	c.Shown = set.lease > 0 || set.backoff || set.advances
	if !c.Shown {
		return c
	}
	b := s.Board()
	span := set.lease
	if span <= 0 {
		span = time.Second
	}
	for task, st := range b.States() {
		at, ok := b.Timer(task)
		if !ok || (st != core.Running && st != core.Delayed) {
			continue
		}
		t := TaskTimer{Task: task, At: at, Left: max(0, at-now)}
		if st == core.Running {
			t.Kind, t.Text = "lease", "lease ends in "+scenario.FormatDuration(t.Left)
		} else {
			t.Kind, t.Text = "due", "due in "+scenario.FormatDuration(t.Left)
		}
		t.Fraction = min(1, float64(t.Left)/float64(span))
		c.Timers = append(c.Timers, t)
	}
	slices.SortFunc(c.Timers, func(a, b TaskTimer) int {
		return cmp.Or(cmp.Compare(a.At, b.At), strings.Compare(a.Task, b.Task))
	})
	c.Advances = []Advance{{"+1s", "advance 1s"}, {"+10s", "advance 10s"}}
	if len(c.Timers) > 0 {
		d := c.Timers[0].Left
		c.Advances = append(c.Advances, Advance{
			Label:   "next deadline (" + scenario.FormatDuration(d) + ")",
			Command: "advance " + scenario.FormatDuration(d),
		})
	}
	return c
}

// timeSettings are what a script says of time.
type timeSettings struct {
	lease    time.Duration
	backoff  bool
	advances bool // the clock has moved by the end of the script
}

// timeSettings reads the script's lease and backoff lines, which come
// before its first submit, and whether its clock ever moves, from the
// commands alone: no step is run for it. The cost is O(steps) once per
// script.
func (p *Page) timeSettings() timeSettings {
	s := p.s
	if p.timesFor == s && p.timesLen == s.Len() {
		return p.times
	}
	var ts timeSettings
	submitted := false
	for k := 1; k <= s.Len(); k++ {
		c := s.Command(k)
		switch c.Op {
		case scenario.OpSubmit:
			submitted = true
		case scenario.OpLease:
			if !submitted {
				ts.lease = c.Dur
			}
		case scenario.OpBackoff:
			ts.backoff = ts.backoff || !submitted
		case scenario.OpAdvance:
			// Only an advance moves the clock, and never back.
			ts.advances = ts.advances || c.Dur > 0
		}
	}
	p.times, p.timesFor, p.timesLen = ts, s, s.Len()
	return ts
}

// Expiry is a lease that ran out at the step shown, to flash on its task.
type Expiry struct {
	Task   string
	At     time.Duration
	Reason string // "lease of attempt 2 expired at 30s: READY again at the back of the line"
}

// Expiries returns the leases that expired at the step shown, in order.
func (p *Page) Expiries() []Expiry {
	s := p.s
	k := s.Cursor()
	if k == 0 {
		return nil
	}
	events := s.Step(k).Events
	var out []Expiry
	for i, e := range events {
		if e.Kind != core.EventExpired {
			continue
		}
		x := Expiry{Task: e.Task, At: e.At, Reason: e.String()}
		// The failure that follows says what became of the task.
		if i+1 < len(events) && events[i+1].Task == e.Task {
			switch next := events[i+1]; next.To {
			case core.Ready:
				x.Reason += ": READY again at the back of the line"
			case core.Delayed:
				x.Reason += ": DELAYED, due at " + scenario.FormatDuration(next.Due)
			case core.Dead:
				x.Reason += ": DEAD, " + next.Reason
			}
		}
		out = append(out, x)
	}
	return out
}

// JoinedReady returns the tasks that joined the back of the READY line at
// the step shown because their retry fell due or their lease expired, so
// that the READY line can mark where they joined.
func (p *Page) JoinedReady() []string {
	s := p.s
	k := s.Cursor()
	if k == 0 {
		return nil
	}
	var out []string
	expired := map[string]bool{}
	for _, e := range s.Step(k).Events {
		switch {
		case e.Kind == core.EventExpired:
			expired[e.Task] = true
		case e.Kind == core.EventDue, e.Kind == core.EventRetried && expired[e.Task]:
			out = append(out, e.Task)
		}
	}
	return out
}
