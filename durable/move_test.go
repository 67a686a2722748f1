package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// dagRows is every row of a DAG in db, table by table, each as JSON text,
// sorted.
func dagRows(t *testing.T, db *durable.DB, dag string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, table := range []string{"dagq_dags", "dagq_tasks", "dagq_edges", "dagq_expired", "dagq_redrives", "dagq_attempts"} {
		rows, err := db.Pool().Query(bg, "SELECT row_to_json(r)::text FROM "+table+" r WHERE dag = $1", dag)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(out[table])
	}
	return out
}

// TestMoveCopiesEveryRowAsItStands moves a DAG with a task in every state
// from the directory to another shard, one of them RUNNING under a lease a
// client holds: the move pauses the DAG (nothing of it is handed out) and
// waits for that task, whose completion the old database takes; then the
// new database holds exactly the rows the old one held (but the pause), the
// old one none, and the DAG goes on there — the finished lease is refused,
// a new submit lands behind the copied READY line.
func TestMoveCopiesEveryRowAsItStands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := []*durable.DB{openDB(t, durable.Options{}), openDB(t, durable.Options{})}
	s, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	// A DAG that the hash puts in shard 0.
	dag := ""
	for i := 0; dag == ""; i++ {
		if d := fmt.Sprintf("etl-%d", i); s.Shard(d) == 0 {
			dag = d
		}
	}
	q, err := s.Queue(ctx, dag, core.Config{MaxAttempts: 3, LeaseTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range [][]string{{"a"}, {"c"}, {"e"}, {"b", "a"}, {"d", "c"}, {"f", "missing"}} {
		if err := q.Submit(ctx, sub[0], sub[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	next := func(want string) core.Lease {
		t.Helper()
		l, ok, err := q.Next(ctx)
		if err != nil || !ok || l.Task != want {
			t.Fatalf("Next: %v %v %v, want %s", l, ok, err, want)
		}
		return l
	}
	if err := q.Complete(ctx, next("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Fail(ctx, next("c"), core.Permanent(errors.New("malformed"))); err != nil {
		t.Fatal(err)
	}
	held := durable.Lease{DAG: dag, Lease: next("e")}
	// Another process's Sharded, which has found the DAG in shard 0.
	other, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	if i, err := other.Locate(ctx, dag); err != nil || i != 0 {
		t.Fatalf("%s is located in %d (%v), want 0", dag, i, err)
	}
	want := map[string]core.State{"a": core.Succeeded, "b": core.Ready, "c": core.Dead, "d": core.Blocked, "e": core.Running, "f": core.Pending}
	if states, err := q.States(ctx); err != nil || !maps(states, want) {
		t.Fatalf("before the move: %v (%v), want %v", states, err, want)
	}

	if err := s.Move(ctx, dag, 5); err == nil {
		t.Error("a move to shard 5 of 2 was accepted")
	}
	if err := s.Move(ctx, "never-opened", 1); err == nil {
		t.Error("a move of a DAG never opened was accepted")
	} else {
		t.Log(err)
	}
	var placed int
	if err := dbs[0].Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_placement WHERE dag = 'never-opened'").Scan(&placed); err != nil || placed != 0 {
		t.Errorf("the refused move recorded %d placements (%v)", placed, err)
	}

	// The DAG's lock, held here, keeps the move from copying until the
	// rows it should copy have been read.
	lock, err := dbs[0].Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Rollback(ctx) }()
	if _, err := lock.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", dag); err != nil {
		t.Fatal(err)
	}
	moved := make(chan error, 1)
	go func() { moved <- s.Move(ctx, dag, 1) }()
	waitFor(t, "the move to pause the DAG", func() bool {
		var paused bool
		if err := dbs[0].Pool().QueryRow(ctx, "SELECT paused FROM dagq_dags WHERE dag = $1", dag).Scan(&paused); err != nil {
			t.Fatal(err)
		}
		return paused
	})
	if ls, err := dbs[0].NextBatch(ctx, 10); err != nil || len(ls) != 0 {
		t.Fatalf("a paused DAG handed out %v (%v), want nothing: b is READY", ls, err)
	}
	select {
	case err := <-moved:
		t.Fatalf("the move returned (%v) while e was RUNNING", err)
	default:
	}
	if err := dbs[0].Complete(ctx, held); err != nil {
		t.Fatalf("the old database refused the completion of a task RUNNING as the move began: %v", err)
	}
	before := dagRows(t, dbs[0], dag)
	if err := lock.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	if i, err := s.Locate(ctx, dag); err != nil || i != 1 {
		t.Fatalf("after the move %s is located in %d (%v), want 1", dag, i, err)
	}
	after := dagRows(t, dbs[1], dag)
	if len(after["dagq_dags"]) != 1 || !strings.Contains(after["dagq_dags"][0], `"paused":false`) {
		t.Errorf("the moved DAG's row is %v, want it resumed", after["dagq_dags"])
	}
	// The pause is the one thing the move changed: paused, and when the row
	// changed.
	unpaused := regexp.MustCompile(`"(paused|changed)":[^,}]*`)
	for _, rows := range []map[string][]string{before, after} {
		for i, r := range rows["dagq_dags"] {
			rows["dagq_dags"][i] = unpaused.ReplaceAllString(r, "")
		}
	}
	for table, rows := range before {
		if !slices.Equal(rows, after[table]) {
			t.Errorf("%s: the new database holds\n%v\nthe old one held\n%v", table, after[table], rows)
		}
	}
	if len(before["dagq_tasks"]) != 7 || len(before["dagq_edges"]) != 3 {
		t.Errorf("the DAG had %d task rows and %d edges, want 7 and 3: the test shows little", len(before["dagq_tasks"]), len(before["dagq_edges"]))
	}
	for table, rows := range dagRows(t, dbs[0], dag) {
		if len(rows) > 0 {
			t.Errorf("the old database still holds %d rows of %s", len(rows), table)
		}
	}
	if err := s.Move(ctx, dag, 1); err != nil {
		t.Errorf("a move to where the DAG is: %v", err)
	}

	// The DAG goes on in its new shard, where e is done.
	if err := dbs[0].Complete(ctx, held); err == nil {
		t.Error("the old database accepted a completion of the moved DAG")
	}
	if err := other.Complete(ctx, held); !errors.Is(err, core.ErrNotRunning) {
		t.Errorf("the finished lease, completed again by a Sharded that cached the old shard: %v, want ErrNotRunning", err)
	}
	q, err = s.Queue(ctx, dag, core.Config{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(ctx, durable.TaskRef{DAG: dag, Name: "g"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Submit(ctx, durable.TaskRef{DAG: dag, Name: "a"}); !errors.Is(err, core.ErrDuplicate) {
		t.Errorf("a submitted again after the move: %v, want ErrDuplicate", err)
	}
	next("b") // copied READY before g, still ahead of it
	next("g")
	if ok, err := dbs[0].HasDAG(ctx, dag); err != nil || ok {
		t.Errorf("the old database has the DAG again (%v)", err)
	}
}

// maps reports whether two state maps are equal.
func maps(a, b map[string]core.State) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestMoveUnderRunningWorkers adds a third database to a sharded queue and
// moves DAGs to it (and one of them on to the directory) while workers run
// on every database: every task of every DAG ends SUCCEEDED, each DAG lives
// in exactly one database, the one its placement names, and every handler
// ran once: a move waits for the DAG's RUNNING tasks, so none runs again.
// Tasks submitted after the moves, through the Sharded that moved them and
// through one made before (which refuses a DAG in a shard it was not
// given), land in the DAG where it lives.
func TestMoveUnderRunningWorkers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := []*durable.DB{openDB(t, durable.Options{}), openDB(t, durable.Options{}), openDB(t, durable.Options{})}
	old, err := durable.NewSharded(dbs[:2]...)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	runs := map[string]int{}
	handler := func(ctx context.Context, task durable.Task) error {
		mu.Lock()
		runs[task.DAG+"/"+task.Name]++
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		return nil
	}
	for _, db := range dbs {
		startWorker(t, durable.NewWorker(db, handler, durable.WorkerOptions{Workers: 3, Poll: 50 * time.Millisecond, OnError: quiet(t)}))
	}

	const nDAGs, n = 8, 60
	cfg := core.Config{MaxAttempts: 5, LeaseTimeout: 2 * time.Second}
	rng := rand.New(rand.NewPCG(rand.Uint64(), 0))
	var names []string
	for d := range nDAGs {
		dag := fmt.Sprintf("move-%d", d)
		names = append(names, dag)
		q, err := old.Queue(ctx, dag, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tasks := make([]durable.NewTask, n)
		for i := range tasks {
			// A chain with side branches: the DAG is still running when
			// it moves.
			tasks[i].Name = fmt.Sprintf("t%d", i)
			if i > 0 {
				tasks[i].Deps = []string{fmt.Sprintf("t%d", i-1)}
				if rng.IntN(2) == 0 {
					tasks[i].Deps = append(tasks[i].Deps, fmt.Sprintf("t%d", rng.IntN(i)))
				}
			}
		}
		if err := q.SubmitAll(ctx, tasks); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "some tasks done", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(runs) >= nDAGs*5
	})

	s, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	home := map[string]int{}
	from := map[int]int{}
	for i, dag := range names {
		was, err := s.Locate(ctx, dag)
		if err != nil {
			t.Fatal(err)
		}
		home[dag] = was
		if i%2 == 1 {
			if err := s.Move(ctx, dag, 2); err != nil {
				t.Fatal(err)
			}
			from[was]++
			home[dag] = 2
		}
	}
	// One on to the directory, from the new shard.
	if err := s.Move(ctx, names[1], 0); err != nil {
		t.Fatal(err)
	}
	home[names[1]] = 0
	t.Logf("moved %d DAGs from shard 0 and %d from shard 1 to shard 2, then %s to shard 0", from[0], from[1], names[1])
	if from[0] == 0 || from[1] == 0 {
		t.Logf("the moves did not take DAGs from both shards")
	}

	// More tasks, through the new Sharded and through the one from before,
	// which cannot reach the new shard: it refuses, and creates nothing.
	for i, dag := range names {
		via := []*durable.Sharded{s, old}[i%2]
		if via == old && home[dag] == 2 {
			if _, err := old.Queue(ctx, dag, cfg); err == nil {
				t.Errorf("a Sharded without the new shard opened %s, which lives there", dag)
			}
			via = s
		}
		if _, err := via.Queue(ctx, dag, cfg); err != nil {
			t.Fatal(err)
		}
		if err := via.Submit(ctx, durable.TaskRef{DAG: dag, Name: "late"}, durable.TaskRef{DAG: dag, Name: "t0"}); err != nil {
			t.Fatalf("a late task for %s: %v", dag, err)
		}
	}

	for _, dag := range names {
		q, err := s.Queue(ctx, dag, cfg)
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, dag+" done", func() bool {
			states, ok := settledStates(t, q)
			return ok && len(states) == n+1
		})
		states, _ := settledStates(t, q)
		for name, st := range states {
			if st != core.Succeeded {
				t.Errorf("%s/%s is %s, want SUCCEEDED", dag, name, st)
			}
		}
		for i, db := range dbs {
			var dagsHere, tasksHere int
			if err := db.Pool().QueryRow(ctx, "SELECT (SELECT count(*) FROM dagq_dags WHERE dag = $1), (SELECT count(*) FROM dagq_tasks WHERE dag = $1)", dag).Scan(&dagsHere, &tasksHere); err != nil {
				t.Fatal(err)
			}
			if i == home[dag] && (dagsHere != 1 || tasksHere != n+1) {
				t.Errorf("%s: its shard %d holds %d rows and %d tasks of it, want 1 and %d", dag, i, dagsHere, tasksHere, n+1)
			}
			if i != home[dag] && dagsHere+tasksHere != 0 {
				t.Errorf("%s lives in shard %d, but shard %d holds %d rows and %d tasks of it", dag, home[dag], i, dagsHere, tasksHere)
			}
		}
		// Every handler run is an attempt the database counted.
		rows, err := dbs[home[dag]].Pool().Query(ctx, "SELECT name, attempts FROM dagq_tasks WHERE dag = $1", dag)
		if err != nil {
			t.Fatal(err)
		}
		var name string
		var attempts int
		again := 0
		mu.Lock()
		for rows.Next() {
			if err := rows.Scan(&name, &attempts); err != nil {
				t.Fatal(err)
			}
			if r := runs[dag+"/"+name]; r != attempts {
				t.Errorf("%s/%s: its handler ran %d times, and the database counts %d attempts", dag, name, r, attempts)
			}
			if attempts > 1 {
				again++
			}
		}
		mu.Unlock()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if again > 0 {
			t.Errorf("%s: %d tasks ran again", dag, again)
		}
	}
}

// TestMoveThatCannotDrainMovesNothing: a move waits for a RUNNING task
// whose client never settles it only as long as its context allows, then
// gives up: nothing moved, the DAG resumed where it is. A pause left by a
// move that died is lifted by Repair.
func TestMoveThatCannotDrainMovesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := []*durable.DB{openDB(t, durable.Options{}), openDB(t, durable.Options{})}
	s, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	dag := ""
	for i := 0; dag == ""; i++ {
		if d := fmt.Sprintf("stuck-%d", i); s.Shard(d) == 0 {
			dag = d
		}
	}
	q, err := s.Queue(ctx, dag, core.Config{MaxAttempts: 3, LeaseTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(ctx, []durable.NewTask{{Name: "x"}, {Name: "y"}}); err != nil {
		t.Fatal(err)
	}
	if l, ok, err := q.Next(ctx); err != nil || !ok || l.Task != "x" {
		t.Fatalf("Next: %v %v %v", l, ok, err)
	}
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	err = s.Move(short, dag, 1)
	if err == nil || !strings.Contains(err.Error(), "1 tasks still RUNNING") {
		t.Fatalf("a move of a DAG whose task stays RUNNING: %v, want an error that says so", err)
	}
	t.Log(err)
	paused := func() bool {
		var p bool
		if err := dbs[0].Pool().QueryRow(ctx, "SELECT paused FROM dagq_dags WHERE dag = $1", dag).Scan(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if i, err := s.Locate(ctx, dag); err != nil || i != 0 || paused() {
		t.Fatalf("after the refused move: shard %d (%v), paused %v; want shard 0, resumed", i, err, paused())
	}
	if ok, err := dbs[1].HasDAG(ctx, dag); err != nil || ok {
		t.Errorf("the refused move left a copy in shard 1 (%v)", err)
	}
	if ls, err := dbs[0].NextBatch(ctx, 10); err != nil || len(ls) != 1 || ls[0].Task != "y" {
		t.Errorf("after the refused move NextBatch gave %v (%v), want y", ls, err)
	}

	// A move that died while it waited leaves the DAG paused.
	if _, err := dbs[0].Pool().Exec(ctx, "UPDATE dagq_dags SET paused = true WHERE dag = $1", dag); err != nil {
		t.Fatal(err)
	}
	r, err := s.Repair(ctx, dag)
	if err != nil || !r.Resumed || len(r.Deleted) != 0 || paused() {
		t.Errorf("Repair: %+v (%v), paused %v; want it resumed, nothing deleted", r, err, paused())
	}
	if r, err := s.Repair(ctx, dag); err != nil || r.Resumed || len(r.Deleted) != 0 {
		t.Errorf("Repair with nothing to repair: %+v (%v)", r, err)
	}
}

// TestMoveThatDiesAfterTheCopyRunsNothing looks at what a move leaves at
// its most fragile moment, its copy committed and the old rows not yet
// deleted, where a process that dies leaves both copies: both must be
// paused, so that the workers of neither database hand out a task until
// Repair keeps one; then the finished move resumes the copy.
func TestMoveThatDiesAfterTheCopyRunsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbs := []*durable.DB{openDB(t, durable.Options{}), openDB(t, durable.Options{})}
	s, err := durable.NewSharded(dbs...)
	if err != nil {
		t.Fatal(err)
	}
	dag := ""
	for i := 0; dag == ""; i++ {
		if d := fmt.Sprintf("fragile-%d", i); s.Shard(d) == 0 {
			dag = d
		}
	}
	q, err := s.Queue(ctx, dag, core.Config{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(ctx, []durable.NewTask{{Name: "x"}, {Name: "y"}, {Name: "z", Deps: []string{"x"}}}); err != nil {
		t.Fatal(err)
	}
	paused := func(db *durable.DB) bool {
		var p bool
		if err := db.Pool().QueryRow(ctx, "SELECT paused FROM dagq_dags WHERE dag = $1", dag).Scan(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	seen := false
	defer durable.ObserveMoveCopy(func(d string) {
		if d != dag {
			return
		}
		seen = true
		if !paused(dbs[0]) || !paused(dbs[1]) {
			t.Errorf("with both copies committed: old paused %v, new paused %v; want both paused", paused(dbs[0]), paused(dbs[1]))
		}
		if ls, err := dbs[1].NextBatch(ctx, 10); err != nil || len(ls) != 0 {
			t.Errorf("the new copy handed out %v (%v) before the old one was deleted", ls, err)
		}
	})()
	if err := s.Move(ctx, dag, 1); err != nil {
		t.Fatal(err)
	}
	if !seen {
		t.Fatal("the move never reached its copy")
	}
	if paused(dbs[1]) {
		t.Error("the finished move left its copy paused")
	}
	if ok, err := dbs[0].HasDAG(ctx, dag); err != nil || ok {
		t.Errorf("the old copy is still there (%v)", err)
	}
	ls, err := dbs[1].NextBatch(ctx, 10)
	if err != nil || len(ls) != 2 || ls[0].Task != "x" || ls[1].Task != "y" {
		t.Errorf("after the move NextBatch gave %v (%v), want x and y", ls, err)
	}
}
