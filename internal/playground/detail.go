package playground

import (
	"strconv"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"

	"github.com/dagq/dagq/internal/wording"
)

// TaskDetail is what the task detail panel shows of one task: its state
// and why, every attempt with its lease and error, what it waits on and
// what waits on it, and its arguments and result where there are any.
//
// It is plain data, with no method that needs more than its fields, so
// that any source can fill it: [Page.TaskDetail] folds a script's events
// up to the step shown; a live queue fills it from its own records (the
// JSON names are the fields' own, in snake case; in the browser, read
// such JSON with the page's own parser, wasm/jsonjs.go: encoding/json
// would put main.wasm over its budget). A script has no workers,
// arguments or results: those fields stay empty there.
type TaskDetail struct {
	Task string `json:"task"`
	// State is the task's state; "" when the task has not been submitted
	// (at the step shown).
	State core.State `json:"state"`
	// Reason is, for a DEAD or BLOCKED task, its dead-letter reason
	// ("failed after 3 attempts: HTTP 503", "blocked by fetch").
	Reason string `json:"reason,omitempty"`
	// Root is, for a BLOCKED task, the DEAD task upstream that blocks it.
	Root string `json:"root,omitempty"`
	// Poisoned is set for a DEAD task redriven so often that only a
	// forced redrive moves it.
	Poisoned bool `json:"poisoned,omitempty"`
	// Redrives counts the times it was redriven; each redrive gives it
	// fresh attempts, so Attempt.N starts again at 1.
	Redrives int `json:"redrives,omitempty"`
	// MaxAttempts is how many attempts a life of the task gets; 0 if
	// unknown.
	MaxAttempts int `json:"max_attempts,omitempty"`
	// Timed is set when the times mean something: a live queue, or a
	// script that uses the clock (a lease, backoff or advance); in a
	// script that never does, every time is 0s and is not shown.
	Timed bool `json:"timed"`
	// Submitted is when it arrived; Now is the time the detail is of.
	Submitted When `json:"submitted"`
	Now       When `json:"now"`
	// Due is, for a DELAYED task, when it joins the READY line again.
	Due When `json:"due"`
	// Attempts are its attempts, oldest first, across redrives.
	Attempts []Attempt `json:"attempts"`
	// WaitsOn are its dependencies, in the order submitted, each with its
	// state ("" for one not submitted yet: tasks arrive in any order).
	WaitsOn []Neighbour `json:"waits_on"`
	// WaitedOnBy are the tasks that name it as a dependency, in the order
	// they arrived.
	WaitedOnBy []Neighbour `json:"waited_on_by"`
	// Args and Result are the task's arguments and its handler's result,
	// as text (JSON by convention); "" for none. A script gives neither.
	Args   string `json:"args,omitempty"`
	Result string `json:"result,omitempty"`
}

// Attempt is one attempt at a task: handed out under a lease, and how it
// ended.
type Attempt struct {
	// N counts the attempts of one life of the task, from 1; Round is the
	// redrives before it (0 for the first life).
	N     int `json:"n"`
	Round int `json:"round,omitempty"`
	// Lease is the id of the lease it was handed out with; Worker, the
	// worker that held it ("" when unknown, as in a script).
	Lease  uint64 `json:"lease,omitempty"`
	Worker string `json:"worker,omitempty"`
	// Started is when it was handed out; Ended when it ended (meaningless
	// while Outcome is OutcomeRunning).
	Started When `json:"started"`
	Ended   When `json:"ended"`
	// Deadline is the lease's deadline, as the last heartbeat set it; the
	// zero When when leases never expire.
	Deadline   When `json:"deadline"`
	Heartbeats int  `json:"heartbeats,omitempty"`
	// Outcome says how it ended; Error is the error it failed with ("lease
	// expired" when its lease ran out).
	Outcome AttemptOutcome `json:"outcome"`
	Error   string         `json:"error,omitempty"`
}

// AttemptOutcome is how an attempt ended.
type AttemptOutcome string

// The outcomes of an attempt.
const (
	OutcomeRunning   AttemptOutcome = "running"   // not ended: the task is RUNNING under its lease
	OutcomeSucceeded AttemptOutcome = "succeeded" // completed
	OutcomeFailed    AttemptOutcome = "failed"    // failed with attempts left: retried (READY or DELAYED)
	OutcomeDead      AttemptOutcome = "dead"      // failed for good: the task went DEAD
)

// Neighbour is a task next to another in the graph, with its state.
type Neighbour struct {
	Task  string     `json:"task"`
	State core.State `json:"state"`
}

// When is a time on one of two clocks: Clock, the virtual clock of a
// script (from 0 at its start), or Wall, a live queue's clock, which is
// used when it is set.
type When struct {
	Clock time.Duration `json:"clock,omitempty"`
	Wall  time.Time     `json:"wall,omitzero"`
}

// IsZero reports whether w is the zero When: no time at all on a wall
// clock, or the start of a virtual one.
func (w When) IsZero() bool { return w.Wall.IsZero() && w.Clock == 0 }

// String writes the time as the page shows it: "1m30s" on the virtual
// clock, "15:04:05" (UTC) on the wall clock.
func (w When) String() string {
	if !w.Wall.IsZero() {
		// Not time.Time.Format, which would link the whole of time's
		// formatting into main.wasm.
		h, m, sec := w.Wall.UTC().Clock()
		two := func(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
		return two(h) + ":" + two(m) + ":" + two(sec)
	}
	return scenario.FormatDuration(w.Clock)
}

// Span is how long from w to later: later − w on the clock they share,
// 0 when they do not share one.
func (w When) Span(later When) time.Duration {
	switch {
	case !w.Wall.IsZero() && !later.Wall.IsZero():
		return later.Wall.Sub(w.Wall)
	case w.Wall.IsZero() && later.Wall.IsZero():
		return later.Clock - w.Clock
	}
	return 0
}

// TaskDetail returns the detail of a task at the step shown, folded from
// the events of the steps up to it; a task not submitted by then has
// only its name (and the tasks that already name it as a dependency).
//
// The cost is O(e + t + d) for the e events of the steps up to the one
// shown, the t tasks submitted by then and their d dependencies.
func (p *Page) TaskDetail(task string) TaskDetail {
	s := p.s
	k := s.Cursor()
	set := p.timeSettings()
	d := TaskDetail{Task: task, MaxAttempts: s.Attempts(), Timed: set.lease > 0 || set.backoff || set.advances}
	if k > 0 {
		d.Now.Clock = s.Step(k).Now
	}
	cur := -1 // the attempt under way, an index of d.Attempts
	end := func(e *core.Event, o AttemptOutcome, errText string) {
		if cur < 0 {
			return
		}
		a := &d.Attempts[cur]
		a.Outcome, a.Ended, a.Error = o, When{Clock: e.At}, errText
		cur = -1
	}
	for j := 1; j <= k; j++ {
		evs := s.Step(j).Events
		for i := range evs {
			e := &evs[i]
			if e.Task != task {
				continue
			}
			switch e.Kind {
			case core.EventSubmitted:
				d.Submitted = When{Clock: e.At}
				d.Reason, d.Root = e.Reason, e.Root
			case core.EventStarted:
				d.Attempts = append(d.Attempts, Attempt{N: e.Attempt, Round: d.Redrives, Lease: e.Lease,
					Started: When{Clock: e.At}, Deadline: When{Clock: e.Deadline}, Outcome: OutcomeRunning})
				cur = len(d.Attempts) - 1
			case core.EventHeartbeat:
				if cur >= 0 {
					d.Attempts[cur].Deadline = When{Clock: e.Deadline}
					d.Attempts[cur].Heartbeats++
				}
			case core.EventSucceeded:
				end(e, OutcomeSucceeded, "")
			case core.EventRetried:
				end(e, OutcomeFailed, e.Reason)
			case core.EventDelayed:
				end(e, OutcomeFailed, e.Reason)
				d.Due = When{Clock: e.Due}
			case core.EventDead:
				end(e, OutcomeDead, e.Error)
				d.Reason, d.Root, d.Poisoned = e.Reason, "", e.Poisoned
			case core.EventBlocked, core.EventRerooted:
				d.Reason, d.Root = e.Reason, e.Root
			case core.EventUnblocked:
				d.Reason, d.Root = "", ""
			case core.EventRedriven:
				d.Redrives++
				d.Reason, d.Root, d.Poisoned = "", "", false
			}
		}
	}
	d.State = s.State(task)
	if d.State != core.Delayed {
		d.Due = When{}
	}
	for _, n := range s.Graph() {
		if n.Task == task {
			d.WaitsOn = make([]Neighbour, len(n.Deps))
			for i, dep := range n.Deps {
				d.WaitsOn[i] = Neighbour{dep, s.State(dep)}
			}
		}
		for _, dep := range n.Deps {
			if dep == task {
				d.WaitedOnBy = append(d.WaitedOnBy, Neighbour{n.Task, s.State(n.Task)})
				break
			}
		}
	}
	return d
}

// Label names an attempt for people: "attempt 2", or "attempt 1 after
// redrive 1" in a later life of the task.
func (a Attempt) Label() string {
	l := "attempt " + strconv.Itoa(a.N)
	if a.Round > 0 {
		l += " after redrive " + strconv.Itoa(a.Round)
	}
	return l
}

// Summary says how an attempt went, for people, with now the time the
// detail is of: "lease 3 · 1s → 4s (3s) · failed: HTTP 503", or "lease 5 ·
// since 4s (2s so far) · lease ends at 34s"; without its times unless
// timed ([TaskDetail.Timed]): "lease 3 · failed: HTTP 503". A time the
// detail does not know (a live queue keeps no start of an attempt that
// succeeded) is left out rather than shown as the clock's zero: "ended
// 03:04:40 · succeeded".
func (a Attempt) Summary(now When, timed bool) string {
	var b []byte
	if a.Worker != "" {
		b = append(b, a.Worker...)
		b = append(b, " · "...)
	}
	if a.Lease != 0 {
		b = append(b, "lease "...)
		b = strconv.AppendUint(b, a.Lease, 10)
		b = append(b, " · "...)
	}
	if a.Outcome == OutcomeRunning {
		if !timed {
			return string(append(b, "running"...))
		}
		if known(a.Started, now) {
			b = append(b, "since "+a.Started.String()+" ("+scenario.FormatDuration(a.Started.Span(now))+" so far)"...)
		} else {
			b = append(b, "running"...)
		}
		if !a.Deadline.IsZero() {
			b = append(b, " · lease ends at "+a.Deadline.String()...)
		}
		if a.Heartbeats > 0 {
			b = append(b, " · "+wording.Plural(a.Heartbeats, "heartbeat")...)
		}
		return string(b)
	}
	if timed {
		switch start, end := known(a.Started, now), known(a.Ended, now); {
		case start && end:
			b = append(b, a.Started.String()+" → "+a.Ended.String()+" ("+scenario.FormatDuration(a.Started.Span(a.Ended))+") · "...)
		case end:
			b = append(b, "ended "+a.Ended.String()+" · "...)
		case start:
			b = append(b, "started "+a.Started.String()+" · "...)
		}
	}
	b = append(b, string(a.Outcome)...)
	if a.Error != "" {
		b = append(b, ": "+a.Error...)
	}
	return string(b)
}

// known reports whether w is a time the detail knows, with now the time
// the detail is of: every time on a virtual clock (where 0 is its start),
// only the set ones on a wall clock (where the zero When is no time).
func known(w, now When) bool { return now.Wall.IsZero() || !w.Wall.IsZero() }

// Fact is a line of the task detail panel: a label and its value.
type Fact struct{ Label, Value string }

// Facts returns what the panel says of a task besides its attempts and
// neighbours, in order: when it arrived (if Timed), its attempts of its current
// life out of the most it gets, its redrives, when a DELAYED task is
// due, and why a DEAD or BLOCKED one is in the dead-letter queue. A task
// not submitted has none.
func (d TaskDetail) Facts() []Fact {
	if d.State == "" {
		return nil
	}
	var fs []Fact
	if d.Timed {
		fs = append(fs, Fact{"Submitted", "at " + d.Submitted.String()})
	}
	n := 0
	for _, a := range d.Attempts {
		if a.Round == d.Redrives {
			n++
		}
	}
	tries := strconv.Itoa(n)
	if d.MaxAttempts > 0 {
		tries += " of " + strconv.Itoa(d.MaxAttempts)
	}
	fs = append(fs, Fact{"Attempts", tries})
	if d.Redrives > 0 {
		fs = append(fs, Fact{"Redriven", wording.Plural(d.Redrives, "time")})
	}
	if d.State == core.Delayed {
		fs = append(fs, Fact{"Due", "at " + d.Due.String() + " (in " + scenario.FormatDuration(d.Now.Span(d.Due)) + ")"})
	}
	if d.Reason != "" {
		fs = append(fs, Fact{"Reason", d.Reason})
	}
	if d.Poisoned {
		fs = append(fs, Fact{"Poisoned", "redriven too often: only a forced redrive moves it"})
	}
	return fs
}
