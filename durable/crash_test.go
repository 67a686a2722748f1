package durable_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// The crash tests run workers as separate processes: this test binary,
// started again with these variables set, runs a durable.Worker instead of
// the tests (see crashWorker) until SIGTERM, or until it is killed.
const (
	envCrashURL  = "DAGQ_CRASH_WORKER_URL"  // the database: set, the binary is a worker
	envCrashDir  = "DAGQ_CRASH_WORKER_DIR"  // where it keeps its journal
	envCrashHang = "DAGQ_CRASH_WORKER_HANG" // a task whose first attempt hangs, its lease saved
	envCrashWork = "DAGQ_CRASH_WORKER_WORK" // how long each handler works
	envCrashZero = "DAGQ_CRASH_WORKER_ZERO" // set: the zero WorkerOptions but for Workers and OnError
	envCrashSkew = "DAGQ_CRASH_WORKER_SKEW" // how far off the worker's own clock runs
)

func init() {
	if os.Getenv(envCrashURL) != "" {
		os.Exit(crashWorker())
	}
}

// savedLease is what a worker process keeps of the lease it hangs on: its
// pid, to be killed, and the lease, to be replayed.
type savedLease struct {
	PID   int
	Lease durable.Lease
}

// crashWorker is a worker process: 4 handlers on the database of
// envCrashURL, polling every 100 ms; it journals to envCrashDir/PID.log a
// "run DAG TASK ATTEMPT" line when a handler starts and an "ok DAG TASK"
// line when a completion has committed; with envCrashSkew, its own clock is
// that far off, and its first line is "clock NANOS", the time on it.
func crashWorker() int {
	dir := os.Getenv(envCrashDir)
	journal, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(os.Getpid())+".log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	line := func(format string, args ...any) { fmt.Fprintf(journal, format+"\n", args...) }
	if skew, err := time.ParseDuration(os.Getenv(envCrashSkew)); err == nil {
		durable.SkewLocalClock(skew)
		line("clock %d", durable.LocalNow().UnixNano())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	db, err := durable.Open(ctx, os.Getenv(envCrashURL), durable.Options{
		OnEvent: func(dag string, e core.Event) {
			if e.Kind == core.EventSucceeded {
				line("ok %s %s", dag, e.Task)
			}
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	work, _ := time.ParseDuration(os.Getenv(envCrashWork))
	opts := durable.WorkerOptions{Workers: 4, Poll: 100 * time.Millisecond, Grace: 5 * time.Second,
		OnError: func(err error) { fmt.Fprintln(os.Stderr, "worker:", err) }}
	if os.Getenv(envCrashZero) != "" {
		opts = durable.WorkerOptions{Workers: 4, OnError: opts.OnError}
	}
	hang := os.Getenv(envCrashHang)
	w := durable.NewWorker(db, func(ctx context.Context, t durable.Task) error {
		line("run %s %s %d", t.DAG, t.Name, t.Attempt)
		if t.Name == hang && t.Attempt == 1 {
			b, _ := json.Marshal(savedLease{PID: os.Getpid(), Lease: t.Lease})
			tmp := filepath.Join(dir, "lease.tmp")
			os.WriteFile(tmp, b, 0o644)
			os.Rename(tmp, filepath.Join(dir, "lease.json"))
			select {} // until killed
		}
		time.Sleep(work)
		if strings.HasPrefix(t.Name, "poison") {
			return core.Permanent(errors.New("malformed input"))
		}
		return nil
	}, opts)
	if err := w.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// workerProc is a worker process the test started.
type workerProc struct {
	cmd  *exec.Cmd
	done chan error
}

// startWorkerProc starts a worker process on url, journalling in dir; it is
// stopped with SIGTERM (or killed, if it will not stop) when the test ends.
// env are more variables for it.
func startWorkerProc(t *testing.T, url, dir, hang string, work time.Duration, env ...string) *workerProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashURL+"="+url, envCrashDir+"="+dir, envCrashHang+"="+hang, envCrashWork+"="+work.String())
	cmd.Env = append(cmd.Env, env...)
	// What a worker says (the errors it survives: a refused completion,
	// a lost connection) is kept, and shown if the test fails.
	out, err := os.CreateTemp(dir, "*.stderr")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &workerProc{cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		p.stop(t)
		out.Close()
		if t.Failed() {
			b, _ := os.ReadFile(out.Name())
			t.Logf("worker %d said:\n%s", cmd.Process.Pid, b)
		}
	})
	return p
}

// stop asks the worker to shut down gracefully, and kills it if it has not
// within a minute.
func (p *workerProc) stop(t *testing.T) {
	if p.cmd.ProcessState != nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil && !strings.Contains(err.Error(), "killed") {
			t.Errorf("worker %d: %v", p.cmd.Process.Pid, err)
		}
	case <-time.After(time.Minute):
		p.cmd.Process.Kill()
		<-p.done
		t.Errorf("worker %d did not stop within a minute of SIGTERM", p.cmd.Process.Pid)
	}
}

// journal reads every worker's journal in dir: how many times each task's
// handler started, and how many completions of it were committed.
func journal(t *testing.T, dir string) (runs, oks map[string]int) {
	t.Helper()
	runs, oks = map[string]int{}, map[string]int{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 3 {
				continue // a line cut by SIGKILL
			}
			switch fields[0] {
			case "run":
				runs[fields[1]+"/"+fields[2]]++
			case "ok":
				oks[fields[1]+"/"+fields[2]]++
			}
		}
		fh.Close()
	}
	return runs, oks
}

// crashDAG submits a DAG of n tasks to q: each waits on up to two earlier
// tasks, "victim" early on with dependents, and "poison" dies at once.
func crashDAG(t *testing.T, q *durable.Queue, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("t%d", i)
	}
	names[3], names[n/2] = "victim", "poison"
	for i, name := range names {
		var deps []string
		for range rng.IntN(3) {
			if i > 0 {
				deps = append(deps, names[rng.IntN(i)])
			}
		}
		if err := q.Submit(bg, name, deps...); err != nil {
			t.Fatal(err)
		}
	}
}

// crashTask is a task as readDAG finds it: its waiting count as stored and
// as recounted from the edges.
type crashTask struct {
	state, reason, root string
	waiting, recounted  int
}

// readDAG reads a DAG back after a crash test, on a connection of its own
// (the server may have been restarted under a pool).
func readDAG(ctx context.Context, url, dag string) (map[string]crashTask, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT t.name, t.state, t.reason, coalesce(t.root, ''), t.waiting,
			(SELECT count(*) FROM dagq_edges e JOIN dagq_tasks d ON d.dag = e.dag AND d.name = e.dep
			 WHERE e.dag = t.dag AND e.task = t.name AND d.state <> 'SUCCEEDED')
		FROM dagq_tasks t WHERE t.dag = $1 AND t.state <> ''`, dag)
	if err != nil {
		return nil, err
	}
	out := map[string]crashTask{}
	var name string
	var c crashTask
	_, err = pgx.ForEachRow(rows, []any{&name, &c.state, &c.reason, &c.root, &c.waiting, &c.recounted}, func() error {
		out[name] = c
		return nil
	})
	return out, err
}

// waitSettled waits until every task of the DAG is SUCCEEDED, DEAD or
// BLOCKED, reading it afresh each time (errors while the server restarts
// are retried).
func waitSettled(t *testing.T, url, dag string, n int) map[string]crashTask {
	t.Helper()
	deadline := time.Now().Add(3 * patience)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		tasks, err := readDAG(ctx, url, dag)
		cancel()
		settled := err == nil && len(tasks) == n
		for _, c := range tasks {
			if c.state != string(core.Succeeded) && c.state != string(core.Dead) && c.state != string(core.Blocked) {
				settled = false
			}
		}
		if settled {
			return tasks
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the DAG has not settled (last error %v): %v", 3*patience, err, tasks)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkAftermath holds the DAG to what must be true after any crash: every
// task SUCCEEDED or in the DLQ with its reason, none completed twice, and
// every waiting count equal to the one recounted from the edges.
func checkAftermath(t *testing.T, tasks map[string]crashTask, dag, dir string) {
	t.Helper()
	runs, oks := journal(t, dir)
	for name, c := range tasks {
		switch core.State(c.state) {
		case core.Succeeded:
		case core.Dead:
			// Only poison dies, at the first attempt whose handler
			// returned. Attempts before it that a killed worker held
			// count too, as their leases expired: those whose handler
			// started are in the journal, and one a worker was killed
			// before starting may not be.
			var k int
			_, err := fmt.Sscanf(c.reason, "permanent failure after %d attempt", &k)
			started := runs[dag+"/"+name]
			if err != nil || !strings.HasSuffix(c.reason, ": malformed input") || k < started || k > started+1 {
				t.Errorf("%s is DEAD with reason %q, its handler started %d times", name, c.reason, started)
			}
		case core.Blocked:
			if r, ok := tasks[c.root]; !ok || r.state != string(core.Dead) {
				t.Errorf("%s is BLOCKED by %q, which is not DEAD", name, c.root)
			}
		default:
			t.Errorf("%s is %s", name, c.state)
		}
		if c.waiting != c.recounted {
			t.Errorf("%s: waiting is %d, but %d of its dependencies have not succeeded", name, c.waiting, c.recounted)
		}
		if n := oks[dag+"/"+name]; n > 1 {
			t.Errorf("%s was completed %d times", name, n)
		}
	}
	if tasks["poison"].state != string(core.Dead) {
		t.Errorf("poison is %s, want DEAD", tasks["poison"].state)
	}
}

// TestCrashWorkerKilled kills a worker process with SIGKILL while it runs a
// task: the task's lease expires, another worker process takes it, and the
// killed worker's completion, replayed from the lease it saved, is
// refused.
func TestCrashWorkerKilled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.New(t, pgtest.SynchronousCommit)
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 80
	q, err := db.Queue(ctx, "crash", core.Config{MaxAttempts: 3, LeaseTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	crashDAG(t, q, n, seed)

	dir := t.TempDir()
	procs := []*workerProc{
		startWorkerProc(t, url, dir, "victim", 5*time.Millisecond),
		startWorkerProc(t, url, dir, "victim", 5*time.Millisecond),
	}
	var saved savedLease
	waitFor(t, "a worker hanging on victim", func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "lease.json"))
		return err == nil && json.Unmarshal(b, &saved) == nil
	})
	var victim *workerProc
	for _, p := range procs {
		if p.cmd.Process.Pid == saved.PID {
			victim = p
		}
	}
	if victim == nil {
		t.Fatalf("no worker process has pid %d", saved.PID)
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-victim.done
	t.Logf("killed worker %d holding %s@%d (lease %d)", saved.PID, saved.Lease.Task, saved.Lease.Attempt, saved.Lease.ID)

	tasks := waitSettled(t, url, "crash", n)
	checkAftermath(t, tasks, "crash", dir)
	if st := tasks["victim"].state; st != string(core.Succeeded) {
		t.Errorf("victim is %s, want SUCCEEDED by another worker", st)
	}
	runs, _ := journal(t, dir)
	if r := runs["crash/victim"]; r != 2 {
		t.Errorf("victim's handler started %d times, want 2: the killed attempt and the one that took over", r)
	}

	// The killed worker's completion, replayed from its saved lease.
	err = db.Complete(ctx, saved.Lease)
	if !errors.Is(err, core.ErrLeaseExpired) {
		t.Errorf("the late completion got %v, want it refused with ErrLeaseExpired", err)
	}
	if _, err := db.Fail(ctx, saved.Lease, errors.New("late")); !errors.Is(err, core.ErrLeaseExpired) {
		t.Errorf("the late failure got %v, want it refused with ErrLeaseExpired", err)
	}
	if st, _ := status(t, q, "victim"); st != core.Succeeded {
		t.Errorf("victim is %s after the late completion", st)
	}
}

// TestCrashWorkerKilledUnderDefaults: a DAG opened without a lease
// timeout, workers with the zero WorkerOptions (but for how many handlers):
// the task of a worker killed with SIGKILL runs again on another when its
// lease expires, DefaultLeaseTimeout after it was handed out, instead of
// staying RUNNING for ever.
func TestCrashWorkerKilledUnderDefaults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.New(t, pgtest.SynchronousCommit)
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 20
	q, err := db.Queue(ctx, "defaults", core.Config{MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	crashDAG(t, q, n, rand.Uint64())
	dir := t.TempDir()
	procs := []*workerProc{
		startWorkerProc(t, url, dir, "victim", time.Millisecond, envCrashZero+"=1"),
		startWorkerProc(t, url, dir, "victim", time.Millisecond, envCrashZero+"=1"),
	}
	var saved savedLease
	waitFor(t, "a worker hanging on victim", func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "lease.json"))
		return err == nil && json.Unmarshal(b, &saved) == nil
	})
	for _, p := range procs {
		if p.cmd.Process.Pid == saved.PID {
			if err := p.cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-p.done
		}
	}
	killed := time.Now()
	tasks := waitSettled(t, url, "defaults", n)
	t.Logf("victim settled %v after the kill (lease timeout %v)", time.Since(killed).Round(time.Millisecond), durable.DefaultLeaseTimeout)
	checkAftermath(t, tasks, "defaults", dir)
	if st := tasks["victim"].state; st != string(core.Succeeded) {
		t.Errorf("victim is %s, want SUCCEEDED by another worker", st)
	}
	if runs, _ := journal(t, dir); runs["defaults/victim"] != 2 {
		t.Errorf("victim's handler started %d times, want 2", runs["defaults/victim"])
	}
}

// TestCrashPostgresRestarted stops Postgres as a crash would (pg_ctl stop
// -m immediate) while worker processes run a DAG, and starts it again: the
// workers reconnect and finish, and nothing was lost or done twice. It
// stops the binary's shared server, so it runs alone (not in parallel).
func TestCrashPostgresRestarted(t *testing.T) {
	server := pgtest.Shared(t)
	if !server.Throwaway() {
		t.Skip("the server of DAGQ_DATABASE_URL is not ours to restart")
	}
	ctx := context.Background()
	url := pgtest.New(t, pgtest.SynchronousCommit)
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	q, err := db.Queue(ctx, "restart", core.Config{MaxAttempts: 3, LeaseTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	crashDAG(t, q, n, seed)
	db.Close()

	dir := t.TempDir()
	startWorkerProc(t, url, dir, "", 10*time.Millisecond)
	startWorkerProc(t, url, dir, "", 10*time.Millisecond)

	succeeded := func() int {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		pool, err := pgxpool.New(cctx, url)
		if err != nil {
			return -1
		}
		defer pool.Close()
		var k int
		if err := pool.QueryRow(cctx, "SELECT count(*) FROM dagq_tasks WHERE state = 'SUCCEEDED'").Scan(&k); err != nil {
			return -1
		}
		return k
	}
	waitFor(t, "a third of the tasks done", func() bool { return succeeded() >= n/3 })
	before := succeeded()
	if err := server.Crash(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Logf("restarted Postgres with %d of %d tasks SUCCEEDED", before, n)

	tasks := waitSettled(t, url, "restart", n)
	checkAftermath(t, tasks, "restart", dir)
	if after := succeeded(); after < before {
		t.Errorf("%d tasks SUCCEEDED after the restart, %d before: committed completions were lost", after, before)
	}
	runs, _ := journal(t, dir)
	reran := 0
	for _, r := range runs {
		if r > 1 {
			reran++
		}
	}
	t.Logf("%d tasks ran more than once (their completion was cut by the crash, or their lease expired meanwhile)", reran)
}
