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
	onEvent func(core.Event)
	events  outbox
}

// Strategy is the name Queue.Strategy returns: the cycle check of this
// package, Pearce–Kelly's order kept in a column.
const Strategy = "pk"

// Queue opens the queue of a DAG, making it if it is new with cfg's
// settings: MaxAttempts (0: core.DefaultMaxAttempts, as in core.New),
// LeaseTimeout (0: [DefaultLeaseTimeout], except on the virtual clock,
// where 0 is core's "never"), Backoff (its jitter's
// generator seeded as core seeds it), PoisonAfter and Alert (the growth
// alert, see alert.go) are stored with the DAG, so that every process that
// opens it, and every worker of the DB, applies them. Opening a DAG that
// exists never changes what is stored: its settings stay as they are,
// whatever cfg says ([DB.Configure] changes them). cfg.Strategy must name
// one of package incremental's strategies or be "" (the check itself is
// always this package's: see order.go). cfg.OnEvent receives this
// handle's events. ctx is used by this call only: every operation of the
// handle takes its own. One statement.
func (db *DB) Queue(ctx context.Context, dag string, cfg core.Config) (*Queue, error) {
	cfg, rng, err := db.settings(dag, cfg)
	if err != nil {
		return nil, err
	}
	b := cfg.Backoff
	_, err = db.pool.Exec(ctx, `INSERT INTO dagq_dags (dag, max_attempts, lease_timeout, backoff_base,
			backoff_factor, backoff_max, jitter, seed, rng, poison_after, alert_entries, alert_window)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (dag) DO NOTHING`,
		dag, cfg.MaxAttempts, int64(cfg.LeaseTimeout), int64(b.Base), b.Factor, int64(b.Max), int16(b.Jitter),
		int64(b.Seed), rng, cfg.PoisonAfter, cfg.Alert.Entries, int64(cfg.Alert.Window))
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	return &Queue{db: db, dag: dag, onEvent: cfg.OnEvent}, nil
}

// settings checks cfg as core.New does and the DAG's name, and returns
// cfg with the durable defaults and the jitter generator's first state.
func (db *DB) settings(dag string, cfg core.Config) (core.Config, []byte, error) {
	check := cfg
	check.OnEvent = nil
	q, err := core.New(check)
	if err != nil {
		return cfg, nil, err
	}
	cfg.MaxAttempts = q.Config().MaxAttempts // 0: core.DefaultMaxAttempts
	if dag == "" {
		return cfg, nil, errors.New("durable: a DAG needs a name")
	}
	if len(dag) > core.MaxName {
		return cfg, nil, &core.TaskError{Task: dag, Err: fmt.Errorf("durable: a DAG's name: %w", core.ErrNameTooLong)}
	}
	if cfg.LeaseTimeout == 0 && !db.virtual {
		cfg.LeaseTimeout = DefaultLeaseTimeout
	}
	rng, err := rand.NewPCG(cfg.Backoff.Seed, 0).MarshalBinary()
	if err != nil {
		return cfg, nil, fmt.Errorf("durable: %w", err)
	}
	return cfg, rng, nil
}

// Configure replaces the stored settings of an existing DAG with cfg's
// (see [DB.Queue] for which; cfg.OnEvent is not used): every operation
// that starts after it commits applies them. The jitter generator's state
// is kept unless the seed changed; another growth alert starts its count
// afresh, off, while the same one keeps its entries, its state and its
// clear time. A DAG that does not exist is an error, and nothing is
// written. One statement.
func (db *DB) Configure(ctx context.Context, dag string, cfg core.Config) error {
	cfg, rng, err := db.settings(dag, cfg)
	if err != nil {
		return err
	}
	b := cfg.Backoff
	tag, err := db.pool.Exec(ctx, `UPDATE dagq_dags AS d SET max_attempts = $2,
			lease_timeout = $3, backoff_base = $4, backoff_factor = $5, backoff_max = $6,
			jitter = $7, poison_after = $10,
			rng = CASE WHEN d.seed = $8 THEN d.rng ELSE $9 END, seed = $8,
			alert_entries = $11, alert_window = $12,
			alert_times = CASE WHEN (d.alert_entries, d.alert_window) = ($11, $12) THEN d.alert_times ELSE '{}' END,
			alert_on = d.alert_on AND (d.alert_entries, d.alert_window) = ($11, $12),
			alert_at = CASE WHEN (d.alert_entries, d.alert_window) = ($11, $12) THEN d.alert_at END,
			alert_seq = CASE WHEN (d.alert_entries, d.alert_window) = ($11, $12) THEN d.alert_seq END
		WHERE d.dag = $1`,
		dag, cfg.MaxAttempts, int64(cfg.LeaseTimeout), int64(b.Base), b.Factor, int64(b.Max), int16(b.Jitter),
		int64(b.Seed), rng, cfg.PoisonAfter, cfg.Alert.Entries, int64(cfg.Alert.Window))
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errNoDAG(dag)
	}
	return nil
}

// HasDAG reports whether the DAG exists, without making it. One
// statement.
func (db *DB) HasDAG(ctx context.Context, dag string) (bool, error) {
	var ok bool
	if err := db.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM dagq_dags WHERE dag = $1)", dag).Scan(&ok); err != nil {
		return false, fmt.Errorf("durable: %w", err)
	}
	return ok, nil
}

// DAG returns the name of the queue's DAG.
func (q *Queue) DAG() string { return q.dag }

// Strategy returns the name of the cycle check, "pk".
func (q *Queue) Strategy() string { return Strategy }

// run runs an operation on the queue's DAG.
func (q *Queue) run(ctx context.Context, f func(t *txn) error) error {
	return q.db.run(ctx, q.dag, &q.events, q.onEvent, f)
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
func (q *Queue) Submit(ctx context.Context, task string, deps ...string) error {
	if err := core.CheckNames(task, deps); errors.Is(err, core.ErrNameTooLong) {
		q.events.send([]core.Event{{Kind: core.EventRejected, Task: task, Reason: err.Error(), Deps: dedupe(deps)}}, q.onEvent)
		return err
	}
	return q.run(ctx, func(t *txn) error {
		t.ends = true
		return t.submit(task, deps, nil)
	})
}

// Next hands out the DAG's front READY task, as core's Queue.Next: one
// statement, SKIP LOCKED. False when none is READY (or every READY task is
// being handed out to someone else at this moment); an error when the
// database could not be asked.
func (q *Queue) Next(ctx context.Context) (core.Lease, bool, error) {
	ls, err := q.NextBatch(ctx, 1)
	if err != nil || len(ls) == 0 {
		return core.Lease{}, false, err
	}
	return ls[0], true, nil
}

// NextBatch hands out up to n of the DAG's READY tasks, front first, in
// one statement.
func (q *Queue) NextBatch(ctx context.Context, n int) ([]core.Lease, error) {
	hs, err := q.db.next(ctx, q.dag, n, q.db.holder, false)
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
func (q *Queue) Heartbeat(ctx context.Context, l core.Lease) (core.Lease, error) {
	var out core.Lease
	err := q.run(ctx, func(t *txn) error {
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
func (q *Queue) Complete(ctx context.Context, l core.Lease) error {
	return q.db.complete(ctx, q.dag, l, &q.events, q.onEvent)
}

// Fail fails l's task with err, as core's Queue.Fail: a retry, a delay or
// a death with its blocking wave, in one transaction.
func (q *Queue) Fail(ctx context.Context, l core.Lease, err error) (core.State, error) {
	var st core.State
	e := q.run(ctx, func(t *txn) error {
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
func (q *Queue) Redrive(ctx context.Context, task string) error {
	return q.run(ctx, func(t *txn) error { return t.redrive(task, false) })
}

// ForceRedrive is Redrive for a poisoned task too, as core's.
func (q *Queue) ForceRedrive(ctx context.Context, task string) error {
	return q.run(ctx, func(t *txn) error { return t.redrive(task, true) })
}

// Advance moves the DAG's virtual clock on by d, firing what falls due on
// the way, as core's Queue.Advance. On a DB with a Clock it fires what is
// due now, whatever d.
func (q *Queue) Advance(ctx context.Context, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("core: cannot advance by %v: %w", d, core.ErrClockBackwards)
	}
	return q.run(ctx, func(t *txn) error {
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
func (q *Queue) AdvanceTo(ctx context.Context, at time.Duration) error {
	return q.run(ctx, func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		if !q.db.virtual {
			at = t.now
		}
		return t.advanceTo(at)
	})
}

// Now returns the DAG's clock: the database's (or the DB's Clock), or the
// DAG's virtual time.
func (q *Queue) Now(ctx context.Context) (time.Duration, error) {
	var n int64
	if err := q.db.pool.QueryRow(ctx, "SELECT coalesce("+q.db.now("$2")+", now) FROM dagq_dags WHERE dag = $1",
		q.dag, q.db.nowArg()).Scan(&n); err != nil {
		return 0, q.readErr(err)
	}
	return time.Duration(n), nil
}

// Status returns the state of a submitted task; false if it was never
// submitted (a name known only as a dependency included). An error says
// the database could not be read: never "not submitted".
func (q *Queue) Status(ctx context.Context, task string) (core.State, bool, error) {
	var s string
	err := q.db.pool.QueryRow(ctx, "SELECT state FROM dagq_tasks WHERE dag = $1 AND name = $2", q.dag, task).Scan(&s)
	if err == pgx.ErrNoRows || (err == nil && s == "") {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("durable: %w", err)
	}
	return core.State(s), true, nil
}

// ReadyTasks returns the READY tasks in the order Next hands them out.
func (q *Queue) ReadyTasks(ctx context.Context) ([]string, error) {
	rows, err := q.db.pool.Query(ctx, "SELECT name FROM dagq_tasks WHERE dag = $1 AND state = 'READY' ORDER BY ready_seq", q.dag)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	return names, nil
}

// States returns the state of every submitted task, by name.
func (q *Queue) States(ctx context.Context) (map[string]core.State, error) {
	rows, err := q.db.pool.Query(ctx, "SELECT name, state FROM dagq_tasks WHERE dag = $1 AND state <> ''", q.dag)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	out := map[string]core.State{}
	var name, state string
	_, err = pgx.ForEachRow(rows, []any{&name, &state}, func() error {
		out[name] = core.State(state)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	return out, nil
}

// DeadLetters returns the dead-letter queue in the order tasks entered it,
// with core's fields: Root, Error, Fingerprint, Attempts, Entered,
// BlastRadius, Poisoned.
func (q *Queue) DeadLetters(ctx context.Context) ([]core.DeadLetter, error) {
	rows, err := q.db.pool.Query(ctx, `SELECT name, state, reason, coalesce(root, ''), entered, attempts, error, blocks, poisoned
		FROM dagq_tasks WHERE dag = $1 AND dlq_seq IS NOT NULL ORDER BY dlq_seq`, q.dag)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
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
		return nil, fmt.Errorf("durable: %w", err)
	}
	return out, nil
}

// Lease returns the current lease of a RUNNING task, with its deadline as
// it stands; false if the task is not RUNNING.
func (q *Queue) Lease(ctx context.Context, task string) (core.Lease, bool, error) {
	var id, deadline int64
	var attempt int
	err := q.db.pool.QueryRow(ctx, `SELECT lease, attempts, coalesce(timer_at, 0) FROM dagq_tasks
		WHERE dag = $1 AND name = $2 AND state = 'RUNNING'`, q.dag, task).Scan(&id, &attempt, &deadline)
	if err == pgx.ErrNoRows {
		return core.Lease{}, false, nil
	}
	if err != nil {
		return core.Lease{}, false, fmt.Errorf("durable: %w", err)
	}
	return core.Lease{Task: task, ID: uint64(id), Attempt: attempt, Deadline: time.Duration(deadline)}, true, nil
}

// MaxAttempts returns the DAG's max attempts.
func (q *Queue) MaxAttempts(ctx context.Context) (int, error) {
	var n int
	if err := q.db.pool.QueryRow(ctx, "SELECT max_attempts FROM dagq_dags WHERE dag = $1", q.dag).Scan(&n); err != nil {
		return 0, q.readErr(err)
	}
	return n, nil
}

// Len returns the number of tasks submitted to the DAG.
func (q *Queue) Len(ctx context.Context) (int, error) {
	var n int64
	if err := q.db.pool.QueryRow(ctx, "SELECT arrivals FROM dagq_dags WHERE dag = $1", q.dag).Scan(&n); err != nil {
		return 0, q.readErr(err)
	}
	return int(n), nil
}

// readErr is the error of a read of the DAG's row.
func (q *Queue) readErr(err error) error {
	if err == pgx.ErrNoRows {
		return errNoDAG(q.dag)
	}
	return fmt.Errorf("durable: %w", err)
}
