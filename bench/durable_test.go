package bench

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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
// a database of its own on the same server. tasks, when not nil, is how
// many tasks one op of the peer burns down with workers workers, when the
// benchmark's n would take too long.
var durablePeers = []struct {
	name  string
	open  func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer
	tasks func(n, workers int) int
}{
	{"dagq", func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer {
		return newDagqPeer(ctx, b, cfg)
	}, nil},
	{"river", func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer {
		return newRiverPeer(ctx, b, cfg, true)
	}, nil},
	{"river-defaults", func(ctx context.Context, b *testing.B, cfg *pgxpool.Config) durablePeer {
		return newRiverPeer(ctx, b, cfg, false)
	}, riverDefaultsTasks},
}

// riverDefaultsTasks is how many jobs River at its defaults burns down in
// one op: at most one fetch per 100 ms cooldown, each of as many jobs as
// there are idle workers, is about 10 jobs a second per worker, so 10⁴
// jobs would take 17 minutes with one worker. It gets as many jobs as it
// runs in riverDefaultsSeconds at that rate (a tenth of it under -short),
// and never more than the others.
func riverDefaultsTasks(n, workers int) int {
	perWorker := 10 * riverDefaultsSeconds
	if testing.Short() {
		perWorker = max(1, perWorker/10)
	}
	return min(n, workers*perWorker)
}

// riverDefaultsSeconds is how long, at its expected rate, one op of River
// at its defaults lasts.
const riverDefaultsSeconds = 4

// durableServers are BenchmarkDurable's two servers: internal/pgtest's
// throwaway cluster with fsync on, as a production server runs, and the
// one with fsync off, as the tests run. fsync is a setting of the whole
// server, so they are two clusters.
var durableServers = []struct {
	fsync  string
	server func(testing.TB) *pgtest.Server
}{
	{"on", pgtest.Durable},
	{"off", pgtest.Shared},
}

// BenchmarkDurable burns down tasks whose handler does nothing, on
// Postgres, with dagq's durable queue and with River, tuned and at its
// defaults:
//
//	BenchmarkDurable/fsync=<on|off>/impl=<dagq|river|river-defaults>/shape=<independent|random>/workers=<n>
//
// One op submits 10⁴ tasks (200 under -short) with the timer stopped, then
// starts the workers and waits for every completion to be committed. It
// reports tasks/s, and the hand-out latency's p50 and p99 (p50-handout-ns,
// p99-handout-ns): from the start of a submit to the start of its handler,
// measured on tasks submitted one at a time to idle workers after the
// burn-down, so that it is the wake-up of an idle worker (LISTEN/NOTIFY or a
// poll) and not the time a task waited in a backlog. River at its defaults
// burns down fewer jobs (riverDefaultsTasks): its rate is a rate all the
// same.
//
// The servers are internal/pgtest's: a throwaway cluster of Debian's
// PostgreSQL with fsync on (pgtest.Durable) and one with fsync off
// (pgtest.Shared); each implementation gets a database of its own on each.
// With DAGQ_DATABASE_URL set both are that server, and the level its fsync
// setting is not is skipped.
func BenchmarkDurable(b *testing.B) {
	ctx := context.Background()
	n, trickle := durableTasks, trickleTasks
	if testing.Short() {
		n, trickle = durableTasksShort, trickleTasksShort
	}
	for _, srv := range durableServers {
		b.Run("fsync="+srv.fsync, func(b *testing.B) {
			s := srv.server(b)
			if got := fsyncOf(ctx, b, s); got != srv.fsync {
				b.Skipf("the server runs with fsync=%s", got)
			}
			for _, impl := range durablePeers {
				b.Run("impl="+impl.name, func(b *testing.B) {
					// Commits are synchronous, as a durable queue's must
					// be: a completion is written (and with fsync on, on
					// the disk) before it counts.
					cfg, err := pgxpool.ParseConfig(s.New(b, pgtest.SynchronousCommit))
					if err != nil {
						b.Fatal(err)
					}
					peer := impl.open(ctx, b, cfg)
					for _, shape := range peer.shapes() {
						b.Run("shape="+shape, func(b *testing.B) {
							for _, workers := range durableWorkers {
								b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
									tasks := n
									if impl.tasks != nil {
										tasks = impl.tasks(n, workers)
									}
									burnDown(ctx, b, peer, shape, tasks, workers, trickle)
								})
							}
						})
					}
				})
			}
		})
	}
}

// burnDown runs b.N burn-downs of n tasks and reports their rate and
// hand-out latencies.
func burnDown(ctx context.Context, b *testing.B, peer durablePeer, shape string, n, workers, trickle int) {
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
}

// fsyncOf is the server's fsync setting, on or off.
func fsyncOf(ctx context.Context, b *testing.B, s *pgtest.Server) string {
	conn, err := pgx.Connect(ctx, s.URL())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var v string
	if err := conn.QueryRow(ctx, "SHOW fsync").Scan(&v); err != nil {
		b.Fatal(err)
	}
	return v
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
