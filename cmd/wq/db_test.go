package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// TestRunDBPrintsTheInMemoryTrace runs every library scenario with wq run
// --db and holds its trace to the in-memory run's, byte for byte: the
// growth alert and the rate-limited redrive of outage included.
func TestRunDBPrintsTheInMemoryTrace(t *testing.T) {
	url := pgtest.New(t)
	for _, e := range scenario.Library() {
		t.Run(e.Name, func(t *testing.T) {
			file := "../../core/scenario/library/" + e.Name + ".dagq"
			var mem, memErr bytes.Buffer
			wantErr := run([]string{"run", file}, &mem, &memErr)
			var db, dbErr bytes.Buffer
			err := run([]string{"run", "--db", url, file}, &db, &dbErr)
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("in memory: %v; durable: %v", wantErr, err)
			}
			if db.String() != mem.String() {
				t.Fatalf("the traces differ:\n--- in memory\n%s\n--- durable\n%s", mem.String(), db.String())
			}
		})
	}
}

// TestMigrateTwiceIsANoOp: wq migrate applies the schema once, then says it
// is up to date.
func TestMigrateTwiceIsANoOp(t *testing.T) {
	url := pgtest.New(t)
	var first, second bytes.Buffer
	if err := run([]string{"migrate", url}, &first, &first); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"migrate", url}, &second, &second); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.String(), "applied 0001_") || !strings.HasPrefix(second.String(), "up to date") {
		t.Fatalf("first migrate said %q, second %q", first.String(), second.String())
	}
}

// TestRunDBRefusesAnExistingDAGBeforeWriting: wq run --db --dag on a DAG
// that exists is refused, and the DAG's settings and tasks are as they
// were: the script's header (attempts 3, no lease) does not overwrite
// them.
func TestRunDBRefusesAnExistingDAGBeforeWriting(t *testing.T) {
	url := pgtest.New(t)
	ctx := context.Background()
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, err := db.Queue(ctx, "keep", core.Config{MaxAttempts: 7, LeaseTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(ctx, "mine"); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err = run([]string{"run", "--db", url, "--dag", "keep", "testdata/retry.dagq"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("wq run --dag keep: %v, want a refusal: the DAG exists", err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var attempts int
	var lease int64
	var tasks []string
	if err := conn.QueryRow(ctx, `SELECT max_attempts, lease_timeout,
		ARRAY(SELECT name FROM dagq_tasks WHERE dag = 'keep' ORDER BY name) FROM dagq_dags WHERE dag = 'keep'`).Scan(&attempts, &lease, &tasks); err != nil {
		t.Fatal(err)
	}
	if attempts != 7 || time.Duration(lease) != 30*time.Second || !slices.Equal(tasks, []string{"mine"}) {
		t.Errorf("after the refusal: max_attempts %d, lease %v, tasks %q; want 7, 30s, [mine]", attempts, time.Duration(lease), tasks)
	}
}
