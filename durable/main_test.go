package durable_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// newURL is a fresh database of the test's own, whose commits survive a
// crash of the server.
func newURL(t testing.TB) string { return pgtest.New(t, pgtest.SynchronousCommit) }

// openDB opens a DB on a fresh database of its own for the test.
func openDB(t testing.TB, opts durable.Options) *durable.DB {
	t.Helper()
	db, err := durable.Open(context.Background(), newURL(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

var dags atomic.Int64

// openQueue opens a queue on a DAG of its own in db.
func openQueue(t testing.TB, db *durable.DB, cfg core.Config) *durable.Queue {
	t.Helper()
	q, err := db.Queue(context.Background(), fmt.Sprintf("dag-%d", dags.Add(1)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
