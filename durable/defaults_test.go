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

// TestDefaultsRetryAndExpire: a DB opened with the zero Options and a
// worker with the zero WorkerOptions, as the package's Example does, retry
// a failed task when its backoff ends and run again a task whose lease
// expired. The worker's Poll is an hour, so it is the next timer that
// wakes it, not the poll.
func TestDefaultsRetryAndExpire(t *testing.T) {
	t.Parallel()
	t.Run("ARetryRunsWhenItsBackoffEnds", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3, Backoff: core.Backoff{Base: 300 * time.Millisecond, Factor: 2}})
		if err := q.Submit(bg, "flaky"); err != nil {
			t.Fatal(err)
		}
		var runs atomic.Int64
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			if runs.Add(1) == 1 {
				return errors.New("HTTP 503")
			}
			return nil
		}, durable.WorkerOptions{Poll: time.Hour, OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "flaky SUCCEEDED", func() bool { s, _ := status(t, q, "flaky"); return s == core.Succeeded })
		if n := runs.Load(); n != 2 {
			t.Errorf("flaky ran %d times, want 2", n)
		}
	})
	t.Run("ALeaseNobodyRenewsExpiresAndTheTaskRunsAgain", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 2, LeaseTimeout: time.Second})
		if err := q.Submit(bg, "orphan"); err != nil {
			t.Fatal(err)
		}
		// A worker that took it and died: nobody heartbeats or settles it.
		if ls, err := db.NextBatch(context.Background(), 1); err != nil || len(ls) != 1 {
			t.Fatalf("NextBatch: %v, %v", ls, err)
		}
		var attempts []int
		var mu sync.Mutex
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			mu.Lock()
			attempts = append(attempts, task.Attempt)
			mu.Unlock()
			return nil
		}, durable.WorkerOptions{Poll: time.Hour, OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "orphan SUCCEEDED", func() bool { s, _ := status(t, q, "orphan"); return s == core.Succeeded })
		mu.Lock()
		defer mu.Unlock()
		if len(attempts) != 1 || attempts[0] != 2 {
			t.Errorf("the worker ran attempts %v, want [2]", attempts)
		}
	})
	t.Run("EveryDAGHasALeaseTimeout", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		if err := q.Submit(bg, "a"); err != nil {
			t.Fatal(err)
		}
		l, ok := next(t, q)
		if !ok {
			t.Fatal("nothing handed out")
		}
		now := now(t, q)
		if got := l.Deadline - now; got <= 0 || got > durable.DefaultLeaseTimeout {
			t.Errorf("the lease runs %v from now, want at most DefaultLeaseTimeout (%v)", got, durable.DefaultLeaseTimeout)
		}
		if got := l.Deadline - now; got < durable.DefaultLeaseTimeout-10*time.Second {
			t.Errorf("the lease runs only %v from now, want about DefaultLeaseTimeout (%v)", got, durable.DefaultLeaseTimeout)
		}
	})
}

// TestAShortHandlerSendsNoHeartbeat: a handler that takes 1 s under a 30 s
// lease is renewed every 10 s, so not at all: the lease's time to run is
// the database's, not the difference of two machines' clocks.
func TestAShortHandlerSendsNoHeartbeat(t *testing.T) {
	t.Parallel()
	var beats atomic.Int64
	db := openDB(t, durable.Options{OnEvent: func(_ string, e core.Event) {
		if e.Kind == core.EventHeartbeat {
			beats.Add(1)
		}
	}})
	q := openQueue(t, db, core.Config{MaxAttempts: 1, LeaseTimeout: 30 * time.Second})
	if err := q.Submit(bg, "second"); err != nil {
		t.Fatal(err)
	}
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		time.Sleep(time.Second)
		return nil
	}, durable.WorkerOptions{OnError: quiet(t)})
	startWorker(t, w)
	waitFor(t, "second SUCCEEDED", func() bool { s, _ := status(t, q, "second"); return s == core.Succeeded })
	if n := beats.Load(); n > 3 {
		t.Errorf("%d heartbeats for a 1 s handler under a 30 s lease, want at most a few", n)
	}
}
