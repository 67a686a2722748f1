package durable

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
)

// Queue is one DAG of a [DB]: core's queue, the same operations with the
// same rules, errors and events, kept in Postgres. Its methods may be
// called from many goroutines and processes at once, each operation one
// transaction (see the package doc for what each one locks); a Queue
// handle delivers the events of its own operations to its
// core.Config.OnEvent after they commit, in order.
type Queue struct {
	db      *DB
	dag     string
	ctx     context.Context
	onEvent func(core.Event)
	events  outbox
}

// Strategy is the name Queue.Strategy returns: the cycle check of this
// package, Pearce–Kelly's order kept in a column.
const Strategy = "pk"

// Queue opens the queue of a DAG, making it if it is new, with cfg's
// settings: MaxAttempts, LeaseTimeout (0: [DefaultLeaseTimeout], except on
// the virtual clock, where 0 is core's "never"), Backoff (its jitter's generator
// seeded as core seeds it) and PoisonAfter are stored with the DAG, so that
// every process that opens it, and every worker of the DB, applies them;
// opening it again with other settings replaces them (the generator's state
// is kept unless the seed changed). cfg.Strategy must name one of package
// incremental's strategies or be "" (the check itself is always this
// package's: see order.go). cfg.Alert, the growth alert, is stored too
// (see alert.go); opening the DAG with another alert starts its count
// afresh, off, while the same one keeps its entries, its state and its
// clear time.
// cfg.OnEvent receives this handle's events. ctx is used by every operation
// of the handle.
func (db *DB) Queue(ctx context.Context, dag string, cfg core.Config) (*Queue, error) {
	check := cfg
	check.OnEvent = nil
	if _, err := core.New(check); err != nil {
		return nil, err
	}
	if dag == "" {
		return nil, errors.New("durable: a DAG needs a name")
	}
	if len(dag) > core.MaxName {
		return nil, &core.TaskError{Task: dag, Err: fmt.Errorf("durable: a DAG's name: %w", core.ErrNameTooLong)}
	}
	if cfg.LeaseTimeout == 0 && !db.virtual {
		cfg.LeaseTimeout = DefaultLeaseTimeout
	}
	rng, err := rand.NewPCG(cfg.Backoff.Seed, 0).MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := cfg.Backoff
	_, err = db.pool.Exec(ctx, `INSERT INTO dagq_dags AS d (dag, max_attempts, lease_timeout, backoff_base,
			backoff_factor, backoff_max, jitter, seed, rng, poison_after, alert_entries, alert_window)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (dag) DO UPDATE SET max_attempts = EXCLUDED.max_attempts,
			lease_timeout = EXCLUDED.lease_timeout, backoff_base = EXCLUDED.backoff_base,
			backoff_factor = EXCLUDED.backoff_factor, backoff_max = EXCLUDED.backoff_max,
			jitter = EXCLUDED.jitter, poison_after = EXCLUDED.poison_after,
			rng = CASE WHEN d.seed = EXCLUDED.seed THEN d.rng ELSE EXCLUDED.rng END, seed = EXCLUDED.seed,
			alert_entries = EXCLUDED.alert_entries, alert_window = EXCLUDED.alert_window,
			alert_times = CASE WHEN (d.alert_entries, d.alert_window) = (EXCLUDED.alert_entries, EXCLUDED.alert_window)
				THEN d.alert_times ELSE '{}' END,
			alert_on = d.alert_on AND (d.alert_entries, d.alert_window) = (EXCLUDED.alert_entries, EXCLUDED.alert_window),
			alert_at = CASE WHEN (d.alert_entries, d.alert_window) = (EXCLUDED.alert_entries, EXCLUDED.alert_window)
				THEN d.alert_at END,
			alert_seq = CASE WHEN (d.alert_entries, d.alert_window) = (EXCLUDED.alert_entries, EXCLUDED.alert_window)
				THEN d.alert_seq END`,
		dag, cfg.MaxAttempts, int64(cfg.LeaseTimeout), int64(b.Base), b.Factor, int64(b.Max), int16(b.Jitter),
		int64(b.Seed), rng, cfg.PoisonAfter, cfg.Alert.Entries, int64(cfg.Alert.Window))
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	return &Queue{db: db, dag: dag, ctx: ctx, onEvent: cfg.OnEvent}, nil
}

// DAG returns the name of the queue's DAG.
func (q *Queue) DAG() string { return q.dag }

// Strategy returns the name of the cycle check, "pk".
func (q *Queue) Strategy() string { return Strategy }

// run runs an operation on the queue's DAG.
func (q *Queue) run(f func(t *txn) error) error {
	return q.db.run(q.ctx, q.dag, &q.events, q.onEvent, f)
}

// Submit adds a task that waits on deps, as core's Queue.Submit: duplicate
// deps dropped, deps that have not arrived count as not succeeded, a
// duplicate refused with ErrDuplicate and a cycle with a *core.CycleError
// naming the whole path, changing nothing. Submits to one DAG are
// serialised by an advisory lock on the DAG. It takes a constant number of
// statements when the new edges agree with the DAG's order (see order.go),
// which chains in either direction and wide graphs always do. A name
// longer than core.MaxName is refused before any statement is sent (a
// *core.TaskError that is core.ErrNameTooLong); its EventRejected carries
// no time, the DAG's clock not having been read.
func (q *Queue) Submit(task string, deps ...string) error {
	if err := core.CheckNames(task, deps); errors.Is(err, core.ErrNameTooLong) {
		q.events.send([]core.Event{{Kind: core.EventRejected, Task: task, Reason: err.Error(), Deps: dedupe(deps)}}, q.onEvent)
		return err
	}
	return q.run(func(t *txn) error { return t.submit(task, deps) })
}

// Next hands out the DAG's front READY task, as core's Queue.Next: one
// statement, SKIP LOCKED. False when none is READY (or every READY task is
// being handed out to someone else at this moment).
func (q *Queue) Next() (core.Lease, bool) {
	ls, err := q.NextBatch(1)
	if err != nil || len(ls) == 0 {
		return core.Lease{}, false
	}
	return ls[0], true
}

// NextBatch hands out up to n of the DAG's READY tasks, front first, in
// one statement.
func (q *Queue) NextBatch(n int) ([]core.Lease, error) {
	hs, err := q.db.next(q.ctx, q.dag, n)
	if err != nil {
		return nil, err
	}
	out := make([]core.Lease, len(hs))
	events := make([]core.Event, len(hs))
	for i, h := range hs {
		out[i], events[i] = h.lease.Lease, started(h.lease, h.now)
	}
	q.events.send(events, q.onEvent)
	return out, nil
}

// Heartbeat renews the current lease l, as core's Queue.Heartbeat.
func (q *Queue) Heartbeat(l core.Lease) (core.Lease, error) {
	var out core.Lease
	err := q.run(func(t *txn) error {
		var err error
		out, err = t.heartbeat(l)
		return err
	})
	return out, err
}

// Complete marks l's task SUCCEEDED, its dependents' decrements in the same
// transaction, as core's Queue.Complete: one round trip, a call of the
// function dagq_complete (the fenced UPDATE, the dependents' decrements,
// the places of those it makes READY).
func (q *Queue) Complete(l core.Lease) error {
	return q.db.complete(q.ctx, q.dag, l, &q.events, q.onEvent)
}

// Fail fails l's task with err, as core's Queue.Fail: a retry, a delay or
// a death with its blocking wave, in one transaction.
func (q *Queue) Fail(l core.Lease, err error) (core.State, error) {
	var st core.State
	e := q.run(func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		r, expired, err2 := t.current(l)
		if err2 != nil {
			return t.settle(expired, err2)
		}
		st, err2 = t.fail(r, err)
		return err2
	})
	if e != nil {
		return "", e
	}
	return st, nil
}

// Redrive gives a DEAD task fresh attempts and decides again what it
// blocked, as core's Queue.Redrive, in one transaction.
func (q *Queue) Redrive(task string) error {
	return q.run(func(t *txn) error { return t.redrive(task, false) })
}

// ForceRedrive is Redrive for a poisoned task too, as core's.
func (q *Queue) ForceRedrive(task string) error {
	return q.run(func(t *txn) error { return t.redrive(task, true) })
}

// Advance moves the DAG's virtual clock on by d, firing what falls due on
// the way, as core's Queue.Advance. On a DB with a Clock it fires what is
// due now, whatever d.
func (q *Queue) Advance(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("core: cannot advance by %v: %w", d, core.ErrClockBackwards)
	}
	return q.run(func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		if !q.db.virtual {
			return t.advanceTo(t.now)
		}
		return t.advanceTo(later(t.now, d))
	})
}

// AdvanceTo moves the DAG's virtual clock to at, as core's
// Queue.AdvanceTo.
func (q *Queue) AdvanceTo(at time.Duration) error {
	return q.run(func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		if !q.db.virtual {
			at = t.now
		}
		return t.advanceTo(at)
	})
}

// Now returns the DAG's clock.
func (q *Queue) Now() time.Duration {
	var n int64
	if err := q.db.pool.QueryRow(q.ctx, "SELECT coalesce("+q.db.now("$2")+", now) FROM dagq_dags WHERE dag = $1",
		q.dag, q.db.nowArg()).Scan(&n); err != nil {
		return 0
	}
	return time.Duration(n)
}

// Status returns the state of a submitted task; false if it was never
// submitted (or cannot be read).
func (q *Queue) Status(task string) (core.State, bool) {
	var s string
	err := q.db.pool.QueryRow(q.ctx, "SELECT state FROM dagq_tasks WHERE dag = $1 AND name = $2", q.dag, task).Scan(&s)
	if err != nil || s == "" {
		return "", false
	}
	return core.State(s), true
}

// ReadyTasks returns the READY tasks in the order Next hands them out.
func (q *Queue) ReadyTasks() []string {
	rows, err := q.db.pool.Query(q.ctx, "SELECT name FROM dagq_tasks WHERE dag = $1 AND state = 'READY' ORDER BY ready_seq", q.dag)
	if err != nil {
		return nil
	}
	names, _ := pgx.CollectRows(rows, pgx.RowTo[string])
	return names
}

// States returns the state of every submitted task, by name.
func (q *Queue) States() (map[string]core.State, error) {
	rows, err := q.db.pool.Query(q.ctx, "SELECT name, state FROM dagq_tasks WHERE dag = $1 AND state <> ''", q.dag)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	out := map[string]core.State{}
	var name, state string
	_, err = pgx.ForEachRow(rows, []any{&name, &state}, func() error {
		out[name] = core.State(state)
		return nil
	})
	return out, err
}

// DeadLetters returns the dead-letter queue in the order tasks entered it,
// with core's fields: Root, Error, Fingerprint, Attempts, Entered,
// BlastRadius, Poisoned.
func (q *Queue) DeadLetters() []core.DeadLetter {
	rows, err := q.db.pool.Query(q.ctx, `SELECT name, state, reason, coalesce(root, ''), entered, attempts, error, blocks, poisoned
		FROM dagq_tasks WHERE dag = $1 AND dlq_seq IS NOT NULL ORDER BY dlq_seq`, q.dag)
	if err != nil {
		return nil
	}
	var out []core.DeadLetter
	var d core.DeadLetter
	var state string
	var entered int64
	_, err = pgx.ForEachRow(rows, []any{&d.Task, &state, &d.Reason, &d.Root, &entered, &d.Attempts, &d.Error, &d.BlastRadius, &d.Poisoned}, func() error {
		x := d
		x.State, x.Entered = core.State(state), time.Duration(entered)
		if x.State == core.Blocked {
			x.Reason, x.Error, x.BlastRadius, x.Poisoned = "blocked by "+x.Root, "", 0, false
		} else {
			x.Fingerprint = core.Fingerprint(x.Error)
		}
		out = append(out, x)
		return nil
	})
	if err != nil {
		return nil
	}
	return out
}

// Lease returns the current lease of a RUNNING task, with its deadline as
// it stands.
func (q *Queue) Lease(task string) (core.Lease, bool) {
	var id, deadline int64
	var attempt int
	err := q.db.pool.QueryRow(q.ctx, `SELECT lease, attempts, coalesce(timer_at, 0) FROM dagq_tasks
		WHERE dag = $1 AND name = $2 AND state = 'RUNNING'`, q.dag, task).Scan(&id, &attempt, &deadline)
	if err != nil {
		return core.Lease{}, false
	}
	return core.Lease{Task: task, ID: uint64(id), Attempt: attempt, Deadline: time.Duration(deadline)}, true
}

// MaxAttempts returns the DAG's max attempts.
func (q *Queue) MaxAttempts() int {
	var n int
	if err := q.db.pool.QueryRow(q.ctx, "SELECT max_attempts FROM dagq_dags WHERE dag = $1", q.dag).Scan(&n); err != nil {
		return 0
	}
	return n
}

// Len returns the number of tasks submitted to the DAG.
func (q *Queue) Len() int {
	var n int64
	if err := q.db.pool.QueryRow(q.ctx, "SELECT arrivals FROM dagq_dags WHERE dag = $1", q.dag).Scan(&n); err != nil {
		return 0
	}
	return int(n)
}
