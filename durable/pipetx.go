package durable

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// querier is what an operation's txn runs its statements on: a pgx.Tx
// (SubmitTx's savepoint in the caller's transaction) or a pipeTx.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// pipeTx is the transaction of one operation on a connection of the pool,
// whose BEGIN and COMMIT travel with its statements instead of taking a
// round trip each: BEGIN at the front of the first batch (pgx's
// Batch.BeginTx), and, from an operation that knows its last batch
// (txn.sendLast), COMMIT at its end. Postgres runs a pipeline's statements
// in order and, after an error, skips the rest of it, so a COMMIT queued
// behind a failed statement never runs and the transaction is rolled back
// as any other.
//
// A submit on the common path (no search, no blocking wave) is two round
// trips, where pgx's Begin and Commit made it four; a submit of a task
// without dependencies, one.
type pipeTx struct {
	conn *pgxpool.Conn
	// tx is the transaction once begun; committed, once a COMMIT sent with
	// the last batch has run.
	tx        pgx.Tx
	committed bool
}

// begin begins the transaction on its own, for an operation whose first
// statement is not a batch.
func (p *pipeTx) begin(ctx context.Context) (pgx.Tx, error) {
	if p.committed {
		return nil, errCommitted
	}
	if p.tx == nil {
		tx, err := p.conn.Begin(ctx)
		if err != nil {
			return nil, err
		}
		p.tx = tx
	}
	return p.tx, nil
}

func (p *pipeTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tx, err := p.begin(ctx)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	return tx.Exec(ctx, sql, args...)
}

func (p *pipeTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	tx, err := p.begin(ctx)
	if err != nil {
		return nil, err
	}
	return tx.Query(ctx, sql, args...)
}

func (p *pipeTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	tx, err := p.begin(ctx)
	if err != nil {
		return errRow{err}
	}
	return tx.QueryRow(ctx, sql, args...)
}

// SendBatch sends b, with the BEGIN in front of it when it is the
// transaction's first statement; the results read are b's own.
func (p *pipeTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if p.committed {
		return pgx.FailedBatchResults(b, errCommitted)
	}
	if p.tx != nil {
		return p.tx.SendBatch(ctx, b)
	}
	nb := &pgx.Batch{}
	nb.BeginTx(pgx.TxOptions{})
	nb.QueuedQueries = append(nb.QueuedQueries, b.QueuedQueries...)
	br := p.conn.SendBatch(ctx, nb)
	p.tx = br.Tx()
	// The BEGIN's result: an error here is the error of every later read
	// of br, which the caller sees.
	_, _ = br.Exec()
	return br
}

// sendLast sends b with COMMIT at its end, for an operation with nothing
// left to run: the transaction commits if every statement of b succeeds,
// and no statement may follow.
func (p *pipeTx) sendLast(ctx context.Context, b *pgx.Batch) error {
	b.Queue("COMMIT")
	err := p.SendBatch(ctx, b).Close()
	if err == nil {
		p.committed = true
	}
	return err
}

// commit ends the transaction: nothing to do when sendLast committed it
// or nothing began it, else pgx's Commit, which refuses to report a failed
// transaction's COMMIT as a success.
func (p *pipeTx) commit(ctx context.Context) error {
	if p.committed || p.tx == nil {
		return nil
	}
	if err := p.tx.Commit(ctx); err != nil {
		return err
	}
	p.committed = true
	return nil
}

// rollback ends a transaction that failed. A connection it cannot roll
// back is closed by the pool on release, as it is left in a transaction.
func (p *pipeTx) rollback(ctx context.Context) {
	if p.committed || p.tx == nil {
		return
	}
	// The operation's own error is what its caller needs to hear.
	_ = p.tx.Rollback(ctx)
}

// errCommitted refuses a statement sent after the operation's COMMIT: it
// would run outside the transaction.
var errCommitted = errors.New("durable: a statement after the operation's COMMIT")

// errRow is a pgx.Row whose Scan fails with err.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
