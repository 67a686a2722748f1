package durable

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// MaxDetailLinks is the most dependencies and dependents a [TaskDetail]
// lists, each: a task that thousands wait on (the root of a wide DAG) is
// read in bounded work, and the counts say how many there are.
const MaxDetailLinks = 1000

// ErrNoTask is the identity of the error of [DB.TaskDetail] for a name the
// DAG has not been given as a task (a name only awaited included).
var ErrNoTask = errors.New("durable: no such task")

// TaskDetail is everything an operator asks of one task: what it is doing,
// how its attempts went, what it waits on and what waits on it.
type TaskDetail struct {
	DAG, Name string
	State     core.State
	// Reason is the dead-letter queue's reason of a DEAD or BLOCKED task
	// ("failed after 3 attempts: HTTP 503", "blocked by fetch"); Error a
	// DEAD task's error alone; Root the DEAD task upstream of a BLOCKED
	// one. Poisoned: DEAD after Config.PoisonAfter redrives.
	Reason, Error, Root string
	Poisoned            bool
	// Attempts is how many times it was handed out since its submit or
	// its last redrive, of MaxAttempts; Redrives how many times it was
	// redriven (since its submit, or its last forced redrive).
	Attempts, MaxAttempts, Redrives int
	// Failures are its failed or expired attempts, oldest first: the
	// latest 20 of them (older ones are not kept), those before its last
	// redrive included (see Attempt.Redrives).
	Failures []Attempt
	// Lease is the current lease of a RUNNING task; nil otherwise.
	Lease *HeldLease
	// Due is when a DELAYED task joins the READY line, on the DAG's clock
	// (see [Clock]); 0 otherwise.
	Due time.Duration
	// Deps are its dependencies as submitted, duplicates dropped, and
	// WaitsOn those of them not SUCCEEDED (a name never submitted
	// included), both in the order submitted; Dependents the tasks that
	// wait on it directly, in the order they arrived. Each lists at most
	// MaxDetailLinks; NumDeps and NumDependents count them all.
	Deps, WaitsOn, Dependents []string
	NumDeps, NumDependents    int
	// Awaited are those of WaitsOn never submitted: names it waits on
	// that no one has submitted as a task (yet), which hold it PENDING
	// until they are.
	Awaited []string
	// Args are its arguments (at most MaxArgs bytes); Result what its
	// successful attempt recorded (at most MaxResult): nil for none.
	Args, Result []byte
	// Created is when it was submitted, Changed when its state last
	// changed, Finished when it SUCCEEDED (zero before): the database's
	// time.
	Created, Changed, Finished time.Time
}

// Attempt is one failed or expired attempt of a task.
type Attempt struct {
	// Attempt is its number, 1 for the first hand-out since the submit or
	// the redrive; Redrives the task's redrives when it ran, which tells
	// apart the attempts of its lives.
	Attempt, Redrives int
	// Error is what it failed with ("lease expired" when its lease
	// expired); Expired and Permanent say whether the lease expired and
	// whether the error was permanent (core.Permanent).
	Error              string
	Expired, Permanent bool
	// Outcome is what the failure led to: READY (a retry), DELAYED (a
	// retry after its backoff) or DEAD.
	Outcome core.State
	// Holder held its lease (WorkerOptions.ID; host:pid by default);
	// Started is when it was handed out, Ended when it failed or expired.
	Holder         string
	Started, Ended time.Time
}

// HeldLease is the current lease of a RUNNING task.
type HeldLease struct {
	ID      uint64
	Attempt int
	// Holder was handed it (WorkerOptions.ID; host:pid by default), at
	// Since.
	Holder string
	Since  time.Time
	// Deadline is when it expires unless renewed, on the DAG's clock (see
	// [Clock]: nanoseconds since the epoch on the database's clock); 0 if
	// it never expires (the virtual clock without a lease timeout).
	Deadline time.Duration
}

// TaskDetail returns the detail of the task name of dag. A DAG that does
// not exist, or a name it was never given as a task, is an error that is
// ErrNoTask. It reads one snapshot (a read-only, repeatable-read
// transaction) in two statements besides its BEGIN and COMMIT: the task's
// row with its dependencies and dependents (at most MaxDetailLinks each),
// and its failed attempts (at most 20); O(deps + dependents) rows, bounded.
func (db *DB) TaskDetail(ctx context.Context, dag, name string) (TaskDetail, error) {
	td := TaskDetail{DAG: dag, Name: name}
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var state, holder string
		var root *string
		var lease, timer *int64
		var started, finished *time.Time
		err := tx.QueryRow(ctx, `SELECT t.state, t.reason, t.error, t.root, t.poisoned, t.attempts, d.max_attempts,
				t.redrives, t.lease, t.holder, t.started, t.timer_at, t.args, t.result, t.created, t.changed, t.finished,
				cardinality(t.deps), t.deps[1:$3],
				coalesce((SELECT array_agg(x.n ORDER BY x.i) FROM unnest(t.deps[1:$3]) WITH ORDINALITY AS x(n, i)
					LEFT JOIN dagq_tasks w ON w.dag = t.dag AND w.name = x.n
					WHERE w.state IS DISTINCT FROM 'SUCCEEDED'), '{}'),
				coalesce((SELECT array_agg(x.n ORDER BY x.i) FROM unnest(t.deps[1:$3]) WITH ORDINALITY AS x(n, i)
					LEFT JOIN dagq_tasks w ON w.dag = t.dag AND w.name = x.n
					WHERE coalesce(w.state, '') = ''), '{}'),
				(SELECT count(*) FROM dagq_edges e WHERE e.dag = t.dag AND e.dep = t.name),
				coalesce((SELECT array_agg(e.task ORDER BY e.arrival) FROM (SELECT task, arrival FROM dagq_edges e
					WHERE e.dag = t.dag AND e.dep = t.name ORDER BY e.arrival LIMIT $3) e), '{}')
			FROM dagq_tasks t JOIN dagq_dags d ON d.dag = t.dag
			WHERE t.dag = $1 AND t.name = $2`, dag, name, MaxDetailLinks).Scan(
			&state, &td.Reason, &td.Error, &root, &td.Poisoned, &td.Attempts, &td.MaxAttempts,
			&td.Redrives, &lease, &holder, &started, &timer, &td.Args, &td.Result, &td.Created, &td.Changed, &finished,
			&td.NumDeps, &td.Deps, &td.WaitsOn, &td.Awaited, &td.NumDependents, &td.Dependents)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && state == "") {
			return fmt.Errorf("durable: %q in DAG %q: %w", name, dag, ErrNoTask)
		}
		if err != nil {
			return err
		}
		td.State = core.State(state)
		if root != nil {
			td.Root = *root
		}
		if finished != nil {
			td.Finished = *finished
		}
		switch td.State {
		case core.Running:
			td.Lease = &HeldLease{ID: uint64(*lease), Attempt: td.Attempts, Holder: holder}
			if started != nil {
				td.Lease.Since = *started
			}
			if timer != nil {
				td.Lease.Deadline = time.Duration(*timer)
			}
		case core.Delayed:
			if timer != nil {
				td.Due = time.Duration(*timer)
			}
		}
		if td.State != core.Dead {
			td.Reason, td.Error, td.Poisoned = "", "", false
		}
		if td.State == core.Blocked {
			td.Reason = "blocked by " + td.Root
		}
		rows, err := tx.Query(ctx, `SELECT attempt, redrives, error, expired, permanent, outcome, holder, started, ended
			FROM (SELECT * FROM dagq_attempts WHERE dag = $1 AND task = $2 ORDER BY seq DESC LIMIT $3) a ORDER BY seq`,
			dag, name, keptAttempts)
		if err != nil {
			return err
		}
		var a Attempt
		var outcome string
		var astarted *time.Time
		_, err = pgx.ForEachRow(rows, []any{&a.Attempt, &a.Redrives, &a.Error, &a.Expired, &a.Permanent, &outcome,
			&a.Holder, &astarted, &a.Ended}, func() error {
			a.Outcome, a.Started = core.State(outcome), time.Time{}
			if astarted != nil {
				a.Started = *astarted
			}
			td.Failures = append(td.Failures, a)
			return nil
		})
		return err
	})
	if err != nil {
		if errors.Is(err, ErrNoTask) {
			return TaskDetail{}, err
		}
		return TaskDetail{}, fmt.Errorf("durable: %w", err)
	}
	return td, nil
}
