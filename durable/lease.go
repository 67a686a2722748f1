package durable

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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

// handout is a task handed out by next: its lease, the time its DAG's
// clock said, and whether other tasks wait on it (its completion may free
// some: a starved worker commits it at once).
type handout struct {
	lease      Lease
	now        time.Duration
	dependents bool
	// args are the task's arguments and deps its dependencies; results
	// are the results they recorded, by dependency name (nil for none),
	// when next was asked for them.
	args    []byte
	deps    []string
	results map[string][]byte
}

// next hands out up to n READY tasks in READY order (ready_seq), of one DAG
// or, with dag "", of all of them, to holder (recorded with the time in
// the same UPDATE, for TaskDetail): one call of dagq_next, which locks them
// FOR UPDATE SKIP LOCKED, so that workers running at once take different
// tasks and never wait for one another, and keeps one plan, so that a fetch
// is not planned again each time; none of a DAG paused by a move (see
// [Sharded.Move]). It returns them in READY order, each with its arguments
// and its dependencies (deps), and with results, what those recorded, read
// by the same statement: a worker's hand-out is one round trip.
func (db *DB) next(ctx context.Context, dag string, n int, holder string, results bool) (hs []handout, err error) {
	err = againOnConflict(func() error {
		hs, err = db.next1(ctx, dag, n, holder, results)
		return err
	})
	return hs, err
}

// next1 is one try of next: one call of dagq_next
// (migrations/0015_next_generic_plan.sql), on its own (no transaction
// around it but its own).
func (db *DB) next1(ctx context.Context, dag string, n int, holder string, results bool) ([]handout, error) {
	var only *string
	if dag != "" {
		only = &dag
	}
	rows, err := db.pool.Query(ctx, "SELECT * FROM dagq_next($1, $2, $3, $4, $5, $6)",
		n, db.nowArg(), db.virtual, holder, only, results)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type got struct {
		h   handout
		seq int64
	}
	var out []got
	for rows.Next() {
		var g got
		var lease, deadline, now int64
		var waited float64
		var names []string
		var values [][]byte
		if err := rows.Scan(&g.h.lease.DAG, &g.h.lease.Task, &g.h.lease.Attempt, &lease, &deadline, &g.seq, &now, &g.h.dependents,
			&g.h.args, &g.h.deps, &waited, &names, &values); err != nil {
			return nil, err
		}
		if len(names) != len(values) {
			return nil, fmt.Errorf("durable: %d results for %d names of %s's dependencies", len(values), len(names), g.h.lease.Task)
		}
		for i, name := range names {
			if g.h.results == nil {
				g.h.results = make(map[string][]byte, len(names))
			}
			g.h.results[name] = values[i]
		}
		db.metrics.handedOut(g.h.lease.DAG, time.Duration(waited*float64(time.Second)))
		g.h.lease.ID, g.h.lease.Deadline, g.h.now = uint64(lease), time.Duration(deadline), time.Duration(now)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b got) int { return cmp.Compare(a.seq, b.seq) })
	hs := make([]handout, len(out))
	for i, g := range out {
		hs[i] = g.h
	}
	return hs, nil
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
		if !t.db.virtual && timer != nil && time.Duration(*timer) <= t.now {
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
	if !t.db.virtual {
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

// complete marks l's task SUCCEEDED and decrements its dependents'
// waiting, in one transaction: those left waiting on nothing, and PENDING,
// become READY in their arrival order. The fast path is one round trip, a
// call of dagq_complete (migrations/0011_complete_by_key.sql: the fenced UPDATE,
// the dependents' UPDATE, their places in line); a lease that is not
// current takes the slow path, a transaction that says why (and expires
// the lease, on a Clock, if it is past its deadline).
func (db *DB) complete(ctx context.Context, dag string, l core.Lease, ob *outbox, deliver func(core.Event)) error {
	var events []core.Event
	if err := againOnConflict(func() error {
		rows, err := db.pool.Query(ctx, db.completeSQL(), dag, l.Task, int64(l.ID), l.Attempt, db.nowArg())
		if err != nil {
			return err
		}
		events, err = completedEvents(rows, l)
		return err
	}); err != nil {
		return err
	}
	if len(events) > 0 {
		db.metrics.committed(dag, events)
		ob.send(events, deliver)
		return nil
	}
	return db.completeRefused(ctx, dag, l, ob, deliver)
}

// completeSQL is the fast path of a Complete.
func (db *DB) completeSQL() string {
	return "SELECT at, freed FROM dagq_complete($1, $2, $3, $4, " + db.now("$5") + ")"
}

// completedEvents reads what dagq_complete returned for l: its events,
// none if the lease was not current.
func completedEvents(rows pgx.Rows, l core.Lease) ([]core.Event, error) {
	defer rows.Close()
	var events []core.Event
	for rows.Next() {
		var at int64
		var freed *string
		if err := rows.Scan(&at, &freed); err != nil {
			return nil, err
		}
		if freed == nil {
			checkMove(l.Task, core.Running, core.Succeeded)
			events = append(events, core.Event{Kind: core.EventSucceeded, Task: l.Task, From: core.Running,
				To: core.Succeeded, Attempt: l.Attempt, At: time.Duration(at)})
			continue
		}
		checkMove(*freed, core.Pending, core.Ready)
		events = append(events, core.Event{Kind: core.EventReady, Task: *freed, From: core.Pending,
			To: core.Ready, At: time.Duration(at)})
	}
	return events, rows.Err()
}

// completeRefused is the slow path of a Complete whose lease is not the
// current, unexpired one: it says why, under the DAG's lock in case the
// lease must expire (on a Clock, past its deadline).
func (db *DB) completeRefused(ctx context.Context, dag string, l core.Lease, ob *outbox, deliver func(core.Event)) error {
	return db.run(ctx, dag, ob, deliver, func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		_, expired, err := t.current(l)
		if err == nil {
			return errors.New("durable: " + l.Task + ": a current lease the fenced update missed; try again")
		}
		return t.settle(expired, err)
	})
}

// CompleteBatch completes leases of any DAGs, in order, as Complete would
// one after the other, in one round trip and one transaction (a pipeline
// of dagq_complete calls): a worker that settles many tasks at once pays
// for one commit. It returns one error per lease, nil for those completed;
// a lease that is not current is refused as Complete refuses it, on its
// own, after the others have committed.
func (db *DB) CompleteBatch(ctx context.Context, leases []Lease) []error {
	errs := make([]error, len(leases))
	if len(leases) == 0 {
		return errs
	}
	var events [][]core.Event
	if err := againOnConflict(func() error {
		b := &pgx.Batch{}
		for _, l := range leases {
			b.Queue(db.completeSQL(), l.DAG, l.Task, int64(l.ID), l.Attempt, db.nowArg())
		}
		br := db.pool.SendBatch(ctx, b)
		events = make([][]core.Event, len(leases))
		var err error
		for i, l := range leases {
			rows, qerr := br.Query()
			if qerr != nil {
				err = qerr
				break
			}
			if events[i], err = completedEvents(rows, l.Lease); err != nil {
				break
			}
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		return err
	}); err != nil {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	for i, l := range leases {
		if len(events[i]) > 0 {
			db.metrics.committed(l.DAG, events[i])
			db.events.send(events[i], db.deliverer(l.DAG))
			continue
		}
		errs[i] = db.completeRefused(ctx, l.DAG, l.Lease, &db.events, db.deliverer(l.DAG))
	}
	return errs
}
