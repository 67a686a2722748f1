package queuetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// side is one queue the suite drives: the queue, its model, and the events
// it delivered that no operation has taken yet.
type side struct {
	q Queue
	m *model

	mu     sync.Mutex
	events []core.Event
	seen   []probe // per event, what Status said of its task while it was delivered
}

// probe is what a read from inside OnEvent said of an event's task.
type probe struct {
	state core.State
	err   error
}

// probeTimeout is how long a read from inside OnEvent may take before the
// suite decides it never returns: the queue delivered the event while the
// operation still held it.
const probeTimeout = 10 * time.Second

// deliver is the queue's OnEvent: it keeps the event and reads the state
// of its task, from inside the callback, to check that the event arrived
// after its operation had finished (for a durable queue: committed), as
// core's contract says.
func (s *side) deliver(e core.Event) {
	var p probe
	if s.q != nil && e.Task != "" {
		done := make(chan core.State, 1)
		failed := make(chan error, 1)
		go func() {
			st, _, err := s.q.Status(context.Background(), e.Task)
			if err != nil {
				failed <- err
				return
			}
			done <- st
		}()
		select {
		case p.state = <-done:
		case err := <-failed:
			p.err = fmt.Errorf("OnEvent(%s): Status(%q) from inside the callback: %v", e, e.Task, err)
		case <-time.After(probeTimeout):
			p.err = fmt.Errorf("OnEvent(%s): Status(%q) from inside the callback did not return in %v: "+
				"the event was delivered while its operation still held the queue", e, e.Task, probeTimeout)
		}
	}
	s.mu.Lock()
	s.events = append(s.events, e)
	s.seen = append(s.seen, p)
	s.mu.Unlock()
}

// openSide opens a queue with open under cfg, its events collected for the
// suite, and checks that it is empty.
func openSide(t testing.TB, open Open, cfg core.Config) (*side, error) {
	s := &side{m: newModel(cfg)}
	cfg.OnEvent = s.deliver
	q, err := open(t, cfg)
	if err != nil {
		return nil, fmt.Errorf("open(MaxAttempts %d, LeaseTimeout %v, Backoff %+v, PoisonAfter %d, Strategy %q): %v",
			cfg.MaxAttempts, cfg.LeaseTimeout, cfg.Backoff, cfg.PoisonAfter, cfg.Strategy, err)
	}
	if q == nil {
		return nil, errors.New("open returned a nil Queue and no error")
	}
	s.q = q
	if evs, _ := s.take(); len(evs) > 0 {
		return nil, fmt.Errorf("a fresh queue delivered events: %s", eventList(evs))
	}
	if err := s.m.check(q); err != nil {
		return nil, fmt.Errorf("a fresh queue: %v", err)
	}
	return s, nil
}

// take returns the events delivered since the last take, and what was
// read from inside the callback as each arrived.
func (s *side) take() ([]core.Event, []probe) {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs, seen := s.events, s.seen
	s.events, s.seen = nil, nil
	return evs, seen
}

// outcome is what an operation returned and the events it delivered.
type outcome struct {
	err    error
	lease  core.Lease // Next, Heartbeat
	ok     bool       // Next
	state  core.State // Fail
	events []core.Event
	seen   []probe // per event
}

// do runs o on the queue. The lease it presents is resolved against this
// side's model.
func (s *side) do(o op) outcome {
	var out outcome
	ctx := context.Background()
	switch o.kind {
	case opSubmit:
		out.err = s.q.Submit(ctx, o.task, o.deps...)
	case opNext:
		out.lease, out.ok, out.err = s.q.Next(ctx)
	case opHeartbeat:
		out.lease, out.err = s.q.Heartbeat(ctx, s.m.lease(o.task, o.lease))
	case opComplete:
		out.err = s.q.Complete(ctx, s.m.lease(o.task, o.lease))
	case opFail:
		err := errors.New(o.msg)
		if o.permanent {
			err = core.Permanent(err)
		}
		out.state, out.err = s.q.Fail(ctx, s.m.lease(o.task, o.lease), err)
	case opRedrive:
		out.err = s.q.Redrive(ctx, o.task)
	case opAdvance:
		out.err = s.q.Advance(ctx, o.dur)
	}
	out.events, out.seen = s.take()
	return out
}

// apply runs o on the queue and holds its outcome, its events and the
// queue's reads afterwards to the model: see expect and verify, and
// model.check. It returns what it did, for the comparison with another
// queue, and the first thing found wrong.
func (s *side) apply(o op) (outcome, error) {
	s.m.use(o.task)
	s.m.use(o.deps...)
	want := s.m.expect(o)
	var before view
	if want.mayRefuse() {
		var err error
		if before, err = s.read(); err != nil {
			return outcome{}, fmt.Errorf("before %s: %v", o, err)
		}
	}
	out := s.do(o)
	if err := s.m.verify(o, want, out); err != nil {
		return out, err
	}
	// Delivery: each event arrived when the operation had finished, so the
	// queue the callback read is the one after it.
	for i, p := range out.seen {
		e := out.events[i]
		if p.err != nil {
			return out, fmt.Errorf("%s: %v", o, p.err)
		}
		if e.Task != "" && p.state != s.m.state[e.Task] {
			return out, fmt.Errorf("%s: while %q was delivered, Status(%q) said %s, but after the operation it is %s: "+
				"an event must arrive once its operation has finished", o, e, e.Task, orNone(p.state), orNone(s.m.state[e.Task]))
		}
	}
	if out.err != nil || (o.kind == opNext && !out.ok) {
		// Invariant 5: a refused operation changes nothing.
		after, err := s.read()
		if err != nil {
			return out, fmt.Errorf("after %s: %v", o, err)
		}
		if d := before.diff(after); d != "" {
			return out, fmt.Errorf("invariant 5: refused with %v, but the queue changed: %s", out.err, d)
		}
	}
	return out, s.m.check(s.q)
}

// view is everything the interface reads of a queue, for the names an
// operation used.
type view struct {
	now    time.Duration
	states []string
	ready  []string
	dlq    []core.DeadLetter
}

func (s *side) read() (view, error) {
	ctx := context.Background()
	var v view
	var err error
	if v.now, err = s.q.Now(ctx); err != nil {
		return v, fmt.Errorf("Now: %v", err)
	}
	if v.ready, err = s.q.ReadyTasks(ctx); err != nil {
		return v, fmt.Errorf("ReadyTasks: %v", err)
	}
	if v.dlq, err = s.q.DeadLetters(ctx); err != nil {
		return v, fmt.Errorf("DeadLetters: %v", err)
	}
	for _, n := range s.m.names {
		st, ok, err := s.q.Status(ctx, n)
		if err != nil {
			return v, fmt.Errorf("Status(%q): %v", n, err)
		}
		v.states = append(v.states, fmt.Sprintf("%s:%s:%v", n, st, ok))
	}
	return v, nil
}

// diff describes how w differs from v, or returns "".
func (v view) diff(w view) string {
	var d []string
	if v.now != w.now {
		d = append(d, fmt.Sprintf("Now %v → %v", v.now, w.now))
	}
	if !slices.Equal(v.states, w.states) {
		d = append(d, fmt.Sprintf("Status %q → %q", v.states, w.states))
	}
	if !slices.Equal(v.ready, w.ready) {
		d = append(d, fmt.Sprintf("ReadyTasks %q → %q", v.ready, w.ready))
	}
	if !slices.EqualFunc(v.dlq, w.dlq, func(a, b core.DeadLetter) bool { return a == b }) {
		d = append(d, fmt.Sprintf("DeadLetters %+v → %+v", v.dlq, w.dlq))
	}
	if len(d) == 0 {
		return ""
	}
	return fmt.Sprint(d)
}
