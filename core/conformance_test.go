package core_test

import (
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
		return checked{q, t}, err
	})
}

// checked is a core.Queue that runs core.CheckInvariants after every
// operation, reporting a violation to the test: so that every check of the
// property tests — leases, timers and the next timer, deps, attempts, the
// DLQ's fields and groups — also runs on every operation of the
// conformance suite, its long runs included.
type checked struct {
	*core.Queue
	t testing.TB
}

func (c checked) after(call string) {
	c.t.Helper()
	if err := core.CheckInvariants(c.Queue); err != nil {
		c.t.Errorf("after %s: %v", call, err)
	}
}

func (c checked) Submit(task string, deps ...string) error {
	err := c.Queue.Submit(task, deps...)
	c.after(fmt.Sprintf("Submit(%q, %q)", task, deps))
	return err
}

func (c checked) Next() (core.Lease, bool) {
	l, ok := c.Queue.Next()
	c.after("Next()")
	return l, ok
}

func (c checked) Heartbeat(l core.Lease) (core.Lease, error) {
	l2, err := c.Queue.Heartbeat(l)
	c.after(fmt.Sprintf("Heartbeat(%+v)", l))
	return l2, err
}

func (c checked) Complete(l core.Lease) error {
	err := c.Queue.Complete(l)
	c.after(fmt.Sprintf("Complete(%+v)", l))
	return err
}

func (c checked) Fail(l core.Lease, ferr error) (core.State, error) {
	s, err := c.Queue.Fail(l, ferr)
	c.after(fmt.Sprintf("Fail(%+v, %v)", l, ferr))
	return s, err
}

func (c checked) Redrive(task string) error {
	err := c.Queue.Redrive(task)
	c.after(fmt.Sprintf("Redrive(%q)", task))
	return err
}

func (c checked) Advance(d time.Duration) error {
	err := c.Queue.Advance(d)
	c.after(fmt.Sprintf("Advance(%v)", d))
	return err
}
