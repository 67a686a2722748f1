package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/durable/durabletest"
)

// replay runs an exported script on core's queue, as wq run does, and
// returns the queue it leaves.
func replay(t *testing.T, script string) *core.Queue {
	t.Helper()
	s, err := scenario.Parse(script)
	if err != nil {
		t.Fatalf("the exported script does not parse: %v\n%s", err, script)
	}
	r, err := scenario.NewRunner(s, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Commands {
		if st := r.Exec(c); !st.OK {
			t.Errorf("line %d, %s: refused: %s", c.Line, c, st.Err)
		}
	}
	return r.Queue()
}

// sameAsDB compares the replay of an exported script with the DAG as the
// database holds it: every task's state, the dead-letter queue entry by
// entry (task, state, reason, root, poisoned, blast radius) and grouped
// (fingerprints, tasks, blast radii, poisoned), the READY line, and
// whether a redrive is under way. rename maps names the script had to
// rename.
func sameAsDB(t *testing.T, q *durable.Queue, mem *core.Queue, rename map[string]string) {
	t.Helper()
	name := func(n string) string {
		if r, ok := rename[n]; ok {
			return r
		}
		return n
	}
	// A line cannot hold a # or a line break: the script writes them as ＃
	// and a space, and says so.
	text := strings.NewReplacer("#", "＃", "\n", " ").Replace
	states, err := q.States(bg)
	if err != nil {
		t.Fatal(err)
	}
	for task, want := range states {
		if got, _ := mem.Status(name(task)); got != want {
			t.Errorf("%s: %s in the replay, %s in the database", task, got, want)
		}
	}
	if mem.Len() != len(states) {
		t.Errorf("the replay has %d tasks, the database %d", mem.Len(), len(states))
	}
	type entry struct {
		Task, Reason, Root string
		State              core.State
		Poisoned           bool
		Blast              int
	}
	var want, got []entry
	for _, d := range deadLetters(t, q) {
		reason := text(d.Reason)
		if d.Root != "" {
			reason = "blocked by " + name(d.Root)
		}
		want = append(want, entry{name(d.Task), reason, name(d.Root), d.State, d.Poisoned, d.BlastRadius})
	}
	for _, d := range mem.DeadLetters() {
		got = append(got, entry{d.Task, d.Reason, d.Root, d.State, d.Poisoned, d.BlastRadius})
	}
	if !slices.Equal(got, want) {
		t.Errorf("the dead-letter queue:\nreplay   %+v\ndatabase %+v", got, want)
	}
	type group struct {
		Fingerprint     string
		Tasks, Poisoned string
		Count, Blast    int
	}
	var wantG, gotG []group
	for _, g := range deadLetterGroups(t, q) {
		var tasks []string
		for _, n := range g.Tasks {
			tasks = append(tasks, name(n))
		}
		wantG = append(wantG, group{text(g.Fingerprint), strings.Join(tasks, " "), strings.Join(g.Poisoned, " "), g.Count, g.BlastRadius})
	}
	for _, g := range mem.DeadLetterGroups() {
		gotG = append(gotG, group{g.Fingerprint, strings.Join(g.Tasks, " "), strings.Join(g.Poisoned, " "), g.Count, g.BlastRadius})
	}
	if !slices.Equal(gotG, wantG) {
		t.Errorf("the dead-letter groups:\nreplay   %+v\ndatabase %+v", gotG, wantG)
	}
	var line []string
	for _, n := range readyTasks(t, q) {
		line = append(line, name(n))
	}
	if got := mem.ReadyTasks(); !slices.Equal(got, line) {
		t.Errorf("the READY line: %v in the replay, %v in the database", got, line)
	}
	_, running := redriving(t, q)
	if (mem.Stats().Redrive != nil) != running {
		t.Errorf("a redrive under way: %v in the replay, %v in the database", mem.Stats().Redrive != nil, running)
	}
}

// TestExportScriptRebuildsEveryKindOfTask exports a DAG with a task in
// every state and every way there to be — succeeded after a retry, dead
// after its attempts and of a permanent error, poisoned, blocked under two
// dead roots, READY after a retry and fresh, RUNNING at its second
// attempt, DELAYED in its backoff, PENDING on a RUNNING task and on a name
// never submitted, a name the language cannot write — and replays the
// script in core's queue: states, reasons, roots, the DLQ and its groups,
// the READY line equal the database's, and the script says so.
func TestExportScriptRebuildsEveryKindOfTask(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	q := openQueue(t, db, core.Config{MaxAttempts: 3, PoisonAfter: 1,
		Backoff: core.Backoff{Base: time.Second, Factor: 2, Max: time.Minute},
		Alert:   core.Alert{Entries: 3, Window: time.Hour}})
	submit := func(task string, deps ...string) {
		t.Helper()
		if err := q.Submit(bg, task, deps...); err != nil {
			t.Fatal(err)
		}
	}
	// run hands out the front task, which must be task, and settles it.
	run := func(task string, err error) core.State {
		t.Helper()
		l, ok := next(t, q)
		if !ok || l.Task != task {
			t.Fatalf("next: %q, %v; want %s", l.Task, ok, task)
		}
		if err == nil {
			if err := q.Complete(bg, l); err != nil {
				t.Fatal(err)
			}
			return core.Succeeded
		}
		st, ferr := q.Fail(bg, l, err)
		if ferr != nil {
			t.Fatal(ferr)
		}
		if st == core.Delayed {
			if err := q.Advance(bg, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		return st
	}
	submit("extract")
	submit("transform", "extract")
	submit("load", "transform", "dims")
	submit("dims")
	submit("report", "load")
	submit("audit", "transform", "dims")
	run("extract", errors.New("HTTP 503 from 10.0.0.7")) // the line: dims, extract
	run("dims", core.Permanent(errors.New("bad schema #4\nline 2")))
	run("extract", nil)
	run("transform", errors.New("timeout after 30s"))
	run("transform", errors.New("timeout after 31s"))
	run("transform", errors.New("timeout after 32s")) // DEAD: load, report blocked by it
	submit("pill")
	run("pill", core.Permanent(errors.New("segfault")))
	if err := q.Redrive(bg, "pill"); err != nil {
		t.Fatal(err)
	}
	run("pill", core.Permanent(errors.New("segfault"))) // poisoned
	submit("fresh")
	submit("retried")
	submit("held")
	submit("waiting", "held", "never")
	submit("delayed")
	submit("odd name #1")
	run("fresh", errors.New("flaky")) // fresh: back of the line, after its backoff
	run("retried", errors.New("flaky"))
	// The line: held, delayed, odd name #1, fresh, retried.
	if st := run("held", errors.New("flaky")); st != core.Delayed {
		t.Fatalf("held: %s", st)
	}
	run("delayed", errors.New("no disk"))
	if err := q.Advance(bg, time.Minute); err != nil {
		t.Fatal(err)
	}
	// The line: odd name #1, fresh, retried, held, delayed.
	for _, want := range []string{"odd name #1", "fresh", "retried"} {
		l, _ := next(t, q)
		if l.Task != want {
			t.Fatalf("next: %s, want %s", l.Task, want)
		}
		if want == "odd name #1" {
			if err := q.Complete(bg, l); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := q.Fail(bg, l, errors.New("flaky again")); err != nil {
			t.Fatal(err)
		}
	}
	if l, _ := next(t, q); l.Task != "held" {
		t.Fatalf("next: %s, want held", l.Task)
	}
	l, _ := next(t, q)
	if st, err := q.Fail(bg, l, errors.New("no disk again")); err != nil || st != core.Delayed {
		t.Fatalf("delayed: %s, %v", st, err)
	}
	if err := q.Advance(bg, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	submit("late")

	script, err := db.ExportScript(bg, q.DAG())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("the script:\n%s", script)
		}
	}()
	mem := replay(t, script)
	sameAsDB(t, q, mem, map[string]string{"odd name #1": scriptNameOf(t, script, "odd name #1")})
	if !strings.Contains(script, "# Replayed, it stands where the database does") {
		t.Errorf("the script does not say that it stands as the database does")
	}
	for _, want := range []string{
		"attempts 3\nbackoff 1s 2 1m\npoison 1\nalert 3 1h\n",
		"fail transform timeout after 32s\n",
		"fail! dims bad schema ＃4 line 2\n",
		"fail extract HTTP 503 from 10.0.0.7\n",
		`"bad schema #4\nline 2"`, // the note of what it changed
		"never submitted, so left out: never",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("the script lacks %q", want)
		}
	}
	// Its attempts: every task is at the attempt the database counts.
	tasks, _, err := q.Tasks(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range tasks {
		td, err := db.TaskDetail(bg, q.DAG(), tv.Name)
		if err != nil {
			t.Fatal(err)
		}
		info, _ := mem.Info(scriptNameOf(t, script, tv.Name))
		if info.Attempts != td.Attempts {
			t.Errorf("%s: %d attempts in the replay, %d in the database", tv.Name, info.Attempts, td.Attempts)
		}
	}
}

// scriptNameOf is the name the script gives a task: its own, or the one
// the header says it is written as.
func scriptNameOf(t *testing.T, script, name string) string {
	t.Helper()
	key := fmt.Sprintf("%q is written ", name)
	i := strings.Index(script, key)
	if i < 0 {
		return name
	}
	rest := script[i+len(key):]
	return rest[:strings.IndexAny(rest, ", \n")]
}

// TestExportScriptOfNoDAG: a DAG that does not exist is an error.
func TestExportScriptOfNoDAG(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	if _, err := db.ExportScript(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), "no DAG") {
		t.Errorf("ExportScript of no DAG: %v", err)
	}
}

// TestExportScriptRoundTripUnderWorkers builds an outage with workers
// really running on the database's clock — downloads that succeed after a
// failure, API calls that die after their attempts, parses that die of a
// permanent error, their aggregates and the report blocked downstream, a
// poison pill — then, with a backoff of an hour, retries left pending;
// then, the workers stopped, a task held, one READY, and a redrive of the
// HTTP 503 deaths at one an hour in flight. The exported script, replayed
// in core's queue, has the database's states, reasons, roots, DLQ and
// groups, READY line, and a redrive under way; and says that it has.
func TestExportScriptRoundTripUnderWorkers(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	cfg := core.Config{MaxAttempts: 3, PoisonAfter: 1,
		Backoff: core.Backoff{Base: 5 * time.Millisecond, Factor: 2, Max: 20 * time.Millisecond},
		Alert:   core.Alert{Entries: 4, Window: time.Hour}}
	q, err := db.Queue(bg, "outage", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var tasks []durable.NewTask
	add := func(name string, deps ...string) { tasks = append(tasks, durable.NewTask{Name: name, Deps: deps}) }
	for i := range 6 {
		add(fmt.Sprint("fetch-", i))
	}
	var report []string
	for i := range 4 {
		add(fmt.Sprint("api-", i))
		add(fmt.Sprint("agg-", i), fmt.Sprint("fetch-", i), fmt.Sprint("api-", i))
		report = append(report, fmt.Sprint("agg-", i))
	}
	for i := range 3 {
		add(fmt.Sprint("parse-", i))
		add(fmt.Sprint("sum-", i), fmt.Sprint("fetch-", i+3), fmt.Sprint("parse-", i))
		report = append(report, fmt.Sprint("sum-", i))
	}
	add("report", report...)
	for i := range 5 {
		add(fmt.Sprint("ok-", i))
	}
	add("pill")
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Fatal(err)
	}
	var recovered atomic.Bool // the API answers again
	handler := func(ctx context.Context, task durable.Task) error {
		name := task.Name
		switch {
		case recovered.Load() && strings.HasPrefix(name, "api-"):
			return nil
		case strings.HasPrefix(name, "fetch-") && task.Attempt == 1:
			return fmt.Errorf("HTTP 502 from cdn-%s", name[len("fetch-"):])
		case strings.HasPrefix(name, "api-"):
			return fmt.Errorf("HTTP 503 from %s.example.com", name)
		case strings.HasPrefix(name, "parse-"):
			return core.Permanent(fmt.Errorf("bad input in row 1%s", name[len("parse-"):]))
		case name == "pill":
			return core.Permanent(errors.New("segfault"))
		case strings.HasPrefix(name, "flaky-") && task.Attempt == 1:
			return errors.New("connection reset by peer")
		}
		return nil
	}
	work := func(until func(map[string]core.State) bool) {
		t.Helper()
		w := durable.NewWorker(db, handler, durable.WorkerOptions{Workers: 4, Poll: 20 * time.Millisecond, ID: "worker-1", OnError: quiet(t)})
		stop := startWorker(t, w)
		waitFor(t, "the workers done", func() bool {
			states, err := q.States(bg)
			if err != nil {
				t.Fatal(err)
			}
			return until(states)
		})
		stop()
	}
	settled := func(states map[string]core.State) bool {
		for _, s := range states {
			if s != core.Succeeded && s != core.Dead && s != core.Blocked {
				return false
			}
		}
		return true
	}
	work(settled)
	if err := q.Redrive(bg, "pill"); err != nil {
		t.Fatal(err)
	}
	work(settled)
	if dl := deadLetters(t, q); len(dl) == 0 || !dl[len(dl)-1].Poisoned {
		t.Fatalf("the pill is not poisoned: %+v", dl)
	}

	// Retries pending: an hour's backoff now.
	cfg.Backoff = core.Backoff{Base: time.Hour, Factor: 2, Max: 4 * time.Hour}
	if err := db.Configure(bg, "outage", cfg); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := q.Submit(bg, fmt.Sprint("flaky-", i)); err != nil {
			t.Fatal(err)
		}
	}
	work(func(states map[string]core.State) bool {
		return states["flaky-0"] == core.Delayed && states["flaky-1"] == core.Delayed && states["flaky-2"] == core.Delayed
	})

	// The workers stopped: a task held by this process, one READY, and
	// the redrive of the HTTP 503 deaths at one an hour.
	if err := q.Submit(bg, "held"); err != nil {
		t.Fatal(err)
	}
	if l, _ := next(t, q); l.Task != "held" {
		t.Fatalf("next: %q, want held", l.Task)
	}
	if err := q.Submit(bg, "fresh", "held"); err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(bg, "waiting", "fresh"); err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(bg, "ready"); err != nil {
		t.Fatal(err)
	}
	job, err := q.RedriveMatching(bg, core.Selector{Contains: "HTTP 503"}, core.Rate{N: 1, Per: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if job.Done != 1 || job.Finished || len(job.Tasks) != 4 {
		t.Fatalf("the redrive: %+v", job)
	}

	script, err := db.ExportScript(bg, "outage")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("the script:\n%s", script)
		}
	}()
	mem := replay(t, script)
	sameAsDB(t, q, mem, nil)
	if !strings.Contains(script, "# Replayed, it stands where the database does") {
		t.Errorf("the script does not say that it stands as the database does")
	}
	if r := mem.Stats().Redrive; r == nil || r.Rate != (core.Rate{N: 1, Per: time.Hour}) || !slices.Equal(r.Tasks[r.Done:], job.Tasks[job.Done:]) {
		t.Errorf("the replay's redrive: %+v; the database's: %+v", r, job)
	}
	if a, err := q.Alerting(bg); err != nil || a != mem.Stats().Alerting {
		t.Errorf("the alert: %v in the database (%v), %v in the replay", a, err, mem.Stats().Alerting)
	}
	if t.Failed() {
		return
	}

	// The API answers again: the workers run the redriven task and the
	// aggregate it freed, while the redrive waits an hour for its next.
	recovered.Store(true)
	first := job.Tasks[0]
	work(func(states map[string]core.State) bool {
		return states[first] == core.Succeeded && states["agg-"+first[len("api-"):]] == core.Succeeded
	})
	script, err = db.ExportScript(bg, "outage")
	if err != nil {
		t.Fatal(err)
	}
	mem = replay(t, script)
	sameAsDB(t, q, mem, nil)
	if !strings.Contains(script, "# Replayed, it stands where the database does") {
		t.Errorf("after the batch ran on, the script does not say that it stands as the database does")
	}
	if r := mem.Stats().Redrive; r == nil || !slices.Equal(r.Tasks[r.Done:], job.Tasks[job.Done:]) {
		t.Errorf("after the batch ran on, the replay's redrive: %+v; the database's: %+v", r, job)
	}
}

// TestExportScriptOfRandomHistories runs random operation sequences on
// random DAGs — submits in any order (names awaited, refused cycles),
// hand-outs, completions, failures (some permanent), heartbeats, the clock
// moving past leases and backoffs — on the virtual clock, exports each DAG
// and replays the script in core's queue. Without redrives the replay must
// stand exactly where the database does. With redrives (single, forced,
// and a redrive at a rate left in flight) the history may not be
// recoverable from the rows; then the script must say so: one that claims
// to stand where the database does must. The seed (exportSeed) is printed
// on failure.
func TestExportScriptOfRandomHistories(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	seed := exportSeed
	rng := rand.New(rand.NewPCG(seed, 7))
	exact, claimed := 0, 0
	const runs = 24
	for run := range runs {
		redrives := run%2 == 1
		cfg := core.Config{MaxAttempts: 1 + rng.IntN(3)}
		if rng.IntN(2) == 0 {
			cfg.LeaseTimeout = 10 * time.Second
		}
		if rng.IntN(2) == 0 {
			cfg.Backoff = core.Backoff{Base: time.Second, Factor: 2, Max: 8 * time.Second}
		}
		if redrives && rng.IntN(2) == 0 {
			cfg.PoisonAfter = 1
		}
		q := openQueue(t, db, cfg)
		h := durabletest.NewHistory(q, rng, 8+rng.IntN(16))
		h.Redrives = redrives
		if err := h.Run(bg, 40+rng.IntN(60)); err != nil {
			t.Fatal(err)
		}
		if redrives && rng.IntN(2) == 0 {
			_, _ = q.RedriveMatching(bg, core.Selector{Contains: "HTTP 503"}, core.Rate{N: 1, Per: time.Hour})
			// Workers go on: hand-outs, completions, failures, a little time.
			for range rng.IntN(8) {
				if err := h.Op(bg, 3+rng.IntN(6)); err != nil {
					t.Fatal(err)
				}
			}
		}
		script, err := db.ExportScript(bg, q.DAG())
		if err != nil {
			t.Fatalf("seed %d, run %d: %v", seed, run, err)
		}
		claims := strings.Contains(script, "# Replayed, it stands where the database does")
		ok := t.Run(fmt.Sprintf("run=%d/redrives=%v", run, redrives), func(t *testing.T) {
			mem := replay(t, script)
			if !redrives || claims {
				sameAsDB(t, q, mem, nil)
			}
			if !redrives && !claims {
				t.Errorf("without redrives the script does not claim to stand where the database does")
			}
			if t.Failed() {
				t.Logf("seed %d, run %d; the script:\n%s", seed, run, script)
			}
		})
		if !ok {
			t.Fatalf("seed %d, run %d failed", seed, run)
		}
		if claims {
			claimed++
			if !redrives {
				exact++
			}
		}
	}
	t.Logf("%d of %d exports claimed to stand where the database does (%d without redrives, all of them)", claimed, runs, exact)
}

// exportSeed is the seed of TestExportScriptOfRandomHistories: fixed, so
// that a run repeats; change it to explore other histories.
const exportSeed uint64 = 20261202

// TestExportScriptGrowsWithTheDAGNotItsSquare exports a DAG of n tasks
// under leases and a backoff, two thirds READY after two failed attempts
// and a third held RUNNING: the held leases must be renewed while the
// clock moves for the backoffs, and the script must stay O(n) lines (the
// READY tasks waiting out their backoffs together, not one after another),
// and replay to the database's state.
func TestExportScriptGrowsWithTheDAGNotItsSquare(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	q := openQueue(t, db, core.Config{MaxAttempts: 4, LeaseTimeout: 4 * time.Second,
		Backoff: core.Backoff{Base: time.Second, Factor: 2, Max: 8 * time.Second}})
	const n = 240
	var tasks []durable.NewTask
	for i := range n {
		tasks = append(tasks, durable.NewTask{Name: fmt.Sprint("t", i)})
	}
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Fatal(err)
	}
	failAll := func(keep int) {
		t.Helper()
		ls, err := q.NextBatch(bg, n)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range ls {
			if i >= len(ls)-keep {
				continue
			}
			if _, err := q.Fail(bg, l, fmt.Errorf("timeout after %ds", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	failAll(0)
	if err := q.Advance(bg, time.Second); err != nil {
		t.Fatal(err)
	}
	failAll(n / 3)
	if err := q.Advance(bg, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	// Half of the READY ones fail a third time and wait 4 s, the others
	// renewing their leases meanwhile.
	ls, err := q.NextBatch(bg, n/3)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range ls {
		if _, err := q.Fail(bg, l, errors.New("timeout")); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range heldLeases(t, q) {
		if _, err := q.Heartbeat(bg, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Advance(bg, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, l := range heldLeases(t, q) {
		if _, err := q.Heartbeat(bg, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Advance(bg, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	script, err := db.ExportScript(bg, q.DAG())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(script, "\n")
	beats := strings.Count(script, "\nheartbeat ")
	t.Logf("%d tasks: %d lines, %d heartbeats", n, lines, beats)
	if beats == 0 {
		t.Errorf("no lease renewed while the clock moved 4 s under leases of 4 s")
	}
	if lines > 12*n {
		t.Errorf("%d lines for %d tasks: more than 12 a task", lines, n)
	}
	sameAsDB(t, q, replay(t, script), nil)
}

// heldLeases returns the current leases of the RUNNING tasks of q.
func heldLeases(t *testing.T, q *durable.Queue) []core.Lease {
	t.Helper()
	states, err := q.States(bg)
	if err != nil {
		t.Fatal(err)
	}
	var out []core.Lease
	for task, st := range states {
		if st != core.Running {
			continue
		}
		l, ok, err := q.Lease(bg, task)
		if err != nil || !ok {
			t.Fatalf("Lease(%s): %v %v", task, ok, err)
		}
		out = append(out, l)
	}
	return out
}

// TestExportScriptOfARedriveWhoseBatchRanOn: a redrive at a rate whose
// last batch a worker has already run is replayed exactly when the batch
// SUCCEEDED (the redrive starts again with it, which then succeeds, and
// what it freed runs on) or died again; when the batch is still RUNNING
// the script starts the redrive with its next batch: the replay stands one
// batch ahead of the database, and says so.
func TestExportScriptOfARedriveWhoseBatchRanOn(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	for _, then := range []string{"succeeds", "dies", "runs"} {
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		for _, task := range []string{"a", "b", "c"} {
			if err := q.Submit(bg, task); err != nil {
				t.Fatal(err)
			}
			l, _ := next(t, q)
			if _, err := q.Fail(bg, l, errors.New("HTTP 503")); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range [][]string{{"after-a", "a"}, {"after-after", "after-a"}, {"after-b", "b"}} {
			if err := q.Submit(bg, s[0], s[1:]...); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := q.RedriveMatching(bg, core.Selector{Contains: "HTTP 503"}, core.Rate{N: 1, Per: time.Hour}); err != nil {
			t.Fatal(err)
		}
		l, _ := next(t, q)
		if l.Task != "a" {
			t.Fatalf("next: %s, want a", l.Task)
		}
		switch then {
		case "succeeds":
			if err := q.Complete(bg, l); err != nil {
				t.Fatal(err)
			}
			l, _ = next(t, q)
			if err := q.Complete(bg, l); err != nil { // after-a
				t.Fatal(err)
			}
		case "dies":
			if _, err := q.Fail(bg, l, errors.New("HTTP 503 again")); err != nil {
				t.Fatal(err)
			}
		}
		script, err := db.ExportScript(bg, q.DAG())
		if err != nil {
			t.Fatal(err)
		}
		mem := replay(t, script)
		if then != "runs" {
			sameAsDB(t, q, mem, nil)
			if !strings.Contains(script, "# Replayed, it stands where the database does") {
				t.Errorf("%s: the script does not say it stands where the database does:\n%s", then, script)
			}
			if r := mem.Stats().Redrive; r == nil || !slices.Equal(r.Tasks[r.Done:], []string{"b", "c"}) {
				t.Errorf("the replay's redrive: %+v, want b and c still to come", r)
			}
			continue
		}
		for task, want := range map[string]core.State{"a": core.Running, "after-a": core.Pending, "b": core.Ready, "c": core.Dead} {
			if got, _ := mem.Status(task); got != want {
				t.Errorf("%s: %s in the replay, want %s", task, got, want)
			}
		}
		if r := mem.Stats().Redrive; r == nil || !slices.Equal(r.Tasks[r.Done:], []string{"c"}) {
			t.Errorf("the replay's redrive: %+v, want c still to come", r)
		}
		for _, want := range []string{"# Replayed, it differs from the database in ", "b is READY in the replay, DEAD in the database",
			"the replay has redriven its next batch, 1 task(s), which the database redrives when that batch falls due"} {
			if !strings.Contains(script, want) {
				t.Errorf("the script does not say %q:\n%s", want, script)
			}
		}
	}
}

// TestExportScriptWritesTheErrorsOfTheCurrentLife: a task that died of
// one error, was redriven by force (its count of redrives starts over)
// and failed again of another is replayed with the error of its current
// life, not of the earlier one with the same attempt number.
func TestExportScriptWritesTheErrorsOfTheCurrentLife(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	q := openQueue(t, db, core.Config{MaxAttempts: 2, PoisonAfter: 1})
	if err := q.Submit(bg, "job"); err != nil {
		t.Fatal(err)
	}
	failWith := func(msg string) {
		t.Helper()
		l, ok := next(t, q)
		if !ok {
			t.Fatal("nothing READY")
		}
		if _, err := q.Fail(bg, l, core.Permanent(errors.New(msg))); err != nil {
			t.Fatal(err)
		}
	}
	failWith("first life")
	if err := q.Redrive(bg, "job"); err != nil {
		t.Fatal(err)
	}
	failWith("second life") // poisoned
	if err := q.ForceRedrive(bg, "job"); err != nil {
		t.Fatal(err)
	}
	l, _ := next(t, q)
	if _, err := q.Fail(bg, l, errors.New("third life")); err != nil {
		t.Fatal(err)
	}
	script, err := db.ExportScript(bg, q.DAG())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(script, "fail job third life\n") || strings.Contains(script, "life\nfail job first") {
		t.Errorf("the script does not fail job with the error of its current life:\n%s", script)
	}
	sameAsDB(t, q, replay(t, script), nil)
}
