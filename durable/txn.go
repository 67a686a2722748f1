package durable

import (
	"context"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
)

// txn is one operation on one DAG: its transaction, the DAG's settings and
// clock as the operation found them, and the events it emits, delivered
// when it has committed.
type txn struct {
	db     *DB
	ctx    context.Context
	tx     pgx.Tx
	dag    string
	d      *dagRow // nil until load
	now    time.Duration
	events []core.Event
	after  error // returned once the transaction has committed
}

// dagRow is a DAG's row: its settings, its clock, its order's bounds.
type dagRow struct {
	maxAttempts  int
	leaseTimeout time.Duration
	backoff      core.Backoff
	rng          []byte
	poisonAfter  int
	now          time.Duration
	ordFirst     int64
	ordLast      int64
	arrivals     int64
}

// lock takes the DAG's advisory lock for the rest of the transaction: the
// operations that walk the graph (submits, deaths, redrives, the clock)
// run one at a time per DAG. Then it loads the DAG's row.
func (t *txn) lock() error {
	if _, err := t.tx.Exec(t.ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", t.dag); err != nil {
		return err
	}
	return t.load()
}

// load reads the DAG's row and sets the operation's clock: the DAG's
// virtual time, or the DB's Clock.
func (t *txn) load() error {
	d := &dagRow{}
	var lease, base, max, now int64
	var jitter int16
	var seed int64
	err := t.tx.QueryRow(t.ctx, `SELECT max_attempts, lease_timeout, backoff_base, backoff_factor, backoff_max,
		jitter, seed, rng, poison_after, now, ord_first, ord_last, arrivals
		FROM dagq_dags WHERE dag = $1`, t.dag).Scan(&d.maxAttempts, &lease, &base, &d.backoff.Factor, &max,
		&jitter, &seed, &d.rng, &d.poisonAfter, &now, &d.ordFirst, &d.ordLast, &d.arrivals)
	if err == pgx.ErrNoRows {
		return refusal{errNoDAG(t.dag)}
	}
	if err != nil {
		return err
	}
	d.leaseTimeout, d.now = time.Duration(lease), time.Duration(now)
	d.backoff.Base, d.backoff.Max = time.Duration(base), time.Duration(max)
	d.backoff.Jitter, d.backoff.Seed = core.Jitter(jitter), uint64(seed)
	t.d = d
	t.now = t.clock(d.now)
	return nil
}

// clock is the operation's time: the DB's Clock, or the DAG's virtual
// time stored.
func (t *txn) clock(stored time.Duration) time.Duration {
	if t.db.clock != nil {
		return t.db.clock()
	}
	return stored
}

// emit keeps e for delivery after the commit, stamped with the clock.
func (t *txn) emit(e core.Event) {
	e.At = t.now
	t.events = append(t.events, e)
}

// later returns a + d, or the largest time if that overflows, as core does.
func later(a, d time.Duration) time.Duration {
	if d > 1<<63-1-a {
		return 1<<63 - 1
	}
	return a + d
}
