package queuetest

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dagq/dagq/core"
)

// expectation is what an operation must do, predicted from the model
// before it runs.
type expectation struct {
	refusals []error // the errors it may be refused with (errors.Is); none: it must be accepted
	accept   bool    // it may be accepted

	state   core.State // submit: the state it arrives in
	blocked []string   // submit: the tasks its arrival blocks
	deps    []string   // submit: the deps, duplicates dropped
	front   string     // next: the task handed out ("": none)
	lease   core.Lease // heartbeat, complete, fail: the lease presented
	ready   []string   // complete: the tasks it makes READY, in arrival order
	fail    failWant   // fail: what follows
	release []string   // redrive: the BLOCKED tasks it releases
	mem     memoryWant // the operations only *core.Queue has
}

func (w expectation) mayRefuse() bool { return len(w.refusals) > 0 }

// expect predicts o's outcome from the model. It draws the backoff's
// jitter, as the queue will, when o is a failure that is delayed.
func (m *model) expect(o op) expectation {
	var w expectation
	switch o.kind {
	case opSubmit:
		w.deps = dedup(o.deps)
		if o.task == "" || slices.Contains(w.deps, "") {
			w.refusals = append(w.refusals, core.ErrInvalidName)
		}
		switch {
		case m.isTask(o.task):
			w.refusals = append(w.refusals, core.ErrDuplicate)
		case slices.ContainsFunc(w.deps, func(d string) bool { return m.reaches(d, o.task, nil) }):
			w.refusals = append(w.refusals, core.ErrCycle)
		}
		w.accept = len(w.refusals) == 0
		w.state, w.blocked = m.arrival(o.task, w.deps)
	case opNext:
		w.accept = true
		if len(m.fifo) > 0 {
			w.front = m.fifo[0]
		} else {
			w.refusals = []error{errNothingReady}
		}
	case opHeartbeat, opComplete, opFail:
		w.lease = m.lease(o.task, o.lease)
		if r := m.refusal(w.lease); r != nil {
			w.refusals = []error{r}
			break
		}
		w.accept = true
		switch o.kind {
		case opComplete:
			w.ready = m.releasedBy(o.task)
		case opFail:
			w.fail = m.expectFail(o.task, w.lease.Attempt, o.msg, o.permanent)
		}
	case opRedrive, opForce:
		switch {
		case !m.isTask(o.task):
			w.refusals = []error{core.ErrUnknown}
		case m.state[o.task] != core.Dead:
			w.refusals = []error{core.ErrNotDead}
		case m.poisoned[o.task] && o.kind != opForce:
			w.refusals = []error{core.ErrPoisoned}
		default:
			w.accept = true
			if o.kind == opForce {
				m.x.forcing = o.task // its redrive starts the count over
			}
			// A BLOCKED task is released iff no DEAD task but this one is
			// upstream of it.
			for _, b := range m.inState(core.Blocked) {
				if !slices.ContainsFunc(m.upstream(b), func(u string) bool { return u != o.task && m.state[u] == core.Dead }) {
					w.release = append(w.release, b)
				}
			}
		}
	case opAdvance:
		if o.dur < 0 {
			w.refusals = []error{core.ErrClockBackwards}
		} else {
			w.accept = true
		}
	default:
		w = m.expectMemory(o)
	}
	return w
}

// errNothingReady stands for Next's false: it hands out nothing and
// changes nothing, as a refusal does.
var errNothingReady = errors.New("nothing is READY")

// arrival returns the state a task arriving with deps (duplicates dropped)
// is in, and the tasks its arrival blocks.
func (m *model) arrival(task string, deps []string) (core.State, []string) {
	state := core.Ready
	for _, d := range deps {
		switch s := m.state[d]; {
		case s == core.Dead || s == core.Blocked:
			state = core.Blocked
		case s != core.Succeeded && state != core.Blocked:
			state = core.Pending
		}
	}
	if state != core.Blocked {
		return state, nil
	}
	return state, m.pendingDownstream(task)
}

// refusal returns the error a heartbeat, complete or fail presenting l must
// be refused with, nil if it must be accepted (invariant 7: exactly the
// current, unexpired lease acts), checking in core's documented order.
func (m *model) refusal(l core.Lease) error {
	cur, running := m.current[l.Task]
	switch {
	case !m.isTask(l.Task):
		return core.ErrUnknown
	case running && cur.ID == l.ID && cur.Attempt == l.Attempt:
		return nil
	case slices.ContainsFunc(m.expired[l.Task], func(x core.Lease) bool { return x.ID == l.ID && x.Attempt == l.Attempt }):
		return core.ErrLeaseExpired
	case !running:
		return core.ErrNotRunning
	}
	return core.ErrStaleLease
}

// failWant is what a failure of a task's attempt must do.
type failWant struct {
	task     string
	attempt  int
	kind     core.EventKind // Retried, Delayed or Dead
	reason   string         // the Dead reason, or the error
	errText  string
	due      time.Duration // Delayed
	poisoned bool          // Dead
	blocked  []string      // Dead: the blocking wave
}

// expectFail predicts a failure of task's attempt with msg, drawing the
// delay as the queue will.
func (m *model) expectFail(task string, attempt int, msg string, permanent bool) failWant {
	w := failWant{task: task, attempt: attempt, reason: msg, errText: msg}
	switch {
	case permanent || attempt >= m.cfg.MaxAttempts:
		w.kind, w.reason = core.EventDead, deadReason(attempt, msg, permanent)
		w.poisoned = m.cfg.PoisonAfter > 0 && m.redrives[task] >= m.cfg.PoisonAfter
		w.blocked = m.pendingDownstream(task)
	default:
		if d := m.delay(attempt); d > 0 {
			w.kind, w.due = core.EventDelayed, later(m.now, d)
		} else {
			w.kind = core.EventRetried
		}
	}
	return w
}

// check compares the events of a failure, folded already, with w: its one
// event, then for a death the blocking wave, nearest first, each naming the
// task as its root.
func (w failWant) check(m *model, evs []core.Event) error {
	if len(evs) == 0 {
		return fmt.Errorf("no event, want %s of %q", w.kind, w.task)
	}
	e := evs[0]
	wantErr := ""
	if w.kind == core.EventDead {
		wantErr = w.errText
	}
	if e.Kind != w.kind || e.Task != w.task || e.Attempt != w.attempt || e.Reason != w.reason || e.Due != w.due ||
		e.Poisoned != w.poisoned || (w.kind == core.EventDead && e.Error != wantErr) {
		return fmt.Errorf("%s (Attempt %d, Due %v, Error %q, Poisoned %v), want %s of %q attempt %d with %q, due %v, error %q, poisoned %v",
			e, e.Attempt, e.Due, e.Error, e.Poisoned, w.kind, w.task, w.attempt, w.reason, w.due, wantErr, w.poisoned)
	}
	var blocked []string
	for _, b := range evs[1:] {
		if b.Kind != core.EventBlocked || b.Root != w.task {
			return fmt.Errorf("unexpected %s after the failure of %q", b, w.task)
		}
		blocked = append(blocked, b.Task)
	}
	if err := sameSet("tasks blocked by "+w.task, blocked, w.blocked); err != nil {
		return err
	}
	return m.nearestFirst(w.task, blocked)
}

// verify folds the events of o into the model and holds its outcome to w.
func (m *model) verify(o op, w expectation, out outcome) error {
	call := o.String()
	evs := m.setAlertsApart(out.events)
	if o.kind == opNext && !out.ok {
		out.err = errNothingReady
	}
	if o.kind == opAdvance && out.err == nil {
		return m.verifyAdvance(call, o.dur, evs)
	}
	if err := m.checkOp(evs); err != nil {
		return fmt.Errorf("%s: %v", call, err)
	}
	if o.kind == opBatch || o.kind == opBulk || o.kind == opCancel {
		return m.verifyMemory(o, w, out.err, evs)
	}
	if out.err != nil {
		if !slices.ContainsFunc(w.refusals, func(r error) bool { return errors.Is(out.err, r) }) {
			if len(w.refusals) == 0 {
				return fmt.Errorf("%s = %v, want it accepted", call, out.err)
			}
			return fmt.Errorf("%s = %v, want an error that is %v", call, out.err, w.refusals)
		}
		if o.kind == opSubmit {
			return m.verifyRejected(o, w, out.err, evs)
		}
		if len(evs) > 0 {
			return fmt.Errorf("%s refused with %v but delivered events %s", call, out.err, eventList(evs))
		}
		return nil
	}
	if !w.accept {
		return fmt.Errorf("%s accepted, want an error that is %v", call, w.refusals)
	}
	for _, e := range evs {
		if err := m.fold(e); err != nil {
			return fmt.Errorf("%s: %v (events: %s)", call, err, eventList(evs))
		}
	}
	if len(evs) == 0 {
		return fmt.Errorf("%s accepted, but it delivered no event", call)
	}
	first, rest := evs[0], evs[1:]
	kinds := func(k core.EventKind) ([]string, error) {
		var ts []string
		for _, e := range rest {
			if e.Kind != k {
				return nil, fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
			}
			ts = append(ts, e.Task)
		}
		return ts, nil
	}
	switch o.kind {
	case opSubmit:
		return m.checkArrival(call, o.task, w.deps, w.state, w.blocked, evs)
	case opNext:
		if first.Kind != core.EventStarted || first.Task != w.front || len(rest) > 0 {
			return fmt.Errorf("%s: events %s, want %q started", call, eventList(evs), w.front)
		}
		if cur := m.current[w.front]; !out.lease.Equal(cur) {
			return fmt.Errorf("%s = %+v, want %+v as its started event says", call, out.lease, cur)
		}
	case opHeartbeat:
		if first.Kind != core.EventHeartbeat || first.Task != o.task || len(rest) > 0 {
			return fmt.Errorf("%s: events %s, want one heartbeat", call, eventList(evs))
		}
		if cur := m.current[o.task]; !out.lease.Equal(cur) {
			return fmt.Errorf("%s = %+v, want %+v, renewed to %v", call, out.lease, cur, m.deadline())
		}
	case opComplete:
		if first.Kind != core.EventSucceeded || first.Task != o.task {
			return fmt.Errorf("%s: first event %s, want %q succeeded", call, first, o.task)
		}
		ready, err := kinds(core.EventReady)
		if err != nil {
			return err
		}
		if !slices.Equal(ready, w.ready) && len(ready)+len(w.ready) > 0 {
			return fmt.Errorf("%s made %q READY, want %q, in the order they arrived", call, ready, w.ready)
		}
	case opFail:
		if err := w.fail.check(m, evs); err != nil {
			return fmt.Errorf("%s: %v", call, err)
		}
		if want := m.state[o.task]; out.state != want {
			return fmt.Errorf("%s = %s, but the task is %s", call, out.state, want)
		}
	case opRedrive, opForce:
		if first.Kind != core.EventRedriven || first.Task != o.task {
			return fmt.Errorf("%s: first event %s, want %q redriven", call, first, o.task)
		}
		var released []string
		for i, e := range rest {
			switch e.Kind {
			case core.EventUnblocked:
				released = append(released, e.Task)
			case core.EventRerooted:
				if m.state[e.Root] != core.Dead {
					return fmt.Errorf("%s: %q rerooted to %q, which is %s", call, e.Task, e.Root, orNone(m.state[e.Root]))
				}
			default:
				return fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
			}
			// Decided dependencies before dependents, each once.
			for _, later := range rest[i+1:] {
				if later.Task == e.Task {
					return fmt.Errorf("%s decides %q twice: %s", call, e.Task, eventList(evs))
				}
				if slices.Contains(m.upstream(e.Task), later.Task) {
					return fmt.Errorf("%s decides %q before its dependency %q: %s", call, e.Task, later.Task, eventList(evs))
				}
			}
		}
		if err := sameSet(call+": tasks released", released, w.release); err != nil {
			return fmt.Errorf("%v: %s", err, eventList(evs))
		}
	}
	return nil
}

// checkArrival checks the events of an accepted submit of task, folded
// already: Submitted with its deps (duplicates dropped), arriving in state,
// then the tasks its arrival blocks, nearest first, each blocked by the
// root the task arrived blocked by, a DEAD task upstream of it.
func (m *model) checkArrival(call, task string, deps []string, state core.State, blocked []string, evs []core.Event) error {
	first, rest := evs[0], evs[1:]
	if first.Kind != core.EventSubmitted || first.Task != task || !slices.Equal(first.Deps, deps) && len(first.Deps)+len(deps) > 0 {
		return fmt.Errorf("%s: first event %s (Deps %q), want Submitted %q waiting on %q", call, first, first.Deps, task, deps)
	}
	if first.To != state {
		return fmt.Errorf("%s: %s arrives %s, want %s", call, task, first.To, state)
	}
	if state == core.Blocked && (m.state[first.Root] != core.Dead || !slices.Contains(m.upstream(task), first.Root)) {
		return fmt.Errorf("%s: %s blocked by %q, which is not a DEAD task upstream", call, task, first.Root)
	}
	var got []string
	for _, e := range rest {
		if e.Kind != core.EventBlocked {
			return fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
		}
		if e.Root != first.Root {
			return fmt.Errorf("%s: %q blocked by %q, but the task arrived blocked by %q", call, e.Task, e.Root, first.Root)
		}
		got = append(got, e.Task)
	}
	if err := sameSet(call+": tasks blocked on arrival", got, blocked); err != nil {
		return err
	}
	return m.nearestFirst(task, got)
}

// checkOp checks that the events of one operation share one Op, later
// than the last operation's. An implementation that does not number its
// operations leaves Op 0 on every event; that is not checked.
func (m *model) checkOp(evs []core.Event) error {
	if len(evs) == 0 || evs[0].Op == 0 && !m.hadOp {
		return nil
	}
	op := evs[0].Op
	if m.hadOp && op <= m.op {
		return fmt.Errorf("events carry Op %d, but an earlier operation's carried %d: Op must grow (events: %s)", op, m.op, eventList(evs))
	}
	for _, e := range evs {
		if e.Op != op {
			return fmt.Errorf("the events of one operation carry Ops %d and %d (events: %s)", op, e.Op, eventList(evs))
		}
	}
	m.op, m.hadOp = op, true
	return nil
}

// verifyRejected checks a refused submit: one Rejected event naming the
// task, its deps and the error, with the cycle's path if it closed one,
// the path a simple cycle through the task.
func (m *model) verifyRejected(o op, w expectation, err error, evs []core.Event) error {
	call := o.String()
	var path []string
	if errors.Is(err, core.ErrCycle) {
		var ce *core.CycleError
		if !errors.As(err, &ce) {
			return fmt.Errorf("%s = %v (%T), is ErrCycle but not a *core.CycleError", call, err, err)
		}
		if perr := m.checkCyclePath(o.task, map[string][]string{o.task: w.deps}, ce.Path); perr != nil {
			return fmt.Errorf("%s = %v: %v", call, err, perr)
		}
		path = ce.Path
	}
	if len(evs) != 1 || evs[0].Kind != core.EventRejected {
		return fmt.Errorf("%s = %v: want one Rejected event, got %s", call, err, eventList(evs))
	}
	e := evs[0]
	if e.Task != o.task || e.Reason != err.Error() || !slices.Equal(e.Path, path) || (!slices.Equal(e.Deps, w.deps) && len(e.Deps)+len(w.deps) > 0) {
		return fmt.Errorf("%s = %v: rejected event %+v, want Task %q, Reason %q, Path %q, Deps %q", call, err, e, o.task, err.Error(), path, w.deps)
	}
	return m.fold(e)
}

// verifyAdvance checks an accepted advance by d: what fired is the
// model's timers up to the target, in order of time and of setting (a
// timer set by a firing included), each at its own time with the events it
// must have: an expiry, Expired and then the outcome of a failure with
// "lease expired", its blocking wave included; a due time, Due.
func (m *model) verifyAdvance(call string, d time.Duration, evs []core.Event) error {
	if err := m.checkOp(evs); err != nil {
		return fmt.Errorf("%s: %v", call, err)
	}
	target := later(m.now, d)
	tk := &eventTaker{m: m, call: call, all: evs, rest: evs}
	take := tk.take
	for {
		task, x, ok := m.firstTimer()
		if !ok || x.at > target {
			break
		}
		m.now = x.at
		if fired, err := m.fireDLQTimer(call, task, take); fired {
			if err != nil {
				return err
			}
			continue
		}
		if rest := tk.rest; len(rest) == 0 || rest[0].Task != task || (rest[0].Kind != core.EventDue && rest[0].Kind != core.EventExpired) {
			return fmt.Errorf("invariant 6: at %v the timer of %q (%s) fires first, but the events are %s", x.at, task, m.state[task], eventList(evs))
		}
		if m.state[task] == core.Delayed {
			if _, err := take(1); err != nil {
				return err
			}
			continue
		}
		cur := m.current[task]
		if _, err := take(1); err != nil { // Expired
			return err
		}
		want := m.expectFail(task, cur.Attempt, core.ErrLeaseExpired.Error(), false)
		got, err := take(1 + len(want.blocked))
		if err != nil {
			return err
		}
		if err := want.check(m, got); err != nil {
			return fmt.Errorf("%s: the expiry of %+v at %v: %v (events: %s)", call, cur, x.at, err, eventList(evs))
		}
	}
	if rest := tk.rest; len(rest) > 0 {
		return fmt.Errorf("%s: events the model has no timer for: %s (all: %s)", call, eventList(rest), eventList(evs))
	}
	m.now = target
	return nil
}

// eventTaker hands out the events of one operation a few at a time,
// folding each into the model as it is taken.
type eventTaker struct {
	m         *model
	call      string
	all, rest []core.Event
}

// take returns the next n events, folded; an error if fewer are left or
// one does not fold.
func (t *eventTaker) take(n int) ([]core.Event, error) {
	if n > len(t.rest) {
		return nil, fmt.Errorf("%s: at %v, want %d more events, got %s (all: %s)", t.call, t.m.now, n, eventList(t.rest), eventList(t.all))
	}
	got := t.rest[:n]
	t.rest = t.rest[n:]
	for _, e := range got {
		if err := t.m.fold(e); err != nil {
			return nil, fmt.Errorf("%s: %v (events: %s)", t.call, err, eventList(t.all))
		}
	}
	return got, nil
}

func dedup(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// sameSet reports whether got and want hold the same names, each once.
func sameSet(what string, got, want []string) error {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		return fmt.Errorf("%s: %q, want %q", what, got, want)
	}
	return nil
}
