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
// expires that one itself). Under Options.Retention it also deletes the
// DAGs finished long enough ago. On the virtual clock it does nothing.
//
// It costs one statement to find the DAGs, and per DAG a transaction that
// takes its lock and fires its timers, a few statements each.
func (db *DB) Tick(ctx context.Context) (int, error) {
	if db.virtual {
		return 0, nil
	}
	rows, err := db.pool.Query(ctx, `WITH c AS (SELECT `+db.now("$1")+` AS now)
		SELECT dag FROM dagq_tasks, c WHERE timer_at <= c.now
		UNION SELECT dag FROM dagq_dags, c WHERE alert_at <= c.now
		UNION SELECT dag FROM dagq_dags, c WHERE job_at <= c.now`, db.nowArg())
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
	if last := db.swept.Load(); db.retention > 0 && localNow().Sub(time.Unix(0, last)) >= 10*time.Second &&
		db.swept.CompareAndSwap(last, localNow().UnixNano()) {
		if _, err := db.expireFinished(ctx, db.retention); err != nil {
			return len(dags), err
		}
	}
	return len(dags), nil
}

// nextDue returns how long, on the database's clock (or the DB's Clock),
// until the next lease deadline, due time, alert clear or redrive batch of
// any DAG falls due: 0 or less if one is due already; false if there is
// none (or the DB runs on the virtual clock). One statement, an index's
// first entry and a scan of the DAGs' rows.
func (db *DB) nextDue(ctx context.Context) (time.Duration, bool, error) {
	if db.virtual {
		return 0, false, nil
	}
	var in *int64
	err := db.pool.QueryRow(ctx, `SELECT least((SELECT min(timer_at) FROM dagq_tasks WHERE timer_at IS NOT NULL),
		(SELECT min(alert_at) FROM dagq_dags), (SELECT min(job_at) FROM dagq_dags)) - `+db.now("$1"), db.nowArg()).Scan(&in)
	if err != nil {
		return 0, false, fmt.Errorf("durable: %w", err)
	}
	if in == nil {
		return 0, false, nil
	}
	return time.Duration(*in), true, nil
}

// deliverer delivers a DB operation's events on dag to Options.OnEvent.
func (db *DB) deliverer(dag string) func(core.Event) {
	if db.onEvent == nil {
		return nil
	}
	return func(e core.Event) { db.onEvent(dag, e) }
}
