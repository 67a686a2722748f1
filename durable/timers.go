package durable

import (
	"github.com/jackc/pgx/v5"

	"context"
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// advanceTo moves the DAG's clock to to, firing on the way, one at a time
// in order of time (ties in the order they were set: timer_seq), every
// lease deadline and due time ≤ to, each at its own time, as core's
// AdvanceTo; and the DAG's own timers, the growth alert's clear and a
// bulk redrive's next batch, in order with them. One statement to find each timer, a few to fire it, one to
// store the clock. The DAG is locked; with the DB's Clock, to is its time
// and the stored clock only records it.
func (t *txn) advanceTo(to time.Duration) error {
	if to < t.now {
		return refusal{fmt.Errorf("core: cannot go back from %v to %v: %w", t.now, to, core.ErrClockBackwards)}
	}
	for {
		var name, state string
		var at, seq int64
		var r running
		err := t.tx.QueryRow(t.ctx, `SELECT name, state, timer_at, timer_seq, attempts, lease, redrives FROM dagq_tasks
			WHERE dag = $1 AND timer_at <= $2 ORDER BY timer_at, timer_seq LIMIT 1 FOR UPDATE`,
			t.dag, int64(to)).Scan(&name, &state, &at, &seq, &r.attempts, &r.lease, &r.redrives)
		if err != nil && err != pgx.ErrNoRows {
			return err
		}
		task := timerAt{at: at, seq: seq, set: err == nil}
		// The alert's clear and a redrive's next batch are timers too, kept
		// in the DAG's row: the earliest of the three fires first.
		first := task
		for _, o := range []timerAt{t.d.alertAt, t.d.jobAt} {
			if o.set && o.at <= int64(to) && (!first.set || o.before(first)) {
				first = o
			}
		}
		if !first.set {
			break
		}
		t.now = time.Duration(first.at)
		switch first {
		case t.d.alertAt:
			t.clearAlert()
			continue
		case t.d.jobAt:
			t.d.jobAt = timerAt{}
			t.d.dirty = true
			if err := t.redriveBatch(); err != nil {
				return err
			}
			continue
		}
		r.name = name
		switch core.State(state) {
		case core.Running:
			if err := t.expire(r, t.now); err != nil {
				return err
			}
		case core.Delayed:
			checkMove(name, core.Delayed, core.Ready)
			if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET state = 'READY', timer_at = NULL, timer_seq = NULL,
				ready_seq = nextval('dagq_line') WHERE dag = $1 AND name = $2`, t.dag, name); err != nil {
				return err
			}
			t.emit(core.Event{Kind: core.EventDue, Task: name, From: core.Delayed, To: core.Ready})
		default:
			return fmt.Errorf("durable: a timer of %s, which is %s", name, state)
		}
	}
	t.now = to
	if _, err := t.tx.Exec(t.ctx, "UPDATE dagq_dags SET now = $2 WHERE dag = $1", t.dag, int64(to)); err != nil {
		return err
	}
	return nil
}

// Tick is the maintenance pass of a DB that runs on a Clock: in every DAG
// with a lease deadline, a due time, the growth alert's clear or a bulk
// redrive's next batch that has passed, it fires them, in
// order, each at its own time, as the virtual clock's Advance does (see
// [Clock]). It returns how many DAGs it visited. Run it every so often
// (a worker does, and a Complete, Fail or Heartbeat of an expired lease
// expires that one itself). On the virtual clock it does nothing.
func (db *DB) Tick(ctx context.Context) (int, error) {
	if db.clock == nil {
		return 0, nil
	}
	now := db.clock()
	rows, err := db.pool.Query(ctx, `SELECT dag FROM dagq_tasks WHERE timer_at <= $1
		UNION SELECT dag FROM dagq_dags WHERE alert_at <= $1
		UNION SELECT dag FROM dagq_dags WHERE job_at <= $1`, int64(now))
	if err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	dags, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	for _, dag := range dags {
		err := db.run(ctx, dag, &db.events, db.deliverer(dag), func(t *txn) error {
			if err := t.lock(); err != nil {
				return err
			}
			return t.advanceTo(t.now)
		})
		if err != nil {
			return 0, err
		}
	}
	return len(dags), nil
}

// deliverer delivers a DB operation's events on dag to Options.OnEvent.
func (db *DB) deliverer(dag string) func(core.Event) {
	if db.onEvent == nil {
		return nil
	}
	return func(e core.Event) { db.onEvent(dag, e) }
}
