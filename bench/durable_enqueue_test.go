package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// BenchmarkDurableEnqueue enqueues 10⁴ tasks (200 under -short) in one
// call, committed, on Postgres:
//
//	BenchmarkDurableEnqueue/impl=dagq/shape=random/stats=<fresh|analyzed>
//	BenchmarkDurableEnqueue/impl=river/shape=independent/stats=<fresh|analyzed>
//
// dagq submits the random DAG of BenchmarkDurable (up to three earlier
// tasks each, arriving shuffled) into one DAG with Queue.SubmitAll; River
// inserts as many independent jobs with Client.InsertMany. "fresh" runs
// each op on a database made for it, whose tables were never analyzed;
// "analyzed" on tables emptied after an ANALYZE of a full load, so that
// plans that rest on statistics show as a difference between the two. It
// reports tasks/s.
func BenchmarkDurableEnqueue(b *testing.B) {
	ctx := context.Background()
	n := durableTasks
	if testing.Short() {
		n = durableTasksShort
	}
	dagTasks := newTasks(random(n, seed))
	jobs := make([]river.InsertManyParams, n)
	for i := range jobs {
		jobs[i] = river.InsertManyParams{Args: riverArgs{Num: i}}
	}
	enqueue := map[string]func(ctx context.Context, b *testing.B, url string) func(){
		// Each returns the call to time, the schema migrated beforehand.
		"dagq": func(ctx context.Context, b *testing.B, url string) func() {
			db, err := durable.Open(ctx, url, durable.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(db.Close)
			if _, err := db.Pool().Exec(ctx, "TRUNCATE "+strings.Join(dagqTables, ", ")+" CASCADE"); err != nil {
				b.Fatal(err)
			}
			q, err := db.Queue(ctx, "enqueue", core.Config{MaxAttempts: 3})
			if err != nil {
				b.Fatal(err)
			}
			return func() {
				if err := q.SubmitAll(ctx, dagTasks); err != nil {
					b.Fatal(err)
				}
			}
		},
		"river": func(ctx context.Context, b *testing.B, url string) func() {
			cfg, err := pgxpool.ParseConfig(url)
			if err != nil {
				b.Fatal(err)
			}
			pool := newRiverPeer(ctx, b, cfg, true).pool
			if _, err := pool.Exec(ctx, "TRUNCATE river_job"); err != nil {
				b.Fatal(err)
			}
			client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: quietLogger()})
			if err != nil {
				b.Fatal(err)
			}
			return func() {
				if _, err := client.InsertMany(ctx, jobs); err != nil {
					b.Fatal(err)
				}
			}
		},
	}
	for _, impl := range []struct{ name, shape string }{{"dagq", "random"}, {"river", "independent"}} {
		b.Run("impl="+impl.name+"/shape="+impl.shape, func(b *testing.B) {
			for _, stats := range []string{"fresh", "analyzed"} {
				b.Run("stats="+stats, func(b *testing.B) {
					b.StopTimer()
					var analyzedURL string
					if stats == "analyzed" {
						analyzedURL = pgtest.New(b, pgtest.SynchronousCommit)
						enqueue[impl.name](ctx, b, analyzedURL)()
						pool, err := pgxpool.New(ctx, analyzedURL)
						if err != nil {
							b.Fatal(err)
						}
						if _, err := pool.Exec(ctx, "ANALYZE"); err != nil {
							b.Fatal(err)
						}
						pool.Close()
					}
					var total time.Duration
					for range b.N {
						url := analyzedURL
						if stats == "fresh" {
							url = pgtest.New(b, pgtest.SynchronousCommit)
						}
						call := enqueue[impl.name](ctx, b, url)
						start := time.Now()
						call()
						total += time.Since(start)
					}
					b.ReportMetric(float64(n*b.N)/total.Seconds(), "tasks/s")
				})
			}
		})
	}
}
