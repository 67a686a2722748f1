package durable_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestTheOrderAgreesWithEveryEdge checks the invariant the cycle check
// stands on (order.go): after every submit, each edge's dependency has a
// smaller label than its dependent, the labels of a DAG are distinct, and
// they lie within the DAG's bounds. The submits are random: roots, tasks
// waiting on names not yet submitted (which a later submit fills in, in
// place), duplicates and cycles (refused), with a printed seed.
func TestTheOrderAgreesWithEveryEdge(t *testing.T) {
	db := openDB(t, durable.Options{VirtualClock: true})
	seeded(t, 3, 2, func(t *testing.T, rng *rand.Rand) {
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		const names = 40
		name := func() string { return fmt.Sprint("t", rng.IntN(names)) }
		for i := range 120 {
			task, deps := name(), []string{}
			if rng.IntN(3) > 0 {
				for range 1 + rng.IntN(3) {
					deps = append(deps, name())
				}
			}
			err := q.Submit(bg, task, deps...)
			var cycle *core.CycleError
			if err != nil && !errors.Is(err, core.ErrDuplicate) && !errors.As(err, &cycle) {
				t.Fatalf("submit %d %s %v: %v", i, task, deps, err)
			}
			var against, repeated, outside int
			if err := db.Pool().QueryRow(bg, `SELECT
						(SELECT count(*) FROM dagq_edges e
							JOIN dagq_tasks a ON a.dag = e.dag AND a.name = e.dep
							JOIN dagq_tasks b ON b.dag = e.dag AND b.name = e.task
							WHERE e.dag = $1 AND a.ord >= b.ord),
						(SELECT count(*) - count(DISTINCT ord) FROM dagq_tasks WHERE dag = $1),
						(SELECT count(*) FROM dagq_tasks t JOIN dagq_dags d ON d.dag = t.dag
							WHERE t.dag = $1 AND (t.ord < d.ord_first OR t.ord > d.ord_last))`,
				q.DAG()).Scan(&against, &repeated, &outside); err != nil {
				t.Fatal(err)
			}
			if against+repeated+outside > 0 {
				t.Fatalf("after submit %d (%s waiting on %v: %v): %d edges against the order, %d labels repeated, %d outside the bounds",
					i, task, deps, err, against, repeated, outside)
			}
		}
	})
}
