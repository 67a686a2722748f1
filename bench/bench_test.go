package bench

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// sizes are the n of every benchmark; -short keeps the first.
var sizes = []int{1_000, 5_000, 10_000, 100_000, 1_000_000}

const seed = 1

// runAll runs the combinations Predict puts over Budget, which are skipped
// otherwise: go test ./bench -bench … -args -bench.all (make bench
// BENCH_ALL=1).
var runAll = flag.Bool("bench.all", false, "run the combinations predicted to take over bench.Budget too")

// runner builds one whole graph (and, for a lifecycle, runs it) and
// returns the visits its cycle checks made (0 for peers that do not count).
// With faults, every task's first attempt fails (peers have no retries:
// nil runs them without).
type runner func(b *testing.B, fx *fixture, lifecycle bool, faults *faults) uint64

// fixture is a shape's tasks with what the runners take from them besides,
// made once outside the timed loop, so that an op measures the queue or the
// peer and not the benchmark's own bookkeeping.
type fixture struct {
	tasks    []core.Task // in arrival order, reject's refused attempts included
	accepted []core.Task // the tasks without the refused attempts: what gonum-offline builds
	distinct int         // how many distinct names: the tasks a lifecycle must finish
}

func newFixture(tasks []core.Task) *fixture {
	return &fixture{tasks: tasks, accepted: accepted(tasks), distinct: countDistinct(tasks)}
}

// faults is how a lifecycle fails: "none", or "once", where every task
// fails its first attempt under a lease that expires and a backoff with
// full jitter, so that every retry waits on the clock.
type faults struct {
	name string
	cfg  func(*core.Config)
}

var faultModes = []*faults{
	{name: "none"},
	{name: "once", cfg: func(c *core.Config) {
		c.LeaseTimeout = 30 * time.Second
		c.Backoff = core.Backoff{Base: time.Millisecond, Factor: 2, Max: time.Second, Jitter: core.JitterFull, Seed: seed}
	}},
}

// errFault is the error of a failed first attempt.
var errFault = errors.New("injected fault")

// strategies are dagq's own strategies and the peers, each as a runner.
func strategies() []struct {
	name string
	run  runner
} {
	var out []struct {
		name string
		run  runner
	}
	for _, s := range incremental.Names() {
		out = append(out, struct {
			name string
			run  runner
		}{s, queueRunner(s)})
	}
	out = append(out, peers...)
	return out
}

func queueRunner(strategy string) runner {
	return func(b *testing.B, fx *fixture, lifecycle bool, f *faults) uint64 {
		cfg := core.Config{MaxAttempts: 3, Strategy: strategy}
		if f != nil && f.cfg != nil {
			f.cfg(&cfg)
		}
		q, err := core.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range fx.tasks {
			q.Submit(t.Name, t.Deps...) // reject's attempts are meant to be refused
		}
		if lifecycle {
			failing := f != nil && f.cfg != nil
			fails := 0
			for {
				l, ok := q.Next()
				if !ok {
					// Nothing READY: the clock goes to the next retry.
					at, ok := q.NextTimer()
					if !ok {
						break
					}
					q.Advance(at - q.Now())
					continue
				}
				if failing && l.Attempt == 1 {
					q.Fail(l, errFault)
					fails++
					continue
				}
				q.Complete(l)
			}
			if done := q.Len(); done != fx.distinct {
				b.Fatalf("%d tasks submitted, want %d", done, fx.distinct)
			}
			if failing && fails != q.Len() {
				b.Fatalf("%d first attempts failed, want every one of %d", fails, q.Len())
			}

		}
		return q.Stats().Visits
	}
}

func countDistinct(tasks []core.Task) int {
	seen := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		seen[t.Name] = true
	}
	return len(seen)
}

// BenchmarkSubmit submits every task of a shape with its cycle check.
func BenchmarkSubmit(b *testing.B) { benchmark(b, false) }

// BenchmarkLifecycle submits every task, then hands out and completes
// them all: with faults=once every task fails once first and waits out
// its backoff on the queue's clock, so that benchstat -col /faults shows
// what time costs.
func BenchmarkLifecycle(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, lifecycle bool) {
	for _, s := range strategies() {
		b.Run("strategy="+s.name, func(b *testing.B) {
			for _, shape := range Shapes() {
				b.Run("shape="+shape.Name, func(b *testing.B) {
					for _, n := range sizes {
						b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
							if testing.Short() && n > sizes[0] {
								b.Skip("-short runs the smallest n only")
							}
							if skip, d, how := Skip(s.name, shape.Name, n); skip && !*runAll {
								b.Skipf("predicted %v per op (%s), over the %v budget (-bench.all runs it)", d, how, Budget)
							}
							fx := newFixture(shape.Make(n, seed))
							measure := func(b *testing.B, f *faults) {
								b.ReportAllocs()
								var visits uint64
								for b.Loop() {
									visits += s.run(b, fx, lifecycle, f)
								}
								b.ReportMetric(float64(visits)/float64(b.N), "visits/op")
							}
							if !lifecycle {
								measure(b, nil)
								return
							}
							for _, f := range faultModes {
								b.Run("faults="+f.name, func(b *testing.B) {
									if f.cfg != nil && !slices.Contains(incremental.Names(), s.name) {
										b.Skip("the peers have no retries")
									}
									measure(b, f)
								})
							}
						})
					}
				})
			}
		})
	}
}

// TestShapes checks the shapes are what their names say: the right number
// of tasks, acyclic but for reject's attempts, which every strategy
// refuses, and the same for the same seed.
func TestShapes(t *testing.T) {
	for _, shape := range Shapes() {
		t.Run(shape.Name, func(t *testing.T) {
			tasks := shape.Make(500, seed)
			if got := countDistinct(tasks); got != 500 {
				t.Fatalf("%d distinct tasks, want 500", got)
			}
			if fmt.Sprint(tasks) != fmt.Sprint(shape.Make(500, seed)) {
				t.Fatal("not deterministic")
			}
			wantRefused := 0
			if shape.Refused != nil {
				wantRefused = shape.Refused(tasks)
				if wantRefused == 0 {
					t.Fatal("reject has no refused attempts")
				}
			}
			for _, s := range incremental.Names() {
				q, _ := core.New(core.Config{MaxAttempts: 1, Strategy: s})
				refused := 0
				for _, task := range tasks {
					if err := q.Submit(task.Name, task.Deps...); err != nil {
						refused++
					}
				}
				if refused != wantRefused {
					t.Errorf("%s refused %d submits, want %d", s, refused, wantRefused)
				}
			}
		})
	}
}

// TestWorkedNumbers reproduces the design's worked figures for dfs: about
// 2,000 visits for the reducer of the 1,000-shard wide graph, and n²/2 in
// all on a chain.
func TestWorkedNumbers(t *testing.T) {
	q, _ := core.New(core.Config{MaxAttempts: 1, Strategy: "dfs"})
	tasks := wide(1002, seed)
	for _, task := range tasks[:len(tasks)-1] {
		q.Submit(task.Name, task.Deps...)
	}
	before := q.Stats().Visits
	q.Submit(tasks[len(tasks)-1].Name, tasks[len(tasks)-1].Deps...)
	if got := q.Stats().Visits - before; got != 2000 {
		t.Errorf("the reducer's check made %d visits, want 2,000 (1,000 shards and their 1,000 edges)", got)
	}

	const n = 2000
	q, _ = core.New(core.Config{MaxAttempts: 1, Strategy: "dfs"})
	for _, task := range chain(n, seed) {
		q.Submit(task.Name, task.Deps...)
	}
	if got, want := q.Stats().Visits, uint64(n*(n-1)/2); got != want {
		t.Errorf("a %d-chain made %d visits, want n(n-1)/2 = %d", n, got, want)
	}
}
