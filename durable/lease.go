package durable

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"time"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
)

// Lease is a task handed out by [DB.NextBatch] or [Queue.Next]: core's
// lease, with the DAG it belongs to. A lease is fenced by its ID and
// Attempt in every statement that settles or renews it.
type Lease struct {
	DAG string
	core.Lease
}

// next hands out up to n READY tasks in READY order (ready_seq), of one DAG
// or, with dag "", of all of them: one statement, FOR UPDATE SKIP LOCKED,
// so that workers running at once take different tasks and never wait for
// one another. It returns the leases in READY order, with the time each
// DAG's clock said.
func (db *DB) next(ctx context.Context, q pgx.Tx, dag string, n int) ([]Lease, []time.Duration, error) {
	var wall any
	if db.clock != nil {
		wall = int64(db.clock())
	}
	filter := ""
	args := []any{n, wall}
	if dag != "" {
		filter = "AND dag = $3"
		args = append(args, dag)
	}
	rows, err := q.Query(ctx, `WITH picked AS (
			SELECT dag, name, ready_seq FROM dagq_tasks
			WHERE state = 'READY' `+filter+`
			ORDER BY ready_seq LIMIT $1 FOR UPDATE SKIP LOCKED),
		clock AS (
			SELECT d.dag, d.lease_timeout AS lt, coalesce($2::bigint, d.now) AS now
			FROM dagq_dags d WHERE d.dag IN (SELECT dag FROM picked))
		UPDATE dagq_tasks t SET state = 'RUNNING', attempts = t.attempts + 1,
			lease = nextval('dagq_lease_ids'), ready_seq = NULL,
			timer_at = CASE WHEN c.lt > 0 THEN
				CASE WHEN c.now > 9223372036854775807 - c.lt THEN 9223372036854775807 ELSE c.now + c.lt END END,
			timer_seq = CASE WHEN c.lt > 0 THEN nextval('dagq_line') END
		FROM picked p JOIN clock c ON c.dag = p.dag
		WHERE t.dag = p.dag AND t.name = p.name
		RETURNING t.dag, t.name, t.attempts, t.lease, coalesce(t.timer_at, 0), p.ready_seq, c.now`, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	type got struct {
		l   Lease
		seq int64
		now time.Duration
	}
	var out []got
	for rows.Next() {
		var g got
		var lease, deadline, now int64
		if err := rows.Scan(&g.l.DAG, &g.l.Task, &g.l.Attempt, &lease, &deadline, &g.seq, &now); err != nil {
			return nil, nil, err
		}
		g.l.ID, g.l.Deadline, g.now = uint64(lease), time.Duration(deadline), time.Duration(now)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(out, func(a, b got) int { return cmp.Compare(a.seq, b.seq) })
	leases := make([]Lease, len(out))
	times := make([]time.Duration, len(out))
	for i, g := range out {
		leases[i], times[i] = g.l, g.now
	}
	return leases, times, nil
}

// started is the EventStarted of a lease handed out at now.
func started(l Lease, now time.Duration) core.Event {
	checkMove(l.Task, core.Ready, core.Running)
	return core.Event{Kind: core.EventStarted, Task: l.Task, From: core.Ready, To: core.Running,
		Attempt: l.Attempt, Lease: l.ID, Deadline: l.Deadline, At: now}
}

// current returns the RUNNING task that l is the current lease of, the
// row locked; else the refusal core's Queue.Complete documents, checked in
// its order: ErrUnknown, ErrLeaseExpired, ErrNotRunning, ErrStaleLease. A
// current lease whose deadline has passed on the DB's Clock is expired
// here and now, by this caller, and refused: expired reports that the
// expiry must commit.
func (t *txn) current(l core.Lease) (r running, expired bool, err error) {
	var state string
	var timer *int64
	err = t.tx.QueryRow(t.ctx, `SELECT state, attempts, lease, redrives, timer_at FROM dagq_tasks
		WHERE dag = $1 AND name = $2 FOR UPDATE`, t.dag, l.Task).Scan(&state, &r.attempts, &r.lease, &r.redrives, &timer)
	if err == pgx.ErrNoRows || (err == nil && state == "") {
		return r, false, &core.TaskError{Task: l.Task, Err: core.ErrUnknown}
	}
	if err != nil {
		return r, false, err
	}
	r.name = l.Task
	if core.State(state) == core.Running && uint64(r.lease) == l.ID && r.attempts == l.Attempt {
		if t.db.clock != nil && timer != nil && time.Duration(*timer) <= t.now {
			if err := t.expire(r, time.Duration(*timer)); err != nil {
				return r, false, err
			}
			return r, true, &core.TaskError{Task: l.Task, Err: core.ErrLeaseExpired}
		}
		return r, false, nil
	}
	var was bool
	if err := t.tx.QueryRow(t.ctx, `SELECT EXISTS (SELECT 1 FROM dagq_expired
		WHERE lease = $1 AND dag = $2 AND task = $3 AND attempt = $4)`, int64(l.ID), t.dag, l.Task, l.Attempt).Scan(&was); err != nil {
		return r, false, err
	}
	switch {
	case was:
		return r, false, &core.TaskError{Task: l.Task, Err: core.ErrLeaseExpired}
	case core.State(state) != core.Running:
		return r, false, &core.TaskError{Task: l.Task, Err: core.ErrNotRunning}
	}
	return r, false, &core.TaskError{Task: l.Task, Err: core.ErrStaleLease}
}

// settle turns current's answer into the operation's: a refusal rolls
// back, an expiry commits and then refuses.
func (t *txn) settle(expired bool, err error) error {
	if expired {
		t.after = err
		return nil
	}
	if _, ok := err.(*core.TaskError); ok {
		return refusal{err}
	}
	return err
}

// expire ends r's current lease at its deadline at: remembered as expired,
// EventExpired, then the failure "lease expired", as core's expire. The DAG
// is locked.
func (t *txn) expire(r running, at time.Duration) error {
	now := t.now
	t.now = at
	defer func() { t.now = now }()
	if _, err := t.tx.Exec(t.ctx, `INSERT INTO dagq_expired (lease, dag, task, attempt) VALUES ($1, $2, $3, $4)`,
		r.lease, t.dag, r.name, r.attempts); err != nil {
		return err
	}
	t.emit(core.Event{Kind: core.EventExpired, Task: r.name, From: core.Running, To: core.Running,
		Attempt: r.attempts, Lease: uint64(r.lease), Deadline: at})
	_, err := t.fail(r, core.ErrLeaseExpired)
	return err
}

// heartbeat renews l: its deadline becomes now + the lease timeout.
func (t *txn) heartbeat(l core.Lease) (core.Lease, error) {
	if err := t.load(); err != nil {
		return core.Lease{}, err
	}
	if t.db.clock != nil {
		if err := t.lockOnly(); err != nil {
			return core.Lease{}, err
		}
	}
	r, expired, err := t.current(l)
	if err != nil {
		return core.Lease{}, t.settle(expired, err)
	}
	var deadline time.Duration
	if t.d.leaseTimeout > 0 {
		deadline = later(t.now, t.d.leaseTimeout)
		if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET timer_at = $3, timer_seq = nextval('dagq_line')
			WHERE dag = $1 AND name = $2`, t.dag, l.Task, int64(deadline)); err != nil {
			return core.Lease{}, err
		}
	}
	t.emit(core.Event{Kind: core.EventHeartbeat, Task: l.Task, From: core.Running, To: core.Running,
		Attempt: r.attempts, Lease: uint64(r.lease), Deadline: deadline})
	return core.Lease{Task: l.Task, ID: uint64(r.lease), Attempt: r.attempts, Deadline: deadline}, nil
}

// lockOnly takes the DAG's advisory lock without reading its row again.
func (t *txn) lockOnly() error {
	_, err := t.tx.Exec(t.ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", t.dag)
	return err
}

// complete marks l's task SUCCEEDED and decrements its dependents' waiting,
// in one transaction: those left waiting on nothing, and PENDING, become
// READY in their arrival order. The fast path is one fenced UPDATE and one
// UPDATE of the dependents; a lease that is not current takes the slow
// path, which says why.
func (t *txn) complete(l core.Lease) error {
	var wall any
	if t.db.clock != nil {
		wall = int64(t.db.clock())
	}
	var now int64
	err := t.tx.QueryRow(t.ctx, `UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
		FROM dagq_dags d
		WHERE t.dag = $1 AND t.name = $2 AND t.state = 'RUNNING' AND t.lease = $3 AND t.attempts = $4
			AND d.dag = t.dag AND (t.timer_at IS NULL OR t.timer_at > coalesce($5::bigint, d.now))
		RETURNING coalesce($5::bigint, d.now)`, t.dag, l.Task, int64(l.ID), l.Attempt, wall).Scan(&now)
	if err == pgx.ErrNoRows {
		// Not the current lease, or one past its deadline: say which,
		// under the DAG's lock in case it must expire.
		if err := t.lock(); err != nil {
			return err
		}
		_, expired, err := t.current(l)
		if err == nil {
			return errors.New("durable: a current lease the fenced update missed") // cannot happen
		}
		return t.settle(expired, err)
	}
	if err != nil {
		return err
	}
	t.now = time.Duration(now)
	checkMove(l.Task, core.Running, core.Succeeded)
	t.emit(core.Event{Kind: core.EventSucceeded, Task: l.Task, From: core.Running, To: core.Succeeded, Attempt: l.Attempt})
	rows, err := t.tx.Query(t.ctx, `UPDATE dagq_tasks t SET waiting = t.waiting - 1,
			state = CASE WHEN t.waiting = 1 AND t.state = 'PENDING' THEN 'READY' ELSE t.state END
		FROM dagq_edges e
		WHERE e.dag = $1 AND e.dep = $2 AND t.dag = $1 AND t.name = e.task
		RETURNING t.name, t.state, e.arrival`, t.dag, l.Task)
	if err != nil {
		return err
	}
	type freed struct {
		name    string
		arrival int64
	}
	var ready []freed
	for rows.Next() {
		var f freed
		var state string
		if err := rows.Scan(&f.name, &state, &f.arrival); err != nil {
			return err
		}
		if core.State(state) == core.Ready {
			ready = append(ready, f)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(ready) == 0 {
		return nil
	}
	slices.SortFunc(ready, func(a, b freed) int { return cmp.Compare(a.arrival, b.arrival) })
	names := make([]string, len(ready))
	for i, f := range ready {
		names[i] = f.name
		checkMove(f.name, core.Pending, core.Ready)
		t.emit(core.Event{Kind: core.EventReady, Task: f.name, From: core.Pending, To: core.Ready})
	}
	_, err = t.tx.Exec(t.ctx, `WITH s AS MATERIALIZED (`+inLine+`)
		UPDATE dagq_tasks t SET ready_seq = s.seq FROM s
		WHERE t.dag = $1 AND t.name = s.n`, t.dag, names)
	return err
}
