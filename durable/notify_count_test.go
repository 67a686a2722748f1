package durable_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestOneNotificationPerCommit counts what an idle worker hears on
// ReadyChannel: one notification for a commit that makes many tasks READY
// (a SubmitAll of 200 independent tasks; a completion that frees 51
// dependents), however many rows its trigger fired for, and none for a
// commit that makes none READY. Each wakes the worker's fetch loop, which
// takes what is READY in one statement: a commit costs one wake-up and one
// fetch, not one a task. The count is exact: after each operation a NOTIFY
// with a payload of its own marks where its notifications end.
func TestOneNotificationPerCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+durable.ReadyChannel); err != nil {
		t.Fatal(err)
	}
	marks := 0
	// heard returns how many notifications came before the next mark.
	heard := func() int {
		t.Helper()
		marks++
		mark := fmt.Sprint("mark-", marks)
		if _, err := db.Pool().Exec(ctx, "SELECT pg_notify($1, $2)", durable.ReadyChannel, mark); err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			wctx, cancel := context.WithTimeout(ctx, time.Minute)
			note, err := conn.Conn().WaitForNotification(wctx)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if note.Payload == mark {
				return n
			}
			n++
		}
	}

	var tasks []durable.NewTask
	for i := range 200 {
		tasks = append(tasks, durable.NewTask{Name: fmt.Sprint("t", i)})
	}
	if err := q.SubmitAll(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	if n := heard(); n != 1 {
		t.Errorf("a SubmitAll of 200 READY tasks: %d notifications, want 1", n)
	}
	var deps []durable.NewTask
	for i := range 50 {
		deps = append(deps, durable.NewTask{Name: fmt.Sprint("after", i), Deps: []string{"root"}})
	}
	if err := q.SubmitAll(ctx, append(deps, durable.NewTask{Name: "root"})); err != nil {
		t.Fatal(err)
	}
	heard()
	if err := q.Submit(ctx, "waits", "root"); err != nil {
		t.Fatal(err)
	}
	if n := heard(); n != 0 {
		t.Errorf("a submit of a PENDING task: %d notifications, want none", n)
	}
	var root core.Lease
	for root.Task == "" {
		ls, err := q.NextBatch(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) == 0 {
			t.Fatal("root was never handed out")
		}
		for _, l := range ls {
			if l.Task == "root" {
				root = l
			}
		}
	}
	heard()
	if err := q.Complete(ctx, root); err != nil {
		t.Fatal(err)
	}
	if n := heard(); n != 1 {
		t.Errorf("a completion that frees 51 dependents: %d notifications, want 1", n)
	}
}
