package durable

import (
	"context"
	"fmt"
	"time"
)

// DeleteDAG deletes a DAG and everything of it — its tasks, edges, expired
// leases, the redrive under way — in one transaction, under the DAG's
// lock, so that no operation on it runs meanwhile: its name is free again.
// Leases still held by workers are refused from then on, as for a DAG that
// never was. It reports whether the DAG existed. The cost is O(rows of the
// DAG).
func (db *DB) DeleteDAG(ctx context.Context, dag string) (bool, error) {
	return db.deleteDAG(ctx, dag, 0)
}

// deleteDAG is DeleteDAG; with retention above 0, only if the DAG is
// finished longer ago than that (decided under its lock, so that a submit
// that came meanwhile keeps it).
func (db *DB) deleteDAG(ctx context.Context, dag string, retention time.Duration) (bool, error) {
	var found bool
	var secs any
	if retention > 0 {
		secs = retention.Seconds()
	}
	err := againOnConflict(func() error {
		tx, err := db.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }() // a no-op after Commit; else the error is err
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", dag); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM dagq_dags d WHERE d.dag = $1 AND ($2::float8 IS NULL OR (
				NOT EXISTS (SELECT 1 FROM dagq_tasks t WHERE t.dag = d.dag AND t.state <> 'SUCCEEDED')
				AND (SELECT max(t.finished) FROM dagq_tasks t WHERE t.dag = d.dag) < now() - make_interval(secs => $2)))`,
			dag, secs)
		if err != nil {
			return err
		}
		found = tag.RowsAffected() > 0
		return tx.Commit(ctx)
	})
	return found, err
}

// expireFinished deletes the DAGs finished longer ago than retention: every
// task SUCCEEDED (no name awaited that never arrived, nothing DEAD), the
// last of them before now − retention, on the database's clock; each
// checked again under its lock as it is deleted. It returns how many it
// deleted. One statement to find them, O(tasks) rows, and a transaction per
// DAG deleted.
func (db *DB) expireFinished(ctx context.Context, retention time.Duration) (int, error) {
	rows, err := db.pool.Query(ctx, `SELECT t.dag FROM dagq_tasks t GROUP BY t.dag
		HAVING bool_and(t.state = 'SUCCEEDED') AND max(t.finished) < now() - make_interval(secs => $1)`,
		retention.Seconds())
	if err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	var dags []string
	var dag string
	for rows.Next() {
		if err := rows.Scan(&dag); err != nil {
			rows.Close()
			return 0, fmt.Errorf("durable: %w", err)
		}
		dags = append(dags, dag)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	n := 0
	for _, d := range dags {
		ok, err := db.deleteDAG(ctx, d, retention)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}
