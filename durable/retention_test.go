package durable_test

import (
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// rowsOf counts the rows a DAG has in each of the package's tables.
func rowsOf(t *testing.T, db *durable.DB, dag string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"dagq_dags", "dagq_tasks", "dagq_edges", "dagq_expired", "dagq_redrives", "dagq_attempts"} {
		var n int
		if err := db.Pool().QueryRow(bg, "SELECT count(*) FROM "+table+" WHERE dag = $1", dag).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

// TestDeleteDAGTakesEverythingAndFreesTheName: a DAG with tasks, edges and
// an expired lease is deleted whole; made again, it takes the same names.
func TestDeleteDAGTakesEverythingAndFreesTheName(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{}
	db := openDB(t, durable.Options{Clock: clk.clock()})
	cfg := core.Config{MaxAttempts: 2, LeaseTimeout: time.Second}
	q, err := db.Queue(bg, "doomed", cfg)
	if err != nil {
		t.Fatal(err)
	}
	tasks := []durable.NewTask{{Name: "a"}, {Name: "b", Deps: []string{"a"}}, {Name: "c", Deps: []string{"a", "b", "never"}}}
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Fatal(err)
	}
	if _, ok := next(t, q); !ok {
		t.Fatal("nothing handed out")
	}
	clk.Add(2 * time.Second)
	if _, err := db.Tick(bg); err != nil {
		t.Fatal(err)
	}
	before := rowsOf(t, db, "doomed")
	if before["dagq_tasks"] != 4 || before["dagq_edges"] != 4 || before["dagq_expired"] != 1 || before["dagq_attempts"] != 1 {
		t.Fatalf("before: %v", before)
	}
	if ok, err := db.DeleteDAG(bg, "doomed"); err != nil || !ok {
		t.Fatalf("DeleteDAG: %v, %v", ok, err)
	}
	for table, n := range rowsOf(t, db, "doomed") {
		if n != 0 {
			t.Errorf("after DeleteDAG, %s holds %d rows of the DAG", table, n)
		}
	}
	if ok, err := db.DeleteDAG(bg, "doomed"); err != nil || ok {
		t.Errorf("DeleteDAG of a DAG that is gone: %v, %v; want false", ok, err)
	}
	q, err = db.Queue(bg, "doomed", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Errorf("the same tasks again: %v", err)
	}
}

// TestRetentionDeletesFinishedDAGs: under Options.Retention the
// maintenance pass deletes a DAG whose every task has SUCCEEDED, and keeps
// one with a task left and one that awaits a name that never came. Rows
// record when they were created, changed and finished.
func TestRetentionDeletesFinishedDAGs(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{Retention: time.Millisecond})
	run := func(dag string, tasks []durable.NewTask, complete int) {
		q, err := db.Queue(bg, dag, core.Config{MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := q.SubmitAll(bg, tasks); err != nil {
			t.Fatal(err)
		}
		for range complete {
			l, ok := next(t, q)
			if !ok {
				t.Fatalf("%s: nothing to hand out", dag)
			}
			if err := q.Complete(bg, l); err != nil {
				t.Fatal(err)
			}
		}
	}
	run("done", []durable.NewTask{{Name: "a"}, {Name: "b", Deps: []string{"a"}}}, 2)
	run("left", []durable.NewTask{{Name: "a"}, {Name: "b", Deps: []string{"a"}}}, 1)
	run("awaits", []durable.NewTask{{Name: "a"}, {Name: "b", Deps: []string{"a", "late"}}}, 1)
	var created, changed, finished time.Time
	if err := db.Pool().QueryRow(bg, `SELECT created, changed, finished FROM dagq_tasks WHERE dag = 'done' AND name = 'b'`).
		Scan(&created, &changed, &finished); err != nil {
		t.Fatal(err)
	}
	if changed.Before(created) || finished.Before(created) {
		t.Errorf("b was created %v, changed %v, finished %v", created, changed, finished)
	}
	time.Sleep(10 * time.Millisecond)
	if _, err := db.Tick(bg); err != nil {
		t.Fatal(err)
	}
	for dag, want := range map[string]bool{"done": false, "left": true, "awaits": true} {
		if ok, err := db.HasDAG(bg, dag); err != nil || ok != want {
			t.Errorf("after the pass, HasDAG(%s) = %v, %v; want %v", dag, ok, err, want)
		}
	}
}
