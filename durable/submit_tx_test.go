package durable_test

import (
	"errors"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestSubmitTxIsTheApplicationsTransaction: tasks submitted in the
// application's transaction never existed when it rolls back, and exist
// with its rows when it commits; a refused SubmitTx rolls back only its
// own savepoint.
func TestSubmitTxIsTheApplicationsTransaction(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	pool := db.Pool()
	if _, err := pool.Exec(bg, "CREATE TABLE orders (id int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}

	// Rolled back: neither the order nor its tasks.
	tx, err := pool.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(bg, "INSERT INTO orders VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitTx(bg, tx, "charge-1"); err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAllTx(bg, tx, []durable.NewTask{{Name: "ship-1", Deps: []string{"charge-1"}}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := status(t, q, "charge-1"); ok {
		t.Error("charge-1 is visible before the application's transaction committed")
	}
	if err := tx.Rollback(bg); err != nil {
		t.Fatal(err)
	}
	for _, task := range []string{"charge-1", "ship-1"} {
		if s, ok := status(t, q, task); ok {
			t.Errorf("after the rollback %s is %s, want never submitted", task, s)
		}
	}
	if n := length(t, q); n != 0 {
		t.Errorf("after the rollback the DAG counts %d tasks, want 0", n)
	}
	if l, ok := next(t, q); ok {
		t.Errorf("after the rollback %s was handed out", l.Task)
	}

	// Committed, with a refusal in the middle that the transaction survives.
	tx, err = pool.Begin(bg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(bg, "INSERT INTO orders VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitTx(bg, tx, "charge-2"); err != nil {
		t.Fatal(err)
	}
	err = q.SubmitAllTx(bg, tx, []durable.NewTask{{Name: "ship-2", Deps: []string{"charge-2"}}, {Name: "charge-2"}})
	if !errors.Is(err, core.ErrDuplicate) {
		t.Fatalf("a batch with a duplicate: %v, want ErrDuplicate", err)
	}
	if err := tx.Commit(bg); err != nil {
		t.Fatalf("the application's transaction after a refused submit: %v", err)
	}
	var orders int
	if err := pool.QueryRow(bg, "SELECT count(*) FROM orders").Scan(&orders); err != nil || orders != 1 {
		t.Errorf("orders: %d, %v; want 1", orders, err)
	}
	if s, _ := status(t, q, "charge-2"); s != core.Ready {
		t.Errorf("charge-2 is %s, want READY", s)
	}
	if _, ok := status(t, q, "ship-2"); ok {
		t.Error("ship-2 exists: the refused batch was not rolled back whole")
	}
}

// TestSubmitAllIsAllOrNothing: a batch with a cycle in it submits nothing
// and tells only the refusal.
func TestSubmitAllIsAllOrNothing(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	var events []core.Event
	q, err := db.Queue(bg, "batch", core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	err = q.SubmitAll(bg, []durable.NewTask{{Name: "a", Deps: []string{"c"}}, {Name: "b", Deps: []string{"a"}}, {Name: "c", Deps: []string{"b"}}})
	var ce *core.CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("a batch closing a cycle: %v, want a *core.CycleError", err)
	}
	if n := length(t, q); n != 0 {
		t.Errorf("%d tasks after the refused batch, want 0", n)
	}
	if len(events) != 1 || events[0].Kind != core.EventRejected || events[0].Task != "c" {
		t.Errorf("events %v, want c's rejection only", events)
	}
	if err := q.SubmitAll(bg, []durable.NewTask{{Name: "a"}, {Name: "b", Deps: []string{"a"}}}); err != nil {
		t.Fatal(err)
	}
	if s, _ := status(t, q, "b"); s != core.Pending {
		t.Errorf("b is %s, want PENDING", s)
	}
}
