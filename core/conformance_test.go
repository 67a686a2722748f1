package core_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/queuetest"
)

// TestConformance holds the in-memory queue to the conformance suite every
// implementation passes: the rules as table cases, and random operation
// sequences checked against the invariants after every operation. The
// queue it hands the suite also runs core's own check of the invariants
// after every operation (see checked), which reads what the suite's
// interface does not.
func TestConformance(t *testing.T) {
	queuetest.Run(t, func(t testing.TB, cfg core.Config) (queuetest.Queue, error) {
		q, err := core.New(cfg)
		if err != nil {
			return nil, err
		}
		return checked{queuetest.Memory(q), q, t}, nil
	})
}

// checked is a core.Queue, through queuetest.Memory, that runs
// core.CheckInvariants after every operation, reporting a violation to the
// test: so that every check of the property tests — leases, timers and the
// next timer, deps, attempts, the DLQ's fields and groups — also runs on
// every operation of the conformance suite, its long runs included.
type checked struct {
	queuetest.Queue
	q *core.Queue
	t testing.TB
}

func (c checked) after(call string) {
	c.t.Helper()
	if err := core.CheckInvariants(c.q); err != nil {
		c.t.Errorf("after %s: %v", call, err)
	}
}

func (c checked) Submit(ctx context.Context, task string, deps ...string) error {
	err := c.Queue.Submit(ctx, task, deps...)
	c.after(fmt.Sprintf("Submit(%q, %q)", task, deps))
	return err
}

func (c checked) Next(ctx context.Context) (core.Lease, bool, error) {
	l, ok, err := c.Queue.Next(ctx)
	c.after("Next()")
	return l, ok, err
}

func (c checked) Heartbeat(ctx context.Context, l core.Lease) (core.Lease, error) {
	l2, err := c.Queue.Heartbeat(ctx, l)
	c.after(fmt.Sprintf("Heartbeat(%+v)", l))
	return l2, err
}

func (c checked) Complete(ctx context.Context, l core.Lease) error {
	err := c.Queue.Complete(ctx, l)
	c.after(fmt.Sprintf("Complete(%+v)", l))
	return err
}

func (c checked) Fail(ctx context.Context, l core.Lease, ferr error) (core.State, error) {
	s, err := c.Queue.Fail(ctx, l, ferr)
	c.after(fmt.Sprintf("Fail(%+v, %v)", l, ferr))
	return s, err
}

func (c checked) Redrive(ctx context.Context, task string) error {
	err := c.Queue.Redrive(ctx, task)
	c.after(fmt.Sprintf("Redrive(%q)", task))
	return err
}

func (c checked) Advance(ctx context.Context, d time.Duration) error {
	err := c.Queue.Advance(ctx, d)
	c.after(fmt.Sprintf("Advance(%v)", d))
	return err
}
