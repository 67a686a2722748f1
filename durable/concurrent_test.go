package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/jackc/pgx/v5"
)

// TestWorkersAndSubmitsAtOnceLoseNothing: two DAGs of random tasks are
// submitted in shuffled order (dependencies often arriving after the tasks
// that wait on them) while eight workers take tasks across both DAGs,
// failing some once, completing the rest (half of them a batch at a time,
// with CompleteBatch). At the end every task SUCCEEDED,
// each completed exactly once, and every stored waiting count equals the
// count recomputed from the edges.
func TestWorkersAndSubmitsAtOnceLoseNothing(t *testing.T) {
	ctx := context.Background()
	var succeeded sync.Map
	var twice atomic.Int64
	url := newURL(t)
	db, err := durable.Open(ctx, url, durable.Options{OnEvent: func(dag string, e core.Event) {
		if e.Kind == core.EventSucceeded {
			if _, dup := succeeded.LoadOrStore(dag+"/"+e.Task, true); dup {
				twice.Add(1)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	const n = 150
	type sub struct {
		q    *durable.Queue
		task string
		deps []string
	}
	var subs []sub
	for range 2 {
		q := openQueue(t, db, core.Config{MaxAttempts: 3})
		for i := range n {
			s := sub{q: q, task: fmt.Sprint("t", i)}
			for range min(i, rng.IntN(4)) {
				s.deps = append(s.deps, fmt.Sprint("t", rng.IntN(i)))
			}
			subs = append(subs, s)
		}
	}
	rng.Shuffle(len(subs), func(i, j int) { subs[i], subs[j] = subs[j], subs[i] })

	var done atomic.Int64
	var wg sync.WaitGroup
	var submitted atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer submitted.Store(true)
		for _, s := range subs {
			if err := s.q.Submit(bg, s.task, s.deps...); err != nil {
				t.Errorf("submit %s: %v", s.task, err)
				return
			}
		}
	}()
	var failures atomic.Int64
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr := rand.New(rand.NewPCG(seed, uint64(w)))
			idle := 0
			for done.Load() < 2*n && idle < 2000 {
				ls, err := db.NextBatch(ctx, 4)
				if err != nil {
					t.Errorf("NextBatch: %v", err)
					return
				}
				if len(ls) == 0 {
					idle++
					time.Sleep(time.Millisecond)
					continue
				}
				idle = 0
				var batch []durable.Lease
				for _, l := range ls {
					if l.Attempt == 1 && wr.IntN(5) == 0 {
						if _, err := db.Fail(ctx, l, errors.New("flaky")); err != nil {
							t.Errorf("fail %s: %v", l.Task, err)
						}
						failures.Add(1)
						continue
					}
					if w%2 == 0 { // half the workers settle their fetch in one batch
						batch = append(batch, l)
						continue
					}
					if err := db.Complete(ctx, l); err != nil {
						t.Errorf("complete %s/%s: %v", l.DAG, l.Task, err)
						continue
					}
					done.Add(1)
				}
				for i, err := range db.CompleteBatch(ctx, batch) {
					if err != nil {
						t.Errorf("complete %s/%s in a batch: %v", batch[i].DAG, batch[i].Task, err)
						continue
					}
					done.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d completed, %d failed once", done.Load(), failures.Load())
	if done.Load() != 2*n {
		t.Fatalf("%d of %d tasks completed", done.Load(), 2*n)
	}
	if twice.Load() != 0 {
		t.Fatalf("%d tasks succeeded twice", twice.Load())
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var off int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM dagq_tasks t WHERE t.state <> '' AND t.waiting <> (
			SELECT count(*) FROM dagq_edges e JOIN dagq_tasks d ON d.dag = e.dag AND d.name = e.dep
			WHERE e.dag = t.dag AND e.task = t.name AND d.state <> 'SUCCEEDED')`).Scan(&off); err != nil {
		t.Fatal(err)
	}
	if off != 0 {
		t.Fatalf("%d tasks' waiting counts differ from their edges'", off)
	}
	var notDone int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM dagq_tasks WHERE state NOT IN ('', 'SUCCEEDED')`).Scan(&notDone); err != nil {
		t.Fatal(err)
	}
	if notDone != 0 {
		t.Fatalf("%d tasks did not succeed", notDone)
	}
}

// TestCompleteBatchRefusesOnlyTheStaleLease: a batch with a lease that is
// no longer current completes the others, in order, and refuses that one
// as Complete would.
func TestCompleteBatchRefusesOnlyTheStaleLease(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 3})
	for _, s := range [][]string{{"a"}, {"b"}, {"c"}, {"d", "a", "c"}} {
		if err := q.Submit(bg, s[0], s[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := db.NextBatch(ctx, 3)
	if err != nil || len(ls) != 3 {
		t.Fatalf("NextBatch: %v %v", ls, err)
	}
	if _, err := db.Fail(ctx, ls[1], errors.New("boom")); err != nil { // b: READY again, its lease stale
		t.Fatal(err)
	}
	errs := db.CompleteBatch(ctx, ls)
	if errs[0] != nil || errs[2] != nil || !errors.Is(errs[1], core.ErrNotRunning) {
		t.Fatalf("CompleteBatch: %v, want nil, ErrNotRunning, nil", errs)
	}
	for task, want := range map[string]core.State{"a": core.Succeeded, "b": core.Ready, "c": core.Succeeded, "d": core.Ready} {
		if st, _ := status(t, q, task); st != want {
			t.Errorf("%s is %s, want %s", task, st, want)
		}
	}
	if got := readyTasks(t, q); len(got) != 2 || got[0] != "b" || got[1] != "d" {
		t.Errorf("READY line %v, want [b d]", got)
	}
}
