package durable

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dagq/dagq/internal/pgtest"
)

// TestAPipelinedTransactionCommitsAllOrNothing checks pipeTx on a real
// server: a COMMIT queued behind a failing statement commits nothing of
// the transaction, its earlier batches included; one queued behind
// statements that succeed commits them all; either way the connection is
// left outside a transaction, and nothing runs after the COMMIT.
func TestAPipelinedTransactionCommitsAllOrNothing(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.New(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, "CREATE TABLE rows (v int)"); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM rows").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	insert := func(v int) *pgx.Batch {
		b := &pgx.Batch{}
		b.Queue("INSERT INTO rows VALUES ($1)", v)
		return b
	}
	run := func(last *pgx.Batch) (*pipeTx, error) {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Release()
		p := &pipeTx{conn: conn}
		if err := p.SendBatch(ctx, insert(1)).Close(); err != nil {
			t.Fatal(err)
		}
		err = p.sendLast(ctx, last)
		if err != nil {
			p.rollback(ctx)
		}
		if s := conn.Conn().PgConn().TxStatus(); s != 'I' {
			t.Errorf("the connection is left in transaction status %q, want 'I'", s)
		}
		return p, err
	}

	failing := insert(2)
	failing.Queue("SELECT 1 / 0")
	if _, err := run(failing); err == nil {
		t.Fatal("a batch with a division by zero committed")
	}
	if n := count(); n != 0 {
		t.Fatalf("after a failed last batch %d rows exist, want 0", n)
	}

	p, err := run(insert(2))
	if err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Fatalf("after a committed last batch %d rows exist, want 2", n)
	}
	if _, err := p.Exec(ctx, "INSERT INTO rows VALUES (3)"); !errors.Is(err, errCommitted) {
		t.Errorf("a statement after the COMMIT: %v, want errCommitted", err)
	}
	if err := p.commit(ctx); err != nil {
		t.Errorf("commit after sendLast: %v", err)
	}
}
