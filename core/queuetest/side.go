package queuetest

import (
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
}

// openSide opens a queue with open under cfg, its events collected for the
// suite, and checks that it is empty.
func openSide(t testing.TB, open Open, cfg core.Config) (*side, error) {
	s := &side{m: newModel(cfg)}
	cfg.OnEvent = func(e core.Event) {
		s.mu.Lock()
		s.events = append(s.events, e)
		s.mu.Unlock()
	}
	q, err := open(t, cfg)
	if err != nil {
		return nil, fmt.Errorf("open(MaxAttempts %d, LeaseTimeout %v, Backoff %+v, PoisonAfter %d, Strategy %q): %v",
			cfg.MaxAttempts, cfg.LeaseTimeout, cfg.Backoff, cfg.PoisonAfter, cfg.Strategy, err)
	}
	if q == nil {
		return nil, errors.New("open returned a nil Queue and no error")
	}
	s.q = q
	if evs := s.take(); len(evs) > 0 {
		return nil, fmt.Errorf("a fresh queue delivered events: %s", eventList(evs))
	}
	if err := s.m.check(q); err != nil {
		return nil, fmt.Errorf("a fresh queue: %v", err)
	}
	return s, nil
}

// take returns the events delivered since the last take.
func (s *side) take() []core.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs := s.events
	s.events = nil
	return evs
}

// outcome is what an operation returned and the events it delivered.
type outcome struct {
	err    error
	lease  core.Lease // Next, Heartbeat
	ok     bool       // Next
	state  core.State // Fail
	events []core.Event
}

// do runs o on the queue. The lease it presents is resolved against this
// side's model.
func (s *side) do(o op) outcome {
	var out outcome
	switch o.kind {
	case opSubmit:
		out.err = s.q.Submit(o.task, o.deps...)
	case opNext:
		out.lease, out.ok = s.q.Next()
	case opHeartbeat:
		out.lease, out.err = s.q.Heartbeat(s.m.lease(o.task, o.lease))
	case opComplete:
		out.err = s.q.Complete(s.m.lease(o.task, o.lease))
	case opFail:
		err := errors.New(o.msg)
		if o.permanent {
			err = core.Permanent(err)
		}
		out.state, out.err = s.q.Fail(s.m.lease(o.task, o.lease), err)
	case opRedrive:
		out.err = s.q.Redrive(o.task)
	case opAdvance:
		out.err = s.q.Advance(o.dur)
	}
	out.events = s.take()
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
		before = s.read()
	}
	out := s.do(o)
	if err := s.m.verify(o, want, out); err != nil {
		return out, err
	}
	if out.err != nil || (o.kind == opNext && !out.ok) {
		// Invariant 5: a refused operation changes nothing.
		if d := before.diff(s.read()); d != "" {
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

func (s *side) read() view {
	v := view{now: s.q.Now(), ready: s.q.ReadyTasks(), dlq: s.q.DeadLetters()}
	for _, n := range s.m.names {
		st, ok := s.q.Status(n)
		v.states = append(v.states, fmt.Sprintf("%s:%s:%v", n, st, ok))
	}
	return v
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
