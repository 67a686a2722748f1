package core_test

import (
	"errors"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// TestSubmitDoesNotAllocateOnceWarm: with no event observer, submitting,
// handing out and completing tasks allocates nothing per task beyond the
// amortized growth of the queue's tables, on a chain and on a wide graph,
// under every strategy, with time unused and with leases and a jittered
// backoff configured (every lease then sets and drops a timer, whose heap
// reuses its storage).
func TestSubmitDoesNotAllocateOnceWarm(t *testing.T) {
	const n = 5000
	names := make([]string, n+1)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i)
	}
	timed := map[string]core.Config{
		"untimed": {},
		"timed":   {LeaseTimeout: time.Minute, Backoff: core.Backoff{Base: time.Second, Factor: 2, Jitter: core.JitterFull, Seed: 1}},
	}
	for _, strategy := range incremental.Names() {
		for _, shape := range []string{"chain", "wide"} {
			for _, clock := range []string{"untimed", "timed"} {
				t.Run(strategy+"/"+shape+"/"+clock, func(t *testing.T) {
					cfg := timed[clock]
					cfg.MaxAttempts, cfg.Strategy = 3, strategy
					q, err := core.New(cfg)
					if err != nil {
						t.Fatal(err)
					}
					q.Submit(names[0])
					i := 1
					allocs := testing.AllocsPerRun(n-1, func() {
						dep := names[i-1]
						if shape == "wide" {
							dep = names[0]
						}
						if err := q.Submit(names[i], dep); err != nil {
							t.Fatal(err)
						}
						i++
					})
					if allocs > 0 {
						t.Errorf("Submit allocates %.2f times per task once warm, want 0", allocs)
					}
					allocs = testing.AllocsPerRun(n-1, func() {
						l, ok := q.Next()
						if !ok {
							t.Fatal("nothing READY")
						}
						if err := q.Complete(l); err != nil {
							t.Fatal(err)
						}
					})
					if allocs > 0 {
						t.Errorf("Next+Complete allocate %.2f times per task, want 0", allocs)
					}
				})
			}
		}
	}
}

// TestRetriesDoNotAllocateOnceWarm: under leases and a jittered backoff,
// handing out a task, failing it (DELAYED, a timer set), advancing the
// clock past its due time (fired, READY again) and, every other time,
// letting its lease expire, allocates nothing once warm.
func TestRetriesDoNotAllocateOnceWarm(t *testing.T) {
	const n = 64
	q, err := core.New(core.Config{MaxAttempts: 1 << 30, LeaseTimeout: 10 * time.Second,
		Backoff: core.Backoff{Base: time.Second, Factor: 2, Max: 4 * time.Second, Jitter: core.JitterEqual, Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		q.Submit("t" + strconv.Itoa(i))
	}
	boom := errors.New("boom")
	round := func() {
		l, ok := q.Next()
		if !ok {
			t.Fatal("nothing READY")
		}
		if _, err := q.Fail(l, boom); err != nil {
			t.Fatal(err)
		}
		if err := q.Advance(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 * n {
		round()
	}
	if allocs := testing.AllocsPerRun(1000, round); allocs > 0 {
		t.Errorf("Next+Fail+Advance allocate %.2f times per round once warm, want 0", allocs)
	}
}

// TestTasksHintMakesRoomForTheTasksToCome: with Config.Tasks = n, n
// submits without dependencies allocate nothing for the queue's name table
// and nodes (without it they grow them about log n times); a hint smaller
// or larger than the tasks, or negative, changes nothing a caller sees.
func TestTasksHintMakesRoomForTheTasksToCome(t *testing.T) {
	const n = 1000
	names := make([]string, n)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i)
	}
	submitAll := func(hint int) float64 {
		return testing.AllocsPerRun(5, func() {
			q, err := core.New(core.Config{Tasks: hint})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				if err := q.Submit(name); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	without, with := submitAll(0), submitAll(n)
	if with >= without-5 {
		t.Errorf("%v allocations for %d submits with Tasks %d, %v without: want the tables' growth gone", with, n, n, without)
	}
	for _, hint := range []int{-1, 1, core.MaxTasksHint + 1} {
		q, err := core.New(core.Config{Tasks: hint})
		if err != nil {
			t.Fatalf("Tasks %d: %v", hint, err)
		}
		if err := q.Submit("a"); err != nil {
			t.Fatal(err)
		}
		if err := q.Submit("b", "a"); err != nil {
			t.Fatal(err)
		}
		if st, ok := q.Status("a"); !ok || st != core.Ready {
			t.Errorf("Tasks %d: a is %s (%v), want READY", hint, st, ok)
		}
		if st, ok := q.Status("b"); !ok || st != core.Pending {
			t.Errorf("Tasks %d: b is %s (%v), want PENDING", hint, st, ok)
		}
	}
}

// TestSubmitMemoryPerTask: a fresh queue submitting a chain of 5,000 tasks
// (the default strategy, no observer) allocates at most 0.05 times and 400
// bytes per task, everything included: the names' table, the nodes, the
// adjacency and the strategy's own order. It was 593 bytes and 0.026
// allocations when the nodes were one slice grown by append and the names a
// Go map; a return to that fails here whatever the machine's load, unlike a
// timed benchmark.
func TestSubmitMemoryPerTask(t *testing.T) {
	const n = 5000
	names := make([]string, n)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	q, err := core.New(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(names[0]); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < n; i++ {
		if err := q.Submit(names[i], names[i-1]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	bytes := float64(after.TotalAlloc-before.TotalAlloc) / n
	allocs := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.0f bytes and %.3f allocations per task", bytes, allocs)
	if bytes > 400 || allocs > 0.05 {
		t.Errorf("a %d-task chain allocates %.0f bytes and %.3f times per task, want at most 400 and 0.05", n, bytes, allocs)
	}
}
