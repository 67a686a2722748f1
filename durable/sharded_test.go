package durable_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestShardRouting holds the routing to what jump consistent hashing
// promises, without a database: stable, even, and adding a shard moves only
// what the new shard takes.
func TestShardRouting(t *testing.T) {
	t.Parallel()
	shards := func(n int) *durable.Sharded {
		s, err := durable.NewSharded(make([]*durable.DB, n)...)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const dags = 10_000
	s2, s3 := shards(2), shards(3)
	counts := make([]int, 3)
	moved := 0
	for i := range dags {
		dag := fmt.Sprintf("dag-%d", i)
		a, b := s2.Shard(dag), s3.Shard(dag)
		if a != s2.Shard(dag) {
			t.Fatalf("%s routed to %d, then elsewhere", dag, a)
		}
		if a != b {
			moved++
			if b != 2 {
				t.Errorf("%s moved from shard %d to %d when shard 2 was added: only the new shard may take DAGs", dag, a, b)
			}
		}
		counts[b]++
	}
	for i, c := range counts {
		if c < dags/3*8/10 || c > dags/3*12/10 {
			t.Errorf("shard %d of 3 holds %d of %d DAGs: not even", i, c, dags)
		}
	}
	if moved < dags/3*8/10 || moved > dags/3*12/10 {
		t.Errorf("adding a third shard moved %d of %d DAGs, want about a third", moved, dags)
	}
	if _, err := durable.NewSharded(); err == nil {
		t.Error("a sharded queue over no database was accepted")
	}
}

func TestSharded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := []*durable.DB{
		openDB(t, durable.Options{}),
		openDB(t, durable.Options{}),
	}
	s, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	// Ten DAGs, each a little diamond, spread over the two databases.
	var dagNames []string
	perShard := make([]int, 2)
	for i := range 10 {
		dag := fmt.Sprintf("order-%d", i)
		dagNames = append(dagNames, dag)
		perShard[s.Shard(dag)]++
		if _, err := s.Queue(ctx, dag, core.Config{MaxAttempts: 2}); err != nil {
			t.Fatal(err)
		}
		ref := func(name string) durable.TaskRef { return durable.TaskRef{DAG: dag, Name: name} }
		for _, sub := range []struct {
			task durable.TaskRef
			deps []durable.TaskRef
		}{
			{ref("fetch"), nil},
			{ref("left"), []durable.TaskRef{ref("fetch")}},
			{ref("right"), []durable.TaskRef{ref("fetch")}},
			{ref("join"), []durable.TaskRef{ref("left"), ref("right")}},
		} {
			if err := s.Submit(bg, sub.task, sub.deps...); err != nil {
				t.Fatal(err)
			}
		}
	}
	if perShard[0] == 0 || perShard[1] == 0 {
		t.Fatalf("the DAGs all went to one shard: %v", perShard)
	}

	t.Run("EachDAGLivesInItsShardOnly", func(t *testing.T) {
		for i, db := range dbs {
			var n int
			if err := db.Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_dags").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != perShard[i] {
				t.Errorf("shard %d holds %d DAGs, want %d", i, n, perShard[i])
			}
			for _, dag := range dagNames {
				var tasks int
				if err := db.Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE dag = $1", dag).Scan(&tasks); err != nil {
					t.Fatal(err)
				}
				if want := map[bool]int{true: 4, false: 0}[s.Shard(dag) == i]; tasks != want {
					t.Errorf("shard %d holds %d tasks of %s, want %d", i, tasks, dag, want)
				}
			}
		}
	})

	t.Run("ADependencyAcrossDAGsIsRefused", func(t *testing.T) {
		task := durable.TaskRef{DAG: "order-0", Name: "ship"}
		dep := durable.TaskRef{DAG: "order-1", Name: "join"}
		err := s.Submit(bg, task, durable.TaskRef{DAG: "order-0", Name: "join"}, dep)
		var ce *durable.CrossDAGError
		if !errors.As(err, &ce) || !errors.Is(err, durable.ErrCrossDAG) || ce.Task != task || ce.Dep != dep {
			t.Fatalf("got %v, want a CrossDAGError naming %v and %v", err, task, dep)
		}
		t.Log(err)
		var n int
		db0, err := s.DB(ctx, "order-0")
		if err != nil {
			t.Fatal(err)
		}
		if err := db0.Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE name = 'ship'").Scan(&n); err != nil || n != 0 {
			t.Errorf("the refused submit left %d rows (%v)", n, err)
		}
	})

	t.Run("AnUnopenedDAGIsRefused", func(t *testing.T) {
		if err := s.Submit(bg, durable.TaskRef{DAG: "never-opened", Name: "a"}); err == nil {
			t.Error("a submit to a DAG never opened was accepted")
		}
	})

	t.Run("AddingAShardMovesNoDAG", func(t *testing.T) {
		// A DAG made in the second shard before placements were recorded,
		// whatever the hash says.
		legacy, err := dbs[1].Queue(ctx, "legacy", core.Config{MaxAttempts: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := legacy.Submit(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		extra := openDB(t, durable.Options{})
		s3, err := durable.NewSharded(dbs[0], dbs[1], extra)
		if err != nil {
			t.Fatal(err)
		}
		moved := 0
		for _, dag := range append(dagNames, "legacy") {
			if s3.Shard(dag) != s.Shard(dag) {
				moved++ // the hash would move it: the record must not
			}
			was, err := s.Locate(ctx, dag)
			if err != nil {
				t.Fatal(err)
			}
			if dag == "legacy" {
				was = 1
			}
			if now, err := s3.Locate(ctx, dag); err != nil || now != was {
				t.Errorf("with a third shard %s is located in %d (%v), want %d where it lives", dag, now, err, was)
			}
			q, err := s3.Queue(ctx, dag, core.Config{MaxAttempts: 2})
			if err != nil {
				t.Fatal(err)
			}
			if dag != "legacy" {
				if n := length(t, q); n != 4 {
					t.Errorf("%s opened with a third shard has %d tasks, want its 4", dag, n)
				}
				if err := s3.Submit(ctx, durable.TaskRef{DAG: dag, Name: "fetch"}); !errors.Is(err, core.ErrDuplicate) {
					t.Errorf("fetch submitted again to %s with a third shard: %v, want ErrDuplicate", dag, err)
				}
			}
		}
		t.Logf("%d of %d DAGs would have moved by the hash alone", moved, len(dagNames)+1)
		if moved == 0 {
			t.Error("no DAG would have moved by the hash: the test shows nothing")
		}
		if _, err := dbs[1].DeleteDAG(ctx, "legacy"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := extra.Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_dags").Scan(&n); err != nil || n != 0 {
			t.Errorf("the new shard holds %d DAGs (%v), want none", n, err)
		}
	})

	t.Run("WorkersOnEveryShardRunEveryTask", func(t *testing.T) {
		var mu sync.Mutex
		ran := map[string]int{}
		runCtx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() {
			done <- s.Run(runCtx, func(ctx context.Context, task durable.Task) error {
				mu.Lock()
				ran[task.DAG+"/"+task.Name]++
				mu.Unlock()
				return nil
			}, durable.WorkerOptions{Workers: 4, OnError: quiet(t)})
		}()
		for _, dag := range dagNames {
			q, err := s.Queue(ctx, dag, core.Config{MaxAttempts: 2})
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, dag+" done", func() bool {
				states, ok := settledStates(t, q)
				return ok && len(states) == 4
			})
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if len(ran) != 40 {
			t.Errorf("%d tasks ran, want 40", len(ran))
		}
		for k, n := range ran {
			if n != 1 {
				t.Errorf("%s ran %d times", k, n)
			}
		}
	})
}
