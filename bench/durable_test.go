package bench

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dagq/dagq/internal/pgtest"
)

// durableTasks is how many tasks one op burns down; -short keeps it quick.
const (
	durableTasks      = 10_000
	durableTasksShort = 200
	// trickleTasks is how many tasks, one at a time, measure the hand-out
	// latency after the burn-down.
	trickleTasks      = 100
	trickleTasksShort = 10
)

// durableWorkers are the worker counts of BenchmarkDurable: a handler
// goroutine each.
var durableWorkers = []int{1, 4, 16, 100, 2000}

// burnTimeout is how long a burn-down may go without a single completion
// before the benchmark gives up on it.
const burnTimeout = 2 * time.Minute

// durablePeer is a queue on Postgres under BenchmarkDurable.
type durablePeer interface {
	// shapes are the shapes it can run: independent tasks, and random DAGs
	// where it has dependencies.
	shapes() []string
	// burn empties the queue, submits n tasks of the shape with the timer
	// stopped, then starts the timer and workers handlers that do nothing,
	// and returns when every task's completion is committed, with the time
	// that took (from starting the workers), after stopping the timer.
	// Then, with the workers idle, it submits trickle tasks one at a time,
	// each once the one before has completed, and returns how long each
	// took from the start of its submit to the start of its handler: the
	// hand-out latency, which is the wake-up of an idle worker.
	burn(ctx context.Context, b *testing.B, shape string, n, workers, trickle int) (elapsed time.Duration, handout []time.Duration)
}

// durablePeers are the implementations BenchmarkDurable compares, each with
// a database of its own on the same server.
var durablePeers = []struct {
	name string
	open func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer
}{
	{"dagq", func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer {
		return newDagqPeer(ctx, b, cfg)
	}},
	{"river", func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer {
		return newRiverPeer(ctx, b, cfg)
	}},
}

// BenchmarkDurable burns down tasks whose handler does nothing, on
// Postgres, with dagq's durable queue and with River:
//
//	BenchmarkDurable/impl=<dagq|river>/shape=<independent|random>/workers=<n>
//
// One op submits 10⁴ tasks (200 under -short) with the timer stopped, then
// starts the workers and waits for every completion to be committed. It
// reports tasks/s, and the hand-out latency's p50 and p99 (p50-handout-ns,
// p99-handout-ns): from the start of a submit to the start of its handler,
// measured on tasks submitted one at a time to idle workers after the
// burn-down, so that it is the wake-up of an idle worker (LISTEN/NOTIFY or a
// poll) and not the time a task waited in a backlog.
//
// The server is internal/pgtest's: DAGQ_DATABASE_URL, or else a throwaway
// cluster of Debian's PostgreSQL; each implementation gets a database of its
// own on it.
func BenchmarkDurable(b *testing.B) {
	ctx := context.Background()
	n, trickle := durableTasks, trickleTasks
	if testing.Short() {
		n, trickle = durableTasksShort, trickleTasksShort
	}
	for _, impl := range durablePeers {
		b.Run("impl="+impl.name, func(b *testing.B) {
			// Commits are synchronous, as a durable queue's must be: a
			// completion is on disk (in the operating system's hands; the
			// throwaway cluster runs without fsync) before it counts.
			cfg, err := pgxpool.ParseConfig(pgtest.New(b, pgtest.SynchronousCommit))
			if err != nil {
				b.Fatal(err)
			}
			peer := impl.open(ctx, b, cfg)
			for _, shape := range peer.shapes() {
				b.Run("shape="+shape, func(b *testing.B) {
					for _, workers := range durableWorkers {
						b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
							b.StopTimer()
							var total time.Duration
							var handout []time.Duration
							for range b.N {
								elapsed, lat := peer.burn(ctx, b, shape, n, workers, trickle)
								total += elapsed
								handout = append(handout, lat...)
							}
							b.ReportMetric(float64(n*b.N)/total.Seconds(), "tasks/s")
							slices.Sort(handout)
							b.ReportMetric(float64(percentile(handout, 50)), "p50-handout-ns")
							b.ReportMetric(float64(percentile(handout, 99)), "p99-handout-ns")
						})
					}
				})
			}
		})
	}
}

// percentile is the p-th percentile of sorted durations (nearest rank), 0
// when there are none.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
