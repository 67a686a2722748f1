package durable_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestTaskDetail follows one task through a life an operator asks about:
// a worker named "w-1" fails it, its lease expires under another worker,
// it runs again under a lease of its own; then it dies, is redriven, and
// succeeds with a result. At each point its detail says what happened:
// its attempts with their errors, holders and outcomes, its lease, what
// it waits on and what waits on it, its arguments and result.
func TestTaskDetail(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{}
	clk.now.Store(int64(1000 * time.Hour))
	db := openDB(t, durable.Options{Clock: clk.clock()})
	ctx := context.Background()
	q, err := db.Queue(ctx, "etl", core.Config{MaxAttempts: 3, LeaseTimeout: 10 * time.Second,
		Backoff: core.Backoff{Base: time.Minute, Factor: 1, Max: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(ctx, []durable.NewTask{
		{Name: "calendar"},
		{Name: "fetch", Deps: []string{"calendar"}, Args: []byte(`{"url":"a"}`)},
		{Name: "parse", Deps: []string{"fetch", "calendar", "schema"}},
		{Name: "index", Deps: []string{"fetch"}},
	}); err != nil {
		t.Fatal(err)
	}
	detail := func() durable.TaskDetail {
		t.Helper()
		td, err := db.TaskDetail(ctx, "etl", "fetch")
		if err != nil {
			t.Fatal(err)
		}
		return td
	}
	td := detail()
	if td.State != core.Pending || !slices.Equal(td.Deps, []string{"calendar"}) || !slices.Equal(td.WaitsOn, []string{"calendar"}) ||
		!slices.Equal(td.Dependents, []string{"parse", "index"}) || td.NumDependents != 2 || string(td.Args) != `{"url":"a"}` ||
		td.Lease != nil || len(td.Failures) != 0 || td.MaxAttempts != 3 || td.Created.IsZero() || !td.Finished.IsZero() {
		t.Fatalf("a PENDING task: %+v", td)
	}
	l, _ := next(t, q)
	if err := q.Complete(ctx, l); err != nil {
		t.Fatal(err)
	}
	if td := detail(); td.State != core.Ready || len(td.WaitsOn) != 0 {
		t.Fatalf("READY: %+v", td)
	}
	if pd, err := db.TaskDetail(ctx, "etl", "parse"); err != nil || !slices.Equal(pd.WaitsOn, []string{"fetch", "schema"}) ||
		!slices.Equal(pd.Awaited, []string{"schema"}) {
		t.Fatalf("parse waits on %v, awaits %v (%v); want fetch and the name never submitted, schema", pd.WaitsOn, pd.Awaited, err)
	}

	// Attempt 1, by the worker w-1: it fails.
	w1 := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		return errors.New("HTTP 503 from " + task.Name)
	}, durable.WorkerOptions{ID: "w-1", Poll: 10 * time.Millisecond, OnError: quiet(t)})
	stop := startWorker(t, w1)
	waitFor(t, "attempt 1 failed", func() bool { return len(detail().Failures) == 1 })
	stop()
	if td := detail(); td.State != core.Delayed || td.Due != 1000*time.Hour+time.Minute {
		t.Fatalf("after attempt 1, DELAYED for its backoff: %+v", td)
	}
	clk.Add(time.Minute)
	if _, err := db.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	// Attempt 2, under a lease a client holds and lets expire.
	l, _ = next(t, q)
	td = detail()
	if td.State != core.Running || td.Lease == nil || td.Lease.ID != l.ID || td.Lease.Attempt != 2 ||
		td.Lease.Deadline != l.Deadline || td.Lease.Since.IsZero() || td.Lease.Holder == "" || td.Lease.Holder == "w-1" {
		t.Fatalf("RUNNING under this process's lease %+v: %+v", l, td.Lease)
	}
	clk.Add(11 * time.Second)
	if _, err := db.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute)
	if _, err := db.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	// Attempt 3 is held, then fails permanently.
	l, _ = next(t, q)
	if _, err := q.Fail(ctx, l, core.Permanent(errors.New("bad input"))); err != nil {
		t.Fatal(err)
	}
	td = detail()
	f := td.Failures
	if td.State != core.Dead || td.Reason != "permanent failure after 3 attempts: bad input" || td.Error != "bad input" ||
		td.Attempts != 3 || len(f) != 3 {
		t.Fatalf("DEAD: %+v", td)
	}
	want := []durable.Attempt{
		{Attempt: 1, Error: "HTTP 503 from fetch", Outcome: core.Delayed, Holder: "w-1"},
		{Attempt: 2, Error: "lease expired", Expired: true, Outcome: core.Delayed, Holder: td.Failures[1].Holder},
		{Attempt: 3, Error: "bad input", Permanent: true, Outcome: core.Dead, Holder: td.Failures[1].Holder},
	}
	for i := range f {
		got := f[i]
		if got.Started.IsZero() || got.Ended.Before(got.Started) {
			t.Errorf("attempt %d: started %v, ended %v", i+1, got.Started, got.Ended)
		}
		got.Started, got.Ended = time.Time{}, time.Time{}
		if got != want[i] {
			t.Errorf("attempt %d:\n got %+v\nwant %+v", i+1, got, want[i])
		}
	}
	if f[1].Holder == "" || f[1].Holder == "w-1" {
		t.Errorf("the client's attempt is held by %q; want this process (host:pid)", f[1].Holder)
	}
	if bd, err := db.TaskDetail(ctx, "etl", "index"); err != nil || bd.State != core.Blocked || bd.Root != "fetch" || bd.Reason != "blocked by fetch" {
		t.Errorf("index: %+v, %v; want BLOCKED by fetch", bd, err)
	}

	// Redriven, it succeeds with a result: the failures of its first life
	// stay, marked by its redrives.
	if err := q.Redrive(ctx, "fetch"); err != nil {
		t.Fatal(err)
	}
	l, _ = next(t, q)
	if err := db.SetResult(ctx, durable.Lease{DAG: "etl", Lease: l}, []byte(`"ok"`)); err != nil {
		t.Fatal(err)
	}
	if err := q.Complete(ctx, l); err != nil {
		t.Fatal(err)
	}
	td = detail()
	if td.State != core.Succeeded || td.Attempts != 1 || td.Redrives != 1 || string(td.Result) != `"ok"` || td.Reason != "" ||
		td.Finished.IsZero() || len(td.Failures) != 3 || td.Failures[2].Redrives != 0 || td.Lease != nil {
		t.Errorf("SUCCEEDED after a redrive: %+v", td)
	}

	for _, name := range []string{"schema", "nope"} {
		if _, err := db.TaskDetail(ctx, "etl", name); !errors.Is(err, durable.ErrNoTask) {
			t.Errorf("TaskDetail of %q: %v; want ErrNoTask", name, err)
		}
	}
	if _, err := db.TaskDetail(ctx, "nope", "fetch"); !errors.Is(err, durable.ErrNoTask) {
		t.Errorf("TaskDetail in a DAG that does not exist: %v; want ErrNoTask", err)
	}
}

// TestTaskDetailKeepsTheLastAttempts: a poison pill that fails again and
// again keeps its latest 20 failures, not all of them; the DAG's deletion
// takes them.
func TestTaskDetailKeepsTheLastAttempts(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	q := openQueue(t, db, core.Config{MaxAttempts: 50})
	if err := q.Submit(bg, "pill"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 45; i++ {
		l, ok := next(t, q)
		if !ok {
			t.Fatalf("attempt %d: nothing READY", i)
		}
		if _, err := q.Fail(bg, l, fmt.Errorf("crash %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	td, err := db.TaskDetail(bg, q.DAG(), "pill")
	if err != nil {
		t.Fatal(err)
	}
	if len(td.Failures) != 20 || td.Failures[0].Attempt != 26 || td.Failures[19].Error != "crash 45" {
		t.Fatalf("%d failures kept, from attempt %d; want the last 20, 26 to 45", len(td.Failures), td.Failures[0].Attempt)
	}
	var n int
	if err := db.Pool().QueryRow(bg, "SELECT count(*) FROM dagq_attempts WHERE dag = $1", q.DAG()).Scan(&n); err != nil || n != 20 {
		t.Fatalf("dagq_attempts holds %d rows of the DAG (%v); want 20", n, err)
	}
	if _, err := db.DeleteDAG(bg, q.DAG()); err != nil {
		t.Fatal(err)
	}
	if err := db.Pool().QueryRow(bg, "SELECT count(*) FROM dagq_attempts WHERE dag = $1", q.DAG()).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after DeleteDAG, dagq_attempts holds %d rows of it (%v)", n, err)
	}
}

// TestStatementsPerHandoutAndComplete: recording who holds a lease costs
// the hand-out no statement (one for a batch), and a completion stays one
// call; only a failure writes its attempt.
func TestStatementsPerHandoutAndComplete(t *testing.T) {
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	q := openQueue(t, db, core.Config{MaxAttempts: 2})
	for _, s := range []string{"a", "b", "c", "d"} {
		if err := q.Submit(bg, s); err != nil {
			t.Fatal(err)
		}
	}
	c.n.Store(0)
	ls, err := db.NextBatch(bg, 4)
	if err != nil || len(ls) != 4 {
		t.Fatalf("NextBatch: %v, %v", ls, err)
	}
	if n := c.n.Load(); n != 1 {
		t.Errorf("a hand-out of 4 took %d statements, want 1", n)
	}
	c.n.Store(0)
	if err := db.Complete(bg, ls[0]); err != nil {
		t.Fatal(err)
	}
	if n := c.n.Load(); n != 1 {
		t.Errorf("a completion took %d statements, want 1", n)
	}
	var failed atomic.Int64
	c.n.Store(0)
	if _, err := db.Fail(bg, ls[3], errors.New("x")); err != nil {
		t.Fatal(err)
	}
	failed.Store(c.n.Load())
	t.Logf("a failure took %d statements, its attempt's record included", failed.Load())
}

// TestStatementsOfTheOperatorReads counts the round trips of TaskDetail
// and ExportScript, BEGIN and COMMIT included: a constant, whatever the
// size of the DAG (4 and 6).
func TestStatementsOfTheOperatorReads(t *testing.T) {
	t.Parallel()
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c, VirtualClock: true})
	for _, n := range []int{10, 300} {
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		tasks := []durable.NewTask{{Name: "root"}}
		for i := 1; i < n; i++ {
			tasks = append(tasks, durable.NewTask{Name: fmt.Sprint("t", i), Deps: []string{"root", fmt.Sprint("t", i-1)}})
		}
		if err := q.SubmitAll(bg, tasks); err != nil {
			t.Fatal(err)
		}
		l, _ := next(t, q)
		if _, err := q.Fail(bg, l, errors.New("x")); err != nil {
			t.Fatal(err)
		}
		c.n.Store(0)
		if _, err := db.TaskDetail(bg, q.DAG(), "root"); err != nil {
			t.Fatal(err)
		}
		if got := c.n.Load(); got != 4 {
			t.Errorf("n=%d: TaskDetail took %d statements, want 4", n, got)
		}
		c.n.Store(0)
		if _, err := db.ExportScript(bg, q.DAG()); err != nil {
			t.Fatal(err)
		}
		if got := c.n.Load(); got != 6 {
			t.Errorf("n=%d: ExportScript took %d statements, want 6", n, got)
		}
	}
}
