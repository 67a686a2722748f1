package durable

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Repaired is what [Sharded.Repair] found and set right.
type Repaired struct {
	// Deleted are the shards whose stale copy of the DAG it deleted.
	Deleted []int
	// Resumed is whether it resumed the DAG's hand-outs, paused by a move
	// that did not finish.
	Resumed bool
}

// Repair sets right what a [Sharded.Move] of dag that died half way left:
// the DAG paused (see Move), which it resumes, and a copy of the DAG in a
// shard other than the one its placement names. The
// placement switches in the same transaction as the copy (the directory is
// the new shard), as the deletion (it is the old one) or between the two,
// and always names a complete copy: the new one once switched, else the
// old one, which the dead move's transaction left as it was. So the other
// copy is stale, and its workers would run its tasks a second time; Repair
// deletes it ([DB.DeleteDAG]). It reports what it did: nothing when there
// was nothing to repair.
//
// It holds the DAG's lock in the shard its placement names while it looks,
// so a Move of the DAG that is copying it finishes first (its new copy is
// not taken for a stale one); a Move still waiting for the DAG's RUNNING
// tasks, whose pause Repair lifts, waits on or gives up, and moves no
// RUNNING task either way. A DAG no shard holds is an error. O(shards)
// statements.
func (s *Sharded) Repair(ctx context.Context, dag string) (Repaired, error) {
	for attempt := 0; ; attempt++ {
		r, moved, err := s.repair1(ctx, dag)
		if moved && attempt < 20 {
			continue // a Move switched the placement while Repair waited for it
		}
		if err != nil && retryable(err) && attempt < 20 {
			continue
		}
		return r, err
	}
}

// repair1 is one try of Repair; moved reports that the placement changed
// while it waited for the DAG's lock.
func (s *Sharded) repair1(ctx context.Context, dag string) (r Repaired, moved bool, err error) {
	home, err := s.current(ctx, dag)
	if err != nil {
		return r, false, err
	}
	err = pgx.BeginFunc(ctx, s.shards[home].pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", dag); err != nil {
			return err
		}
		now, err := s.current(ctx, dag)
		if err != nil {
			return err
		}
		if now != home {
			moved = true
			return nil
		}
		tag, err := tx.Exec(ctx, "UPDATE dagq_dags SET paused = false WHERE dag = $1 AND paused", dag)
		if err != nil {
			return err
		}
		r.Resumed = tag.RowsAffected() > 0
		for k, db := range s.shards {
			if k == home {
				continue
			}
			ok, err := db.DeleteDAG(ctx, dag)
			if err != nil {
				return err
			}
			if ok {
				r.Deleted = append(r.Deleted, k)
			}
		}
		return nil
	})
	if err != nil {
		return Repaired{}, false, fmt.Errorf("durable: repair %q: %w", dag, err)
	}
	return r, moved, nil
}
