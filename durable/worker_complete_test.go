package durable

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/pgtest"
)

// TestCompleteBatchIsCompletesInARow holds completeBatch to what the same
// completions one after another do: on two copies of a random DAG, each
// round completes the same running tasks, on one with DB.Complete in
// order, on the other in one batch (with a stale lease in it, which must be
// left out and change nothing); states, the READY line and the events must
// agree after every round.
func TestCompleteBatchIsCompletesInARow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var events [2][]string
	db, err := Open(ctx, pgtest.New(t), Options{OnEvent: func(dag string, e core.Event) {
		i := map[string]int{"row": 0, "batch": 1}[dag]
		events[i] = append(events[i], fmt.Sprintf("%s %s %s>%s @%d", e.Kind, e.Task, e.From, e.To, e.Attempt))
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	var qs [2]*Queue
	for i, dag := range []string{"row", "batch"} {
		if qs[i], err = db.Queue(ctx, dag, core.Config{MaxAttempts: 3}); err != nil {
			t.Fatal(err)
		}
	}
	const n = 120
	perm := rng.Perm(n)
	for _, i := range perm {
		var deps []string
		for range rng.IntN(4) {
			deps = append(deps, fmt.Sprintf("t%d", rng.IntN(n)))
		}
		for _, q := range qs {
			q.Submit(ctx, fmt.Sprintf("t%d", i), deps...) // a cycle is refused on both alike
		}
	}
	for round := 0; ; round++ {
		var leases [2][]Lease
		k := 1 + rng.IntN(12)
		for i, q := range qs {
			ls, err := q.NextBatch(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range ls {
				leases[i] = append(leases[i], Lease{DAG: q.DAG(), Lease: l})
			}
		}
		if len(leases[0]) != len(leases[1]) {
			t.Fatalf("round %d: %d and %d handed out", round, len(leases[0]), len(leases[1]))
		}
		if len(leases[0]) == 0 {
			break
		}
		rng.Shuffle(len(leases[0]), func(a, b int) {
			leases[0][a], leases[0][b] = leases[0][b], leases[0][a]
			leases[1][a], leases[1][b] = leases[1][b], leases[1][a]
		})
		for _, l := range leases[0] {
			if err := db.Complete(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		batch := leases[1]
		stale := batch[0]
		stale.ID++ // no lease of this task
		batch = append(batch, stale)
		unmatched, err := db.completeBatch(ctx, "batch", batch)
		if err != nil {
			t.Fatal(err)
		}
		if len(unmatched) != 1 || unmatched[0] != stale {
			t.Fatalf("round %d: unmatched %v, want only the stale lease", round, unmatched)
		}
		if err := db.Complete(ctx, stale); !errors.Is(err, core.ErrNotRunning) && !errors.Is(err, core.ErrStaleLease) {
			t.Fatalf("round %d: the stale lease alone: %v", round, err)
		}
		s0, _ := qs[0].States(ctx)
		s1, _ := qs[1].States(ctx)
		if !reflect.DeepEqual(s0, s1) {
			t.Fatalf("round %d: states differ:\n%v\n%v", round, s0, s1)
		}
		if !reflect.DeepEqual(events[0], events[1]) {
			t.Fatalf("round %d: events differ:\n%v\n%v", round, events[0], events[1])
		}
		r0, err0 := qs[0].ReadyTasks(ctx)
		r1, err1 := qs[1].ReadyTasks(ctx)
		if err := errors.Join(err0, err1); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r0, r1) {
			t.Fatalf("round %d: READY lines differ:\n%v\n%v", round, r0, r1)
		}
	}
	if len(events[0]) == 0 {
		t.Fatal("no events")
	}
}

// TestABatchGathersWhileHandlersRun holds the completer's gathering to its
// rules: successes arriving apart while handlers still run share a batch
// (up to its most); a batch that may free tasks when the worker is
// starved, or one with no handler left running, goes at once.
func TestABatchGathersWhileHandlersRun(t *testing.T) {
	t.Parallel()
	const wait = 10 * time.Second // long enough never to pass in a batch that gathers
	gather := func(sent, busy int, starved, dependents bool) (int, time.Duration) {
		c := &completer{in: make(chan completion, 8), most: 5, wait: wait,
			busy: func() int { return busy }, starved: func() bool { return starved }}
		go func() {
			for i := range sent {
				c.in <- completion{lease: Lease{Lease: core.Lease{Task: fmt.Sprint("t", i)}}, dependents: dependents}
				time.Sleep(time.Millisecond)
			}
		}()
		timer := time.NewTimer(wait)
		timer.Stop()
		start := time.Now()
		batch, open := c.next(timer)
		if !open {
			t.Fatal("closed")
		}
		return len(batch), time.Since(start)
	}
	if n, _ := gather(5, 3, false, false); n != 5 {
		t.Errorf("handlers running: a batch of %d, want the 5 that arrived apart", n)
	}
	if n, _ := gather(5, 3, false, true); n != 5 {
		t.Errorf("handlers running, tasks with dependents, the worker not starved: a batch of %d, want 5", n)
	}
	if n, d := gather(1, 3, true, true); n != 1 || d > wait/2 {
		t.Errorf("the worker starved and the task has dependents: a batch of %d after %v, want 1 at once", n, d)
	}
	if n, d := gather(1, 0, false, false); n != 1 || d > wait/2 {
		t.Errorf("no handler running: a batch of %d after %v, want 1 at once", n, d)
	}
}

// TestCompleteBatchWaitsOutAnUpdateOfItsRows completes a batch while
// another transaction holds new versions of its rows (as a submit that
// moves tasks in the order does): of the running task, which the batch
// finds by ctid before it updates it, and of its dependent, which it
// locks. Once the other commits, the batch must complete the lease and
// free the dependent all the same, not miss a row that moved.
func TestCompleteBatchWaitsOutAnUpdateOfItsRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, pgtest.New(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, err := db.Queue(ctx, "moved", core.Config{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][]string{{"a"}, {"b"}, {"c", "a"}} {
		if err := q.Submit(ctx, s[0], s[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := db.NextBatch(ctx, 2)
	if err != nil || len(ls) != 2 {
		t.Fatalf("handed out %v, %v; want a and b", ls, err)
	}
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE dagq_tasks SET ord = ord WHERE dag = 'moved' AND name IN ('a', 'c')`); err != nil {
		t.Fatal(err)
	}
	type result struct {
		unmatched []Lease
		err       error
	}
	done := make(chan result, 1)
	go func() {
		u, err := db.completeBatch(ctx, "moved", ls)
		done <- result{u, err}
	}()
	// The batch waits for the other transaction's row lock.
	for waiting := false; !waiting; {
		select {
		case r := <-done:
			t.Fatalf("the batch returned (%v, %v) while the rows were locked", r.unmatched, r.err)
		case <-time.After(5 * time.Millisecond):
		}
		if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE '%dagq_complete_batch%')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || len(r.unmatched) != 0 {
		t.Fatalf("complete: unmatched %v, %v; want both completed", r.unmatched, r.err)
	}
	states, err := q.States(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]core.State{"a": core.Succeeded, "b": core.Succeeded, "c": core.Ready}
	for task, s := range want {
		if states[task] != s {
			t.Errorf("%s is %s, want %s (states %v)", task, states[task], s, states)
		}
	}
}
