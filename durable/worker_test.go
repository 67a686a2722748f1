package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// patience is how long a test waits for an outcome: generous, since the
// machine may be loaded; the tests assert outcomes and counts, never times.
const patience = 60 * time.Second

// startWorker runs w until the test ends (or stop is called), and returns
// stop, which shuts it down and waits for Run to return.
func startWorker(t *testing.T, w *durable.Worker) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// waitFor polls cond until it holds, failing the test after patience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: still not %s", patience, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settledStates reports whether every task of q is SUCCEEDED, DEAD or
// BLOCKED, with the states.
func settledStates(t *testing.T, q *durable.Queue) (map[string]core.State, bool) {
	t.Helper()
	states, err := q.States(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range states {
		if s != core.Succeeded && s != core.Dead && s != core.Blocked {
			return states, false
		}
	}
	return states, true
}

// quiet collects a worker's reported errors for the test's log.
func quiet(t *testing.T) func(error) {
	return func(err error) { t.Log(err) }
}

func TestWorker(t *testing.T) {
	t.Parallel()
	t.Run("RunsEveryTaskOnceAfterItsDependencies", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		seed := rand.Uint64()
		t.Logf("seed %d", seed)
		rng := rand.New(rand.NewPCG(seed, 0))
		// Two DAGs of 150 tasks, each waiting on up to three earlier ones,
		// run by one worker with eight handlers.
		deps := map[string][]string{}
		var queues []*durable.Queue
		for d := range 2 {
			q := openQueue(t, db, core.Config{MaxAttempts: 3})
			queues = append(queues, q)
			for i := range 150 {
				name := fmt.Sprintf("t%d", i)
				var ds []string
				for range rng.IntN(4) {
					if i > 0 {
						ds = append(ds, fmt.Sprintf("t%d", rng.IntN(i)))
					}
				}
				deps[fmt.Sprintf("%d/%s", d, name)] = ds
				if err := q.Submit(bg, name, ds...); err != nil {
					t.Fatal(err)
				}
			}
		}
		dagIndex := map[string]int{queues[0].DAG(): 0, queues[1].DAG(): 1}
		var mu sync.Mutex
		var clock int
		startedAt, endedAt := map[string]int{}, map[string]int{}
		runs := map[string]int{}
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			key := fmt.Sprintf("%d/%s", dagIndex[task.DAG], task.Name)
			mu.Lock()
			clock++
			startedAt[key] = clock
			runs[key]++
			mu.Unlock()
			time.Sleep(time.Duration(rng2(key)) * time.Millisecond)
			mu.Lock()
			clock++
			endedAt[key] = clock
			mu.Unlock()
			return nil
		}, durable.WorkerOptions{Workers: 8, OnError: quiet(t)})
		stop := startWorker(t, w)
		for _, q := range queues {
			waitFor(t, "every task SUCCEEDED", func() bool {
				states, ok := settledStates(t, q)
				return ok && len(states) == 150
			})
		}
		stop()
		mu.Lock()
		defer mu.Unlock()
		for key, ds := range deps {
			if runs[key] != 1 {
				t.Errorf("%s ran %d times, want once", key, runs[key])
			}
			prefix, _, _ := strings.Cut(key, "/")
			for _, d := range ds {
				if dk := prefix + "/" + d; endedAt[dk] > startedAt[key] {
					t.Errorf("%s started before its dependency %s ended", key, d)
				}
			}
		}
		for _, q := range queues {
			states, _ := settledStates(t, q)
			for name, s := range states {
				if s != core.Succeeded {
					t.Errorf("%s/%s is %s", q.DAG(), name, s)
				}
			}
		}
		// A completion is counted once its batch has committed, just after
		// the task shows SUCCEEDED.
		waitFor(t, "the completions counted", func() bool { return w.Stats().Completed >= 300 })
		if st := w.Stats(); st.Completed != 300 || st.Fetched != 300 || st.Refused != 0 {
			t.Errorf("stats %+v, want 300 fetched and completed, none refused", st)
		}
	})

	t.Run("FailsWithTheHandlersErrorAndRetries", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3})
		q.Submit(bg, "flaky")
		q.Submit(bg, "after", "flaky")
		var attempts atomic.Int32
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			if task.Name == "flaky" {
				attempts.Add(1)
				if task.Attempt < 3 {
					return errors.New("HTTP 503")
				}
			}
			return nil
		}, durable.WorkerOptions{Workers: 2, OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "both SUCCEEDED", func() bool {
			states, ok := settledStates(t, q)
			return ok && len(states) == 2
		})
		if st, _ := status(t, q, "after"); st != core.Succeeded {
			t.Errorf("after is %s", st)
		}
		if n := attempts.Load(); n != 3 {
			t.Errorf("flaky ran %d times, want 3", n)
		}
		waitFor(t, "the results counted", func() bool { st := w.Stats(); return st.Failed >= 2 && st.Completed >= 2 })
		if st := w.Stats(); st.Failed != 2 || st.Completed != 2 {
			t.Errorf("stats %+v, want 2 failed, 2 completed", st)
		}
	})

	t.Run("APermanentErrorKillsAtOnceAndBlocksDownstream", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 5})
		q.Submit(bg, "fetch")
		q.Submit(bg, "parse", "fetch")
		var runs atomic.Int32
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			runs.Add(1)
			return core.Permanent(errors.New("bad input"))
		}, durable.WorkerOptions{OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "fetch DEAD and parse BLOCKED", func() bool {
			_, ok := settledStates(t, q)
			return ok
		})
		dl := deadLetters(t, q)
		if len(dl) != 2 || dl[0].Task != "fetch" || dl[0].Reason != "permanent failure after 1 attempt: bad input" ||
			dl[1].Task != "parse" || dl[1].Reason != "blocked by fetch" {
			t.Errorf("dead letters %+v", dl)
		}
		if n := runs.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want once", n)
		}
	})

	t.Run("APanicFailsTheTask", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		q.Submit(bg, "boom")
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			panic("nil map")
		}, durable.WorkerOptions{OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "boom DEAD", func() bool { st, _ := status(t, q, "boom"); return st == core.Dead })
		if dl := deadLetters(t, q); len(dl) != 1 || !strings.Contains(dl[0].Reason, "panicked: nil map") {
			t.Errorf("dead letters %+v", dl)
		}
	})

	t.Run("HeartbeatsKeepALongTasksLease", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3, LeaseTimeout: 300 * time.Millisecond})
		q.Submit(bg, "long")
		var runs atomic.Int32
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			runs.Add(1)
			select {
			case <-time.After(1500 * time.Millisecond):
				return nil
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}, durable.WorkerOptions{Poll: 50 * time.Millisecond, OnError: quiet(t)})
		startWorker(t, w)
		waitFor(t, "long SUCCEEDED", func() bool { st, _ := status(t, q, "long"); return st == core.Succeeded })
		if n := runs.Load(); n != 1 {
			t.Errorf("long ran %d times, want once: its lease expired", n)
		}
		// The worker counts a completion once its batch has committed,
		// just after the task shows SUCCEEDED.
		waitFor(t, "the completion counted", func() bool { return w.Stats().Completed == 1 })
		if st := w.Stats(); st.Refused != 0 || st.Completed != 1 {
			t.Errorf("stats %+v", st)
		}
	})

	t.Run("WithoutHeartbeatsTheLeaseExpiresAndTheLateResultIsRefused", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3, LeaseTimeout: 200 * time.Millisecond})
		q.Submit(bg, "long")
		var runs atomic.Int32
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			if runs.Add(1) == 1 {
				time.Sleep(time.Second) // ignores its context: the lease expires under it
			}
			return nil
		}, durable.WorkerOptions{Workers: 2, Poll: 50 * time.Millisecond, Heartbeat: time.Hour, OnError: quiet(t)})
		stop := startWorker(t, w)
		waitFor(t, "long SUCCEEDED", func() bool { st, _ := status(t, q, "long"); return st == core.Succeeded })
		waitFor(t, "the late result refused", func() bool { return w.Stats().Refused == 1 })
		stop()
		if n := runs.Load(); n != 2 {
			t.Errorf("long ran %d times, want twice", n)
		}
		if st := w.Stats(); st.Completed != 1 {
			t.Errorf("stats %+v, want one completion accepted", st)
		}
	})

	t.Run("AnIdleWorkerWakesOnANotificationNotThePoll", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		started := make(chan time.Time, 10)
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			started <- time.Now()
			return nil
		}, durable.WorkerOptions{Poll: time.Hour, OnError: quiet(t)})
		startWorker(t, w)
		// Nothing READY for a while: the worker is asleep on its poll
		// of an hour by now.
		time.Sleep(200 * time.Millisecond)
		for i := range 3 {
			t0 := time.Now()
			if err := q.Submit(bg, fmt.Sprintf("t%d", i)); err != nil {
				t.Fatal(err)
			}
			select {
			case at := <-started:
				t.Logf("handed out %v after the submit began", at.Sub(t0))
			case <-time.After(patience):
				t.Fatalf("t%d was not handed out within %v: no wake-up", i, patience)
			}
		}
	})

	t.Run("ShutdownFinishesRunningHandlersWithinTheGrace", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3})
		q.Submit(bg, "a")
		running := make(chan struct{})
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			close(running)
			time.Sleep(300 * time.Millisecond)
			return nil
		}, durable.WorkerOptions{Grace: patience, OnError: quiet(t)})
		stop := startWorker(t, w)
		<-running
		stop()
		if st, _ := status(t, q, "a"); st != core.Succeeded {
			t.Errorf("a is %s after a graceful shutdown, want SUCCEEDED", st)
		}
	})

	t.Run("ShutdownReleasesWhatOutlivesTheGrace", func(t *testing.T) {
		t.Parallel()
		db := openDB(t, durable.Options{})
		q := openQueue(t, db, core.Config{MaxAttempts: 3})
		q.Submit(bg, "stuck")
		running := make(chan struct{})
		cause := make(chan error, 1)
		w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			close(running)
			<-ctx.Done()
			cause <- context.Cause(ctx)
			return ctx.Err()
		}, durable.WorkerOptions{Grace: 100 * time.Millisecond, OnError: quiet(t)})
		stop := startWorker(t, w)
		<-running
		stop()
		if st, _ := status(t, q, "stuck"); st != core.Ready {
			t.Errorf("stuck is %s after the grace ran out, want READY for another worker", st)
		}
		if err := <-cause; !errors.Is(err, durable.ErrWorkerStopped) {
			t.Errorf("the handler's context ended with %v, want ErrWorkerStopped", err)
		}
		if st := w.Stats(); st.Released != 1 || st.Completed != 0 || st.Failed != 0 {
			t.Errorf("stats %+v, want one released", st)
		}
		// Another worker takes it, at its second attempt.
		var attempt atomic.Int32
		w2 := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
			attempt.Store(int32(task.Attempt))
			return nil
		}, durable.WorkerOptions{OnError: quiet(t)})
		startWorker(t, w2)
		waitFor(t, "stuck SUCCEEDED", func() bool { st, _ := status(t, q, "stuck"); return st == core.Succeeded })
		if a := attempt.Load(); a != 2 {
			t.Errorf("the second worker ran attempt %d, want 2", a)
		}
	})
}

// rng2 is a handler's pretend work in milliseconds, 0 to 2, from its key.
func rng2(key string) int { return len(key) % 3 }
