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
	tx     querier
	dag    string
	d      *dagRow // nil until load
	now    time.Duration
	events []core.Event
	after  error // returned once the transaction has committed
	// ends: the operation ends when the step running now returns, so that
	// its last batch may carry the COMMIT (sendLast); a Submit is such a
	// step, each submit of a SubmitAll is not.
	ends bool
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

	// The growth alert (see alert.go) and the timer of a bulk redrive's
	// next batch (see bulk.go), as stored; written back when the
	// operation commits if dirty.
	alert      core.Alert
	alertTimes []int64
	alertOn    bool
	alertAt    timerAt
	jobAt      timerAt
	dirty      bool
}

// timerAt is a timer that belongs to no task: when it fires and its place
// among the timers set at that time (a number from dagq_line); set false
// when there is none.
type timerAt struct {
	at, seq int64
	set     bool
}

// before orders timers as core's heap does: earlier first, and of two at
// the same time, the one set first.
func (a timerAt) before(b timerAt) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// scan is a timerAt's destination for a pair of nullable columns.
func (a *timerAt) scan(at, seq *int64) {
	*a = timerAt{}
	if at != nil && seq != nil {
		*a = timerAt{at: *at, seq: *seq, set: true}
	}
}

// args is a timerAt as a pair of nullable arguments.
func (a timerAt) args() (at, seq any) {
	if !a.set {
		return nil, nil
	}
	return a.at, a.seq
}

// lock takes the DAG's advisory lock for the rest of the transaction: the
// operations that walk the graph (submits, deaths, redrives, the clock)
// run one at a time per DAG. Then it loads the DAG's row. Both in one round
// trip (see lockThen).
func (t *txn) lock() error { return t.lockThen(nil, nil) }

// lockThen is lock, with the statements queue adds run in the same round
// trip after the load, whose results read reads. The statements go as one
// pipeline: the server runs them one after the other, and each takes its
// snapshot when it starts (READ COMMITTED), so the load and what follows
// see everything committed before the lock was granted, as they would one
// round trip each.
func (t *txn) lockThen(queue func(b *pgx.Batch), read func(br pgx.BatchResults) error) error {
	return t.lockSend(queue, read, false)
}

// lockThenLast is lockThen for statements that end the step, as sendLast
// sends them: with the COMMIT behind them when the step ends the
// operation in a transaction of its own. The COMMIT runs if every
// statement succeeds, whatever read makes of their results, so read may
// refuse the operation only for something the statements left unchanged.
func (t *txn) lockThenLast(queue func(b *pgx.Batch), read func(br pgx.BatchResults) error) error {
	return t.lockSend(queue, read, true)
}

// lockSend is lockThen, or with last lockThenLast.
func (t *txn) lockSend(queue func(b *pgx.Batch), read func(br pgx.BatchResults) error, last bool) error {
	b := &pgx.Batch{}
	b.Queue("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", t.dag)
	b.Queue(loadSQL(t.db), t.dag, t.db.nowArg())
	if queue != nil {
		queue(b)
	}
	var p *pipeTx
	if last {
		p = t.committer()
	}
	if p != nil {
		b.Queue("COMMIT")
	}
	br := t.tx.SendBatch(t.ctx, b)
	err := func() error {
		if _, err := br.Exec(); err != nil {
			return err
		}
		if err := t.scanLoad(br.QueryRow()); err != nil {
			return err
		}
		if read != nil {
			return read(br)
		}
		return nil
	}()
	cerr := br.Close()
	if p != nil && cerr == nil {
		p.committed = true
	}
	if err == nil {
		err = cerr
	}
	return err
}

// loadSQL reads a DAG's row ($1) and the operation's time ($2: the DB's
// Clock, or null for the database's).
func loadSQL(db *DB) string {
	return `SELECT max_attempts, lease_timeout, backoff_base, backoff_factor, backoff_max,
		jitter, seed, rng, poison_after, now, ord_first, ord_last, arrivals,
		alert_entries, alert_window, alert_times, alert_on, alert_at, alert_seq, job_at, job_seq,
		coalesce(` + db.now("$2") + `, now)
		FROM dagq_dags WHERE dag = $1`
}

// load reads the DAG's row and sets the operation's clock: the
// database's, read by the statement (or the DB's Clock), or the DAG's
// virtual time.
func (t *txn) load() error {
	return t.scanLoad(t.tx.QueryRow(t.ctx, loadSQL(t.db), t.dag, t.db.nowArg()))
}

// scanLoad reads the row of loadSQL into t.
func (t *txn) scanLoad(row pgx.Row) error {
	d := &dagRow{}
	var lease, base, max, now int64
	var jitter int16
	var seed, window int64
	var alertAt, alertSeq, jobAt, jobSeq *int64
	var opNow int64
	err := row.Scan(&d.maxAttempts, &lease, &base, &d.backoff.Factor, &max,
		&jitter, &seed, &d.rng, &d.poisonAfter, &now, &d.ordFirst, &d.ordLast, &d.arrivals,
		&d.alert.Entries, &window, &d.alertTimes, &d.alertOn, &alertAt, &alertSeq, &jobAt, &jobSeq, &opNow)
	if err == pgx.ErrNoRows {
		return refusal{errNoDAG(t.dag)}
	}
	if err != nil {
		return err
	}
	d.leaseTimeout, d.now = time.Duration(lease), time.Duration(now)
	d.backoff.Base, d.backoff.Max = time.Duration(base), time.Duration(max)
	d.backoff.Jitter, d.backoff.Seed = core.Jitter(jitter), uint64(seed)
	d.alert.Window = time.Duration(window)
	d.alertAt.scan(alertAt, alertSeq)
	d.jobAt.scan(jobAt, jobSeq)
	t.d = d
	t.now = time.Duration(opNow)
	return nil
}

// store writes back what the operation changed of the DAG's row in memory
// (the alert, the redrive's timer), before it commits: one statement, and
// none when nothing changed.
func (t *txn) store() error {
	if t.d == nil || !t.d.dirty {
		return nil
	}
	d := t.d
	alertAt, alertSeq := d.alertAt.args()
	jobAt, jobSeq := d.jobAt.args()
	_, err := t.tx.Exec(t.ctx, `UPDATE dagq_dags SET alert_times = $2, alert_on = $3, alert_at = $4, alert_seq = $5,
		job_at = $6, job_seq = $7 WHERE dag = $1`, t.dag, d.alertTimes, d.alertOn, alertAt, alertSeq, jobAt, jobSeq)
	d.dirty = false
	return err
}

// sendLast sends b as the step's last statements: with the COMMIT when
// the step ends the operation (t.ends), the transaction is the operation's
// own (see pipeTx) and nothing is left to store, else as any batch.
func (t *txn) sendLast(b *pgx.Batch) error {
	if p := t.committer(); p != nil {
		return p.sendLast(t.ctx, b)
	}
	return t.tx.SendBatch(t.ctx, b).Close()
}

// committer is the operation's own transaction when the statements its
// step sends last may carry the COMMIT (sendLast, lockThenLast): the step
// ends the operation, the transaction is the operation's own (see pipeTx)
// and nothing is left to store; nil otherwise.
func (t *txn) committer() *pipeTx {
	if p, ok := t.tx.(*pipeTx); ok && t.ends && (t.d == nil || !t.d.dirty) {
		return p
	}
	return nil
}

// seq takes the next place in dagq_line, for a timer set now.
func (t *txn) seq() (int64, error) {
	var n int64
	err := t.tx.QueryRow(t.ctx, "SELECT nextval('dagq_line')").Scan(&n)
	return n, err
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
