package durable

import (
	"context"
	"errors"
	"fmt"
	"go.opentelemetry.io/otel/metric"
	"sync/atomic"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options configures a [DB].
type Options struct {
	// VirtualClock runs each DAG on its own virtual clock, kept in its
	// row and moved only by Queue.Advance (see [Clock]): for replaying
	// scripts exactly. Default: the database's clock.
	VirtualClock bool
	// Clock, when set (tests), is the time the statements use in place of
	// the database's clock (see [Clock]); ignored with VirtualClock.
	Clock Clock
	// OnEvent receives the events of the operations called on the DB
	// itself (NextBatch, Complete, Fail, Heartbeat, Tick), with their DAG,
	// after each operation has committed. A [Queue] delivers its own
	// operations' events to its core.Config.OnEvent instead.
	OnEvent func(dag string, e core.Event)
	// Tracer, when set, sees every statement the pool's connections run
	// (pgx's QueryTracer): the tests count statements with it.
	Tracer pgx.QueryTracer
	// MaxConns caps the pool's connections; 0: pgxpool's default.
	MaxConns int32
	// Retention, when above 0, has the maintenance pass ([DB.Tick], which
	// a Worker runs) delete each DAG finished (every task SUCCEEDED) longer
	// ago than this, with everything of it (see [DB.DeleteDAG]); at most
	// one sweep every 10 s per DB. 0: DAGs are kept until deleted.
	Retention time.Duration
	// MeterProvider, when set, receives the DB's metrics through
	// OpenTelemetry's metric API (see metrics.go for the instruments);
	// nil: none are made, and recording them costs a nil check.
	MeterProvider metric.MeterProvider
}

// DB is a dagq database: the tasks of any number of DAGs, each one a
// [Queue]. Its methods hand out and settle tasks of every DAG, as workers
// need; it is safe for concurrent use by many goroutines and processes.
type DB struct {
	pool      *pgxpool.Pool
	retention time.Duration
	metrics   *metrics
	swept     atomic.Int64 // when the last retention sweep ran, Unix ns
	virtual   bool
	clock     Clock
	onEvent   func(string, core.Event)
	events    outbox
	// holder names this process as the holder of the leases that
	// NextBatch and Queue.Next hand out (see [TaskDetail]): host:pid.
	holder string
}

// Open connects to the database at url (a postgres:// URL or keyword/value
// pairs, as pgx takes them), brings its schema up to date ([Migrate]), and
// returns the DB. Close it when done.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if _, err := MigrateURL(ctx, url); err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	db := &DB{pool: pool, virtual: opts.VirtualClock, onEvent: opts.OnEvent, retention: opts.Retention, holder: hostPID()}
	if !db.virtual {
		db.clock = opts.Clock
	}
	if db.metrics, err = newMetrics(db, opts.MeterProvider); err != nil {
		pool.Close()
		return nil, fmt.Errorf("durable: metrics: %w", err)
	}
	return db, nil
}

// Close closes the DB's connections.
func (db *DB) Close() { db.pool.Close() }

// Pool returns the DB's connection pool, for what this package does not
// do itself (LISTEN, say).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// retryable reports whether a transaction failed only because of another
// one (a deadlock, a serialization failure) and may simply run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// againOnConflict runs f, and again while it fails with a deadlock or a
// serialization failure (retryable), up to 20 times, waiting a millisecond
// longer each time; it returns f's last error, wrapped with the package's
// prefix.
func againOnConflict(f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		if err != nil && retryable(err) && attempt < 20 {
			time.Sleep(time.Duration(attempt+1) * time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("durable: %w", err)
		}
		return nil
	}
}

// refusal is an error that refuses an operation: the transaction is rolled
// back, and the error (and the events of the refusal) reach the caller.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }

// inTx runs f, then t.store, in a transaction of its own on a connection of
// the pool (a pipeTx: its BEGIN and COMMIT travel with f's statements),
// committed when both succeed and rolled back otherwise.
func (db *DB) inTx(ctx context.Context, t *txn, f func(t *txn) error) error {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	p := &pipeTx{conn: conn}
	t.tx = p
	ok := false
	defer func() {
		if !ok {
			p.rollback(ctx)
		}
	}()
	if err := f(t); err != nil {
		return err
	}
	if err := t.store(); err != nil {
		return err
	}
	if err := p.commit(ctx); err != nil {
		return err
	}
	ok = true
	return nil
}

// run runs f in a transaction on dag, again when it deadlocks, and delivers
// its events to deliver after it commits. An error f returns wrapped in a
// refusal rolls back and is returned as it is, with the events f emitted
// (a refused submit's EventRejected).
func (db *DB) run(ctx context.Context, dag string, ob *outbox, deliver func(core.Event), f func(t *txn) error) error {
	for attempt := 0; ; attempt++ {
		t := &txn{db: db, ctx: ctx, dag: dag}
		err := db.inTx(ctx, t, f)
		var r refusal
		switch {
		case err == nil:
		case errors.As(err, &r):
			err = r.err
		case retryable(err) && attempt < 20:
			time.Sleep(time.Duration(attempt+1) * time.Millisecond)
			continue
		default:
			return fmt.Errorf("durable: %w", err)
		}
		if err == nil {
			err = t.after
			db.metrics.committed(dag, t.events)
		}
		ob.send(t.events, deliver)
		return err
	}
}
