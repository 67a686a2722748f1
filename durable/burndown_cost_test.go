package durable_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/jackc/pgx/v5"
)

// randomDAG is n tasks that each wait on up to three earlier ones, as
// BenchmarkDurable's random shape, shuffled.
func randomDAG(n int) []durable.NewTask {
	rng := rand.New(rand.NewPCG(1, 0x5eed))
	tasks := make([]durable.NewTask, n)
	for i := range tasks {
		tasks[i].Name = fmt.Sprint("t", i)
		seen := map[int]bool{}
		for range min(i, 3) {
			if d := rng.IntN(i); !seen[d] {
				seen[d] = true
				tasks[i].Deps = append(tasks[i].Deps, fmt.Sprint("t", d))
			}
		}
	}
	rng.Shuffle(n, func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })
	return tasks
}

// rowsRead is how many rows the server has read from the queue's tables
// dagq_tasks and dagq_edges, by scans and by index (pg_stat_user_tables'
// seq_tup_read + idx_tup_fetch), as counted by the one connection of a DB
// opened with MaxConns 1 once it has flushed its counts.
func rowsRead(t *testing.T, db *durable.DB) int64 {
	t.Helper()
	ctx := context.Background()
	// Force the backend's pending counts out, then read them afresh.
	if _, err := db.Pool().Exec(ctx, "SELECT pg_stat_force_next_flush()"); err != nil {
		t.Fatal(err)
	}
	var n int64
	err := pgx.BeginFunc(ctx, db.Pool(), func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_stat_clear_snapshot()"); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0)::bigint
			FROM pg_stat_user_tables WHERE relname IN ('dagq_tasks', 'dagq_edges')`).Scan(&n)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBurnDownReadsDoNotGrowWithTheDAG counts the rows the server reads to
// hand out and complete every task of a random DAG (up to three
// dependencies each) in batches of 50, as a worker does (DB.NextBatch, then
// one completion statement for the batch, or every other time a Complete
// each), on tables never analyzed: per
// task it must not grow with the DAG. It grew linearly when the batch's
// dependents were found by joins that the planner, without statistics,
// ran as scans of the DAG's every edge and task (30,000 edges read to
// complete 30 tasks of a 10,000-task DAG), and the hand-out's read of the
// dependencies' results alike: a burn-down quadratic in the DAG's size.
func TestBurnDownReadsDoNotGrowWithTheDAG(t *testing.T) {
	perTask := func(n int) float64 {
		db := openDB(t, durable.Options{MaxConns: 1})
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		if err := q.SubmitAll(bg, randomDAG(n)); err != nil {
			t.Fatal(err)
		}
		before := rowsRead(t, db)
		done, round := 0, 0
		for done < n {
			leases, err := db.NextBatch(bg, 50)
			if err != nil {
				t.Fatal(err)
			}
			if len(leases) == 0 {
				t.Fatalf("n=%d: nothing READY after %d completions", n, done)
			}
			if round++; round%2 == 0 {
				// The completer's statement for a batch of one DAG.
				unmatched, err := db.CompleteBatchOfDAG(bg, q.DAG(), leases)
				if err != nil || len(unmatched) > 0 {
					t.Fatalf("n=%d: complete: %v, %d unmatched", n, err, len(unmatched))
				}
			} else {
				// A Complete each (dagq_complete), pipelined.
				for _, err := range db.CompleteBatch(bg, leases) {
					if err != nil {
						t.Fatalf("n=%d: complete: %v", n, err)
					}
				}
			}
			done += len(leases)
		}
		return float64(rowsRead(t, db)-before) / float64(n)
	}
	small, large := perTask(300), perTask(3000)
	t.Logf("rows read a task to hand out and complete a random DAG: %.1f at n=300, %.1f at n=3,000", small, large)
	if large > 1.5*small || large > 40 {
		t.Errorf("rows read a task: %.1f at n=300, %.1f at n=3,000: it grows with the DAG (want at most 1.5× and 40)", small, large)
	}
}
