package durable_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestClockSkewRunsNothingTwice runs a DAG on three worker processes: one
// whose own clock is right, one whose clock is 60 s ahead and one 60 s
// behind, under a 5 s lease. Every task runs exactly once, on its first
// attempt, and no lease expires: the database's clock decides every
// deadline, and a worker's clock only measures durations. Each skewed
// process reports the time on its clock, and the test checks that it is
// 60 s off, and that every process ran tasks.
func TestClockSkewRunsNothingTwice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := newURL(t)
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, err := db.Queue(ctx, "skew", core.Config{MaxAttempts: 3, LeaseTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	skews := []time.Duration{0, 60 * time.Second, -60 * time.Second}
	pids := map[int]time.Duration{}
	for _, s := range skews {
		started := time.Now()
		p := startWorkerProc(t, url, dir, "", 20*time.Millisecond, envCrashSkew+"="+s.String())
		pid := p.cmd.Process.Pid
		pids[pid] = s
		var clock time.Time
		waitFor(t, fmt.Sprintf("worker %d reporting its clock", pid), func() bool {
			clock = procClock(filepath.Join(dir, strconv.Itoa(pid)+".log"))
			return !clock.IsZero()
		})
		// It read its clock after it started and before the test saw it.
		if off := clock.Sub(started); off < s || off > s+time.Since(started) {
			t.Fatalf("worker %d's clock is %v off the test's, want %v (+ at most %v)", pid, off, s, time.Since(started))
		}
		t.Logf("worker %d's clock is %v off", pid, clock.Sub(started).Round(time.Second))
	}

	const n = 150
	rng := rand.New(rand.NewPCG(rand.Uint64(), 0))
	tasks := make([]durable.NewTask, n)
	for i := range tasks {
		tasks[i].Name = fmt.Sprintf("t%d", i)
		for range rng.IntN(3) {
			if i > 0 {
				tasks[i].Deps = append(tasks[i].Deps, tasks[rng.IntN(i)].Name)
			}
		}
	}
	if err := q.SubmitAll(ctx, tasks); err != nil {
		t.Fatal(err)
	}

	settled := waitSettled(t, url, "skew", n)
	runs, oks := journal(t, dir)
	for _, task := range tasks {
		if st := settled[task.Name].state; st != string(core.Succeeded) {
			t.Errorf("%s is %s, want SUCCEEDED", task.Name, st)
		}
		if r := runs["skew/"+task.Name]; r != 1 {
			t.Errorf("%s's handler started %d times, want once", task.Name, r)
		}
		if k := oks["skew/"+task.Name]; k != 1 {
			t.Errorf("%s was completed %d times, want once", task.Name, k)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var retried, expired int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE dag = 'skew' AND attempts <> 1").Scan(&retried); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM dagq_expired WHERE dag = 'skew'").Scan(&expired); err != nil {
		t.Fatal(err)
	}
	if retried != 0 || expired != 0 {
		t.Errorf("%d tasks took more than one attempt and %d leases expired, want none", retried, expired)
	}
	for pid, s := range pids {
		k := procRuns(filepath.Join(dir, strconv.Itoa(pid)+".log"))
		t.Logf("worker %d (clock %v off) ran %d tasks", pid, s, k)
		if k == 0 {
			t.Errorf("worker %d (clock %v off) ran no task: the test proves nothing of it", pid, s)
		}
	}
}

// procClock is the time a worker process's journal says its clock read,
// or zero if it has not said yet.
func procClock(path string) time.Time {
	b, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}
	}
	first, _, ok := strings.Cut(string(b), "\n")
	f := strings.Fields(first)
	if !ok || len(f) != 2 || f[0] != "clock" {
		return time.Time{}
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// procRuns counts the handlers a worker process's journal says it started.
func procRuns(path string) int {
	fh, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer fh.Close()
	k := 0
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "run ") {
			k++
		}
	}
	return k
}
