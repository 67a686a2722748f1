package core_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// TestTheClockSaturates: at the largest time, an advance stops there, a
// lease handed out then has that deadline, and the next advance to it
// fires it.
func TestTheClockSaturates(t *testing.T) {
	t.Parallel()
	q, _ := core.New(core.Config{MaxAttempts: 2, LeaseTimeout: time.Hour})
	q.Submit("a")
	if err := q.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := q.Advance(math.MaxInt64); err != nil || q.Now() != math.MaxInt64 {
		t.Fatalf("Advance past the end: %v, now %v", err, q.Now())
	}
	l, _ := q.Next()
	if l.Deadline != math.MaxInt64 {
		t.Fatalf("deadline %v, want the largest time", l.Deadline)
	}
	if err := core.CheckInvariants(q); err != nil {
		t.Fatal(err)
	}
	if err := q.Advance(math.MaxInt64 - q.Now()); err != nil {
		t.Fatal(err)
	}
	if s, _ := q.Status("a"); s != core.Ready {
		t.Fatalf("a is %s after the advance to its deadline, want READY", s)
	}
	if err := q.Complete(l); !errors.Is(err, core.ErrLeaseExpired) {
		t.Fatalf("Complete: %v, want ErrLeaseExpired", err)
	}
}
