package durable_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestAnErrorPostgresCannotStoreStillSettlesItsTask: a handler's error
// holding a NUL byte and invalid UTF-8 fails its task, stored with the NUL
// removed and the bad bytes replaced, instead of leaving it RUNNING while
// the worker retries a statement that can never succeed.
func TestAnErrorPostgresCannotStoreStillSettlesItsTask(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	if err := q.Submit(bg, "bad"); err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(bg, "after", "bad"); err != nil {
		t.Fatal(err)
	}
	var reported atomic.Int64
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		return errors.New("a\x00b\xffc")
	}, durable.WorkerOptions{OnError: func(err error) { reported.Add(1); t.Log(err) }})
	stop := startWorker(t, w)
	waitFor(t, "bad DEAD", func() bool { s, _ := status(t, q, "bad"); return s == core.Dead })
	stop()
	dl := deadLetters(t, q)
	if len(dl) != 2 || dl[0].Task != "bad" || dl[0].Error != "ab\uFFFDc" || dl[1].Task != "after" || dl[1].State != core.Blocked {
		t.Fatalf("dead letters %+v, want bad with error %q, then after BLOCKED", dl, "ab\uFFFDc")
	}
	if n := reported.Load(); n != 0 {
		t.Errorf("%d errors reported, want none: the failure was stored at once", n)
	}
	if st := w.Stats(); st.Failed != 1 || st.Refused != 0 {
		t.Errorf("stats %+v, want one failure accepted", st)
	}
}

// TestAResultThatCannotBeWrittenFailsTheTask: when the statement that
// settles a task fails with an error that is not transient (here a trigger
// of the test's, raising SQLSTATE 22023 on the write), the worker reports
// it through OnError once and fails the task with it; a failure that cannot
// be written as it is fails the task with the package's own message. No
// task stays RUNNING.
func TestAResultThatCannotBeWrittenFailsTheTask(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	ctx := context.Background()
	// The success of "unwritable" and any failure whose error starts with
	// "boom" cannot be written.
	if _, err := db.Pool().Exec(ctx, `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF (NEW.state = 'SUCCEEDED' AND NEW.name = 'unwritable') OR NEW.error LIKE 'boom%' THEN
				RAISE EXCEPTION 'refused by the test' USING ERRCODE = '22023';
			END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER refuse BEFORE UPDATE ON dagq_tasks FOR EACH ROW EXECUTE FUNCTION refuse()`); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"unwritable", "boom", "fine"} {
		if err := q.Submit(bg, name); err != nil {
			t.Fatal(err)
		}
	}
	var reported atomic.Int64
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		if task.Name == "boom" {
			return errors.New("boom")
		}
		return nil
	}, durable.WorkerOptions{OnError: func(err error) { reported.Add(1); t.Log(err) }})
	stop := startWorker(t, w)
	waitFor(t, "every task settled", func() bool { _, ok := settledStates(t, q); return ok })
	stop()
	states, _ := q.States(bg)
	if states["fine"] != core.Succeeded || states["unwritable"] != core.Dead || states["boom"] != core.Dead {
		t.Fatalf("states %v, want fine SUCCEEDED, unwritable and boom DEAD", states)
	}
	errs := map[string]string{}
	for _, d := range deadLetters(t, q) {
		errs[d.Task] = d.Error
	}
	if e := errs["unwritable"]; !strings.HasPrefix(e, "durable: the task's success could not be stored: ") || !strings.Contains(e, "22023") {
		t.Errorf("unwritable failed with %q, want why its success could not be stored", e)
	}
	if e := errs["boom"]; !strings.HasPrefix(e, "durable: the task's failure could not be stored: ") || !strings.Contains(e, "22023") {
		t.Errorf("boom failed with %q, want why its failure could not be stored", e)
	}
	// One report per statement refused: unwritable's completion (alone, or
	// in a batch and then alone, both in one settle), boom's failure.
	if n := reported.Load(); n != 2 {
		t.Errorf("%d errors reported, want 2: each refused write once, no retries", n)
	}
}

// TestANameOverTheLimitIsRefusedBeforeAnySQL: a task, dependency or DAG
// name longer than core.MaxName bytes is a *core.TaskError that is
// core.ErrNameTooLong, and no statement is sent; a name of exactly
// MaxName bytes is taken.
func TestANameOverTheLimitIsRefusedBeforeAnySQL(t *testing.T) {
	t.Parallel()
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	long, most := strings.Repeat("n", core.MaxName+1), strings.Repeat("m", core.MaxName)
	var rejected []core.Event
	q2, err := db.Queue(context.Background(), "events", core.Config{MaxAttempts: 1,
		OnEvent: func(e core.Event) { rejected = append(rejected, e) }})
	if err != nil {
		t.Fatal(err)
	}
	before := c.n.Load()
	for _, tt := range []struct {
		name string
		err  error
		task string
	}{
		{"Task", q.Submit(bg, long), long},
		{"Dependency", q.Submit(bg, "a", "b", long), "a"},
		{"WithEvent", q2.Submit(bg, long), long},
	} {
		var te *core.TaskError
		if !errors.As(tt.err, &te) || te.Task != tt.task || !errors.Is(tt.err, core.ErrNameTooLong) || !errors.Is(tt.err, core.ErrInvalidName) {
			t.Errorf("%s: %v, want a *core.TaskError about the task that is ErrNameTooLong", tt.name, tt.err)
		}
	}
	_, err = db.Queue(context.Background(), long, core.Config{MaxAttempts: 1})
	var te *core.TaskError
	if !errors.As(err, &te) || !errors.Is(err, core.ErrNameTooLong) || !strings.HasPrefix(te.Err.Error(), "durable: ") {
		t.Errorf("a DAG named %d bytes: %v, want a *core.TaskError that is ErrNameTooLong", len(long), err)
	}
	if n := c.n.Load() - before; n != 0 {
		t.Errorf("%d statements sent for names over the limit, want none", n)
	}
	if len(rejected) != 1 || rejected[0].Kind != core.EventRejected || rejected[0].Task != long {
		t.Errorf("events %+v, want one EventRejected", rejected)
	}
	if err := q.Submit(bg, most); err != nil {
		t.Errorf("a name of exactly %d bytes: %v", core.MaxName, err)
	}
	if _, err := db.Queue(context.Background(), most, core.Config{MaxAttempts: 1}); err != nil {
		t.Errorf("a DAG named exactly %d bytes: %v", core.MaxName, err)
	}
}
