package bench

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
// The server is DAGQ_DATABASE_URL; without it the benchmark is skipped.
func BenchmarkDurable(b *testing.B) {
	ctx := context.Background()
	server := durableServer(b)
	n, trickle := durableTasks, trickleTasks
	if testing.Short() {
		n, trickle = durableTasksShort, trickleTasksShort
	}
	for _, impl := range durablePeers {
		b.Run("impl="+impl.name, func(b *testing.B) {
			peer := impl.open(ctx, b, durableDatabase(ctx, b, server, "dagq_bench_"+impl.name))
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

// durableServer is the Postgres server of the durable benchmarks.
func durableServer(b *testing.B) *pgxpool.Config {
	url := os.Getenv("DAGQ_DATABASE_URL")
	if url == "" {
		b.Skip("DAGQ_DATABASE_URL is not set")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

// durableDatabase creates the database name on the server if it is not
// there yet, and returns the server's configuration pointed at it.
func durableDatabase(ctx context.Context, b *testing.B, server *pgxpool.Config, name string) *pgxpool.Config {
	conn, err := pgx.ConnectConfig(ctx, server.ConnConfig)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		b.Fatal(err)
	}
	if !exists {
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
			b.Fatal(err)
		}
	}
	cfg := server.Copy()
	cfg.ConnConfig.Database = name
	return cfg
}
