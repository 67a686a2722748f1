package queuetest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
)

// pair is an implementation under test and the reference, the in-memory
// core.Queue, given the same operations. Each side is held to its own
// model; then the two are compared: the results and errors of every
// operation, its events, and everything the interface reads.
type pair struct {
	impl, ref *side
	refQ      *core.Queue // the reference, for what the generator asks beyond the interface
}

func openPair(t testing.TB, open Open, cfg core.Config) (*pair, error) {
	impl, err := openSide(t, open, cfg)
	if err != nil {
		return nil, err
	}
	var refQ *core.Queue
	ref, err := openSide(t, func(_ testing.TB, cfg core.Config) (Queue, error) {
		q, err := core.New(cfg)
		if err != nil {
			return nil, err
		}
		refQ = q
		return Memory(q), nil
	}, cfg)
	if err != nil {
		return nil, fmt.Errorf("the reference: %v", err)
	}
	return &pair{impl: impl, ref: ref, refQ: refQ}, nil
}

// step runs o on both queues, checks each against its model and compares
// them.
func (p *pair) step(o op) error {
	rout, rerr := p.ref.apply(o)
	if rerr != nil {
		// The reference is held to the same rules: a failure here is core's
		// (or the suite's), whatever the implementation does.
		return fmt.Errorf("the reference core.Queue breaks the rules: %v", rerr)
	}
	iout, ierr := p.impl.apply(o)
	if ierr != nil {
		return ierr
	}
	if err := compareOutcomes(o, iout, rout); err != nil {
		return err
	}
	return compareModels(p.impl.m, p.ref.m)
}

// sentinels are the errors whose identity an implementation must keep.
var sentinels = []error{
	core.ErrDuplicate, core.ErrCycle, core.ErrUnknown, core.ErrNotRunning, core.ErrStaleLease,
	core.ErrNotDead, core.ErrInvalidName, core.ErrLeaseExpired, core.ErrClockBackwards, core.ErrPoisoned,
}

// sameError reports whether got and want are the same error as errors.Is
// and errors.As see them: both nil, or the same sentinels, and both or
// neither a *core.CycleError.
func sameError(got, want error) bool {
	if (got == nil) != (want == nil) {
		return false
	}
	for _, s := range sentinels {
		if errors.Is(got, s) != errors.Is(want, s) {
			return false
		}
	}
	var a, b *core.CycleError
	return errors.As(got, &a) == errors.As(want, &b)
}

// compareOutcomes compares what o returned and delivered on the
// implementation with the reference. Lease ids are each implementation's
// own and are not compared, nor are the cycle check's Visits and Visited;
// a cycle's path is compared only if both name the same cycle (each side's
// model checked that its path is a real cycle through the task).
func compareOutcomes(o op, got, want outcome) error {
	call := o.String()
	if !sameError(got.err, want.err) {
		return fmt.Errorf("%s = %v, but the reference says %v", call, orNil(got.err), orNil(want.err))
	}
	if got.ok != want.ok {
		return fmt.Errorf("%s handed out %v, but the reference %v", call, got.ok, want.ok)
	}
	if got.err == nil && (o.kind == opNext || o.kind == opHeartbeat) && !sameLease(got.lease, want.lease) {
		return fmt.Errorf("%s = %+v, but the reference says %+v (ids aside)", call, got.lease, want.lease)
	}
	if got.err == nil && o.kind == opFail && got.state != want.state {
		return fmt.Errorf("%s = %s, but the reference says %s", call, got.state, want.state)
	}
	samePath := true
	var a, b *core.CycleError
	if errors.As(got.err, &a) && errors.As(want.err, &b) {
		samePath = slices.Equal(a.Path, b.Path)
	}
	if len(got.events) != len(want.events) {
		return fmt.Errorf("%s delivered %s, but the reference %s", call, eventList(got.events), eventList(want.events))
	}
	for i := range got.events {
		g, w := agreed(got.events[i], samePath), agreed(want.events[i], samePath)
		if !equalEvents(g, w) {
			return fmt.Errorf("%s: event %d is %+v, but the reference's is %+v (all: %s; the reference's: %s)",
				call, i+1, g, w, eventList(got.events), eventList(want.events))
		}
	}
	return nil
}

func orNil(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// sameLease compares two leases but for their ids.
func sameLease(a, b core.Lease) bool {
	return a.Task == b.Task && a.Attempt == b.Attempt && a.Deadline == b.Deadline
}

// agreed keeps of an event what two implementations must agree on:
// everything but Op (each queue counts its own), Lease, Visits and
// Visited; and Path and Reason of a rejected cycle only if both name the
// same cycle.
func agreed(e core.Event, samePath bool) core.Event {
	e.Op, e.Lease, e.Visits, e.Visited = 0, 0, 0, nil
	if e.Kind == core.EventRejected && !samePath {
		e.Path, e.Reason = nil, ""
	}
	return e
}

func equalEvents(a, b core.Event) bool {
	eq := func(x, y []string) bool { return slices.Equal(x, y) || len(x)+len(y) == 0 }
	if !eq(a.Deps, b.Deps) || !eq(a.Path, b.Path) || !eq(a.Visited, b.Visited) || !eq(a.Tasks, b.Tasks) || !eq(a.Skipped, b.Skipped) {
		return false
	}
	a.Deps, a.Path, a.Visited, a.Tasks, a.Skipped = nil, nil, nil, nil, nil
	b.Deps, b.Path, b.Visited, b.Tasks, b.Skipped = nil, nil, nil, nil, nil
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
}

// compareModels compares what the two queues have shown so far, each read
// checked against its own model already: the clock, the tasks with their
// deps and states, attempts, the READY line, the DLQ as read (every field
// but Fingerprint and BlastRadius, derived data an implementation may
// leave out), the leases but for their ids, and the timers.
func compareModels(got, want *model) error {
	switch {
	case got.now != want.now:
		return fmt.Errorf("the clock is at %v, the reference's at %v", got.now, want.now)
	case !slices.Equal(got.tasks, want.tasks):
		return fmt.Errorf("the tasks are %q, the reference's %q", got.tasks, want.tasks)
	case !maps.EqualFunc(got.deps, want.deps, func(a, b []string) bool { return slices.Equal(a, b) }):
		return fmt.Errorf("the deps are %q, the reference's %q", got.deps, want.deps)
	case !maps.Equal(got.state, want.state):
		return fmt.Errorf("the states are %v, the reference's %v", got.state, want.state)
	case !maps.Equal(got.attempts, want.attempts):
		return fmt.Errorf("the attempts are %v, the reference's %v", got.attempts, want.attempts)
	case !slices.Equal(got.fifo, want.fifo):
		return fmt.Errorf("the READY line is %q, the reference's %q", got.fifo, want.fifo)
	}
	brief := func(d core.DeadLetter) core.DeadLetter {
		d.Fingerprint, d.BlastRadius = "", 0
		return d
	}
	if !slices.EqualFunc(got.lastDLQ, want.lastDLQ, func(a, b core.DeadLetter) bool { return brief(a) == brief(b) }) {
		return fmt.Errorf("DeadLetters() = %+v, the reference's %+v", got.lastDLQ, want.lastDLQ)
	}
	for t, l := range want.current {
		if g, ok := got.current[t]; !ok || !sameLease(g, l) {
			return fmt.Errorf("the lease of %q is %+v, the reference's %+v", t, g, l)
		}
	}
	if len(got.current) != len(want.current) {
		return fmt.Errorf("%d tasks hold leases, the reference's %d", len(got.current), len(want.current))
	}
	if !maps.EqualFunc(got.timers, want.timers, func(a, b timer) bool { return a.at == b.at }) {
		return fmt.Errorf("the timers are %v, the reference's %v", got.timers, want.timers)
	}
	return nil
}
