package durable_test

import (
	"context"
	"sync"
	"testing"

	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestMigrateTwiceIsANoOp: the second migration applies nothing and the
// schema_version table records each migration once.
func TestMigrateTwiceIsANoOp(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	first, err := durable.MigrateURL(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(durable.Migrations()) {
		t.Fatalf("the first migration applied %v, want every one of %d", first, len(durable.Migrations()))
	}
	second, err := durable.MigrateURL(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 0 {
		t.Fatalf("the second migration applied %v, want nothing", second)
	}
	assertVersions(t, url)
}

// TestConcurrentMigratorsAreSerialised: eight migrators at once on an
// empty database, and each migration is applied exactly once, with no
// error.
func TestConcurrentMigratorsAreSerialised(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	var wg sync.WaitGroup
	applied := make([][]int, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied[i], errs[i] = durable.MigrateURL(ctx, url)
		}()
	}
	wg.Wait()
	total := 0
	for i := range 8 {
		if errs[i] != nil {
			t.Fatalf("migrator %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	if total != len(durable.Migrations()) {
		t.Fatalf("the migrators applied %d migrations in all, want %d (each once)", total, len(durable.Migrations()))
	}
	assertVersions(t, url)
}

// assertVersions checks that dagq_schema_version lists every migration
// once.
func assertVersions(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, "SELECT version FROM dagq_schema_version ORDER BY version")
	got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		t.Fatal(err)
	}
	ms := durable.Migrations()
	if len(got) != len(ms) {
		t.Fatalf("schema_version holds %v, want %d rows", got, len(ms))
	}
	for i, m := range ms {
		if int(got[i]) != m.Version {
			t.Fatalf("schema_version holds %v, want the versions of %v", got, ms)
		}
	}
}
