package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
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
