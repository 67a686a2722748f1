package durable_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestOpeningADAGNeverChangesItsSettings: DB.Queue on a DAG that exists
// keeps what is stored, whatever its Config says; DB.Configure changes it,
// and refuses a DAG that does not exist, writing nothing.
func TestOpeningADAGNeverChangesItsSettings(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	if _, err := db.Queue(bg, "etl", core.Config{MaxAttempts: 7, LeaseTimeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	q, err := db.Queue(bg, "etl", core.Config{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if n := maxAttempts(t, q); n != 7 {
		t.Errorf("after opening again with MaxAttempts 3, the DAG has %d, want 7 as stored", n)
	}
	if err := q.Submit(bg, "a"); err != nil {
		t.Fatal(err)
	}
	l, ok := next(t, q)
	if now := now(t, q); !ok || l.Deadline-now < 50*time.Second {
		t.Errorf("the lease runs %v from now, want the stored minute", l.Deadline-now)
	}
	if err := db.Configure(bg, "etl", core.Config{MaxAttempts: 2}); err != nil {
		t.Fatal(err)
	}
	if n := maxAttempts(t, q); n != 2 {
		t.Errorf("after Configure with MaxAttempts 2, the DAG has %d", n)
	}
	if err := db.Configure(bg, "nope", core.Config{MaxAttempts: 2}); err == nil {
		t.Error("Configure made a DAG that did not exist")
	}
	if ok, err := db.HasDAG(bg, "nope"); err != nil || ok {
		t.Errorf("HasDAG(nope) = %v, %v after a refused Configure, want false", ok, err)
	}
	if err := db.Configure(bg, "etl", core.Config{MaxAttempts: -1}); err == nil || maxAttempts(t, q) != 2 {
		t.Errorf("Configure with MaxAttempts -1: %v, and the DAG has %d; want a refusal, 2 kept", err, maxAttempts(t, q))
	}
	if err := db.Configure(bg, "etl", core.Config{}); err != nil || maxAttempts(t, q) != core.DefaultMaxAttempts {
		t.Errorf("Configure with MaxAttempts 0: %v, and the DAG has %d; want core's default, %d", err, maxAttempts(t, q), core.DefaultMaxAttempts)
	}
}

// TestAReadThatCannotReadSaysSo: with the database closed, every read
// returns an error, never "empty" or "never submitted".
func TestAReadThatCannotReadSaysSo(t *testing.T) {
	t.Parallel()
	db, err := durable.Open(bg, newURL(t), durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.Queue(bg, "gone", core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(bg, "a"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, _, e1 := q.Status(bg, "a")
	_, e2 := q.DeadLetters(bg)
	_, e3 := q.DeadLetterGroups(bg)
	_, _, e4 := q.Next(bg)
	_, e5 := q.Len(bg)
	_, e6 := q.ReadyTasks(bg)
	_, e7 := q.Now(bg)
	_, _, e8 := q.Lease(bg, "a")
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7, e8} {
		if err == nil {
			t.Errorf("read %d on a closed DB: no error", i+1)
		}
	}
	var te *core.TaskError
	if errors.As(e1, &te) {
		t.Errorf("Status on a closed DB: %v, a refusal, want an error of the database", e1)
	}
}
