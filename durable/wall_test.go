package durable_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// fakeClock is a Clock the test moves: the wall clock's seam, without
// timed assertions.
type fakeClock struct{ now atomic.Int64 }

func (c *fakeClock) Now() time.Duration   { return time.Duration(c.now.Load()) }
func (c *fakeClock) Add(d time.Duration)  { c.now.Add(int64(d)) }
func (c *fakeClock) clock() durable.Clock { return c.Now }

// TestOnAClockAnExpiredLeaseIsFailedOnceByWhoeverSeesItFirst: under a
// Clock, a Complete of a lease past its deadline expires it (one
// EventExpired, one retry) and is refused with ErrLeaseExpired; a Tick
// after it finds nothing more to fire; a second late Complete is refused
// as expired again, changing nothing.
func TestOnAClockAnExpiredLeaseIsFailedOnceByWhoeverSeesItFirst(t *testing.T) {
	clk := &fakeClock{}
	clk.now.Store(int64(1000 * time.Hour))
	var mu sync.Mutex
	var events []core.Event
	db := openDB(t, durable.Options{Clock: clk.clock(), OnEvent: func(dag string, e core.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	q := openQueue(t, db, core.Config{MaxAttempts: 3, LeaseTimeout: 30 * time.Second})
	if err := q.Submit(bg, "a"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ls, err := db.NextBatch(ctx, 10)
	if err != nil || len(ls) != 1 {
		t.Fatalf("NextBatch: %v %v", ls, err)
	}
	if want := clk.Now() + 30*time.Second; ls[0].Deadline != want {
		t.Fatalf("deadline %v, want %v", ls[0].Deadline, want)
	}
	clk.Add(31 * time.Second)
	if err := db.Complete(ctx, ls[0]); !errors.Is(err, core.ErrLeaseExpired) {
		t.Fatalf("a late Complete: %v, want ErrLeaseExpired", err)
	}
	if st, _ := status(t, q, "a"); st != core.Ready {
		t.Fatalf("after the expiry a is %s, want READY (retried)", st)
	}
	if n, err := db.Tick(ctx); err != nil || n != 0 {
		t.Fatalf("Tick after the expiry visited %d DAGs (%v), want 0", n, err)
	}
	if err := db.Complete(ctx, ls[0]); !errors.Is(err, core.ErrLeaseExpired) {
		t.Fatalf("a second late Complete: %v, want ErrLeaseExpired", err)
	}
	expired := 0
	mu.Lock()
	for _, e := range events {
		if e.Kind == core.EventExpired {
			expired++
			if e.Deadline != ls[0].Deadline || e.At != ls[0].Deadline {
				t.Errorf("the expiry is at %v (deadline %v), want the lease's deadline %v", e.At, e.Deadline, ls[0].Deadline)
			}
		}
	}
	mu.Unlock()
	if expired != 1 {
		t.Fatalf("%d EventExpired, want 1", expired)
	}
}

// TestTickFiresDueTimersOfEveryDAG: on a Clock, a Tick fires the expired
// leases and due retries of every DAG, each once.
func TestTickFiresDueTimersOfEveryDAG(t *testing.T) {
	clk := &fakeClock{}
	db := openDB(t, durable.Options{Clock: clk.clock()})
	ctx := context.Background()
	cfg := core.Config{MaxAttempts: 3, LeaseTimeout: time.Second, Backoff: core.Backoff{Base: 5 * time.Second}}
	qs := []*durable.Queue{openQueue(t, db, cfg), openQueue(t, db, cfg)}
	for _, q := range qs {
		for _, task := range []string{"a", "b"} {
			if err := q.Submit(bg, task); err != nil {
				t.Fatal(err)
			}
		}
	}
	ls, err := db.NextBatch(ctx, 10)
	if err != nil || len(ls) != 4 {
		t.Fatalf("NextBatch: %d leases, %v", len(ls), err)
	}
	clk.Add(2 * time.Second)
	if n, err := db.Tick(ctx); err != nil || n != 2 {
		t.Fatalf("Tick visited %d DAGs (%v), want 2", n, err)
	}
	for _, q := range qs {
		for _, task := range []string{"a", "b"} {
			if st, _ := status(t, q, task); st != core.Delayed {
				t.Fatalf("%s of %s is %s after its lease expired, want DELAYED", task, q.DAG(), st)
			}
		}
	}
	clk.Add(5 * time.Second)
	if _, err := db.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readyTasks(t, qs[0]); len(got) != 2 {
		t.Fatalf("after the due time %v are READY, want a and b", got)
	}
}
