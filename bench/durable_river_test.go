package bench

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// riverPeer is River, the Go job queue on Postgres, as the durable
// benchmark's peer: no dependencies, so independent jobs only. Tuned, it
// runs as River's own benchmark tunes it (a fetch cooldown of 1 ms and a
// poll every 5 ms); at its defaults (a 100 ms cooldown, a poll every
// second) one worker does about 10 jobs a second, and an idle worker may
// wait out the cooldown before it fetches a new job.
type riverPeer struct {
	pool  *pgxpool.Pool
	tuned bool
	// started[i] is when job i's handler started; the jobs carry i.
	started []time.Time
	// trickleFrom is the first job of the trickle, whose handlers say on
	// trickled that they started.
	trickleFrom int
	trickled    chan struct{}
}

// riverArgs is a benchmark job: its number, so that its handler can note
// when it started.
type riverArgs struct {
	Num int `json:"num"`
}

// Kind names the job kind in River's table.
func (riverArgs) Kind() string { return "dagq_bench" }

// riverWorker does nothing but note when its handler started.
type riverWorker struct {
	river.WorkerDefaults[riverArgs]
	peer *riverPeer
}

// Work notes the start time of the job; the slots are preallocated and each
// is written by one handler only.
func (w *riverWorker) Work(_ context.Context, job *river.Job[riverArgs]) error {
	now := time.Now()
	n := job.Args.Num
	w.peer.started[n] = now
	if n >= w.peer.trickleFrom {
		w.peer.trickled <- struct{}{}
	}
	return nil
}

// newRiverPeer migrates River's tables into the database of cfg; tuned
// says which configuration its clients run.
func newRiverPeer(ctx context.Context, b *testing.B, cfg *pgxpool.Config, tuned bool) *riverPeer {
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		b.Fatalf("river: migrate: %v", err)
	}
	return &riverPeer{pool: pool, tuned: tuned}
}

func (p *riverPeer) shapes() []string { return []string{"independent"} }

func (p *riverPeer) burn(ctx context.Context, b *testing.B, shape string, n, workers, trickle int) (time.Duration, []time.Duration) {
	if _, err := p.pool.Exec(ctx, "TRUNCATE river_job"); err != nil {
		b.Fatal(err)
	}
	p.started = make([]time.Time, n+trickle)
	p.trickleFrom, p.trickled = n, make(chan struct{}, 1)
	ws := river.NewWorkers()
	river.AddWorker(ws, &riverWorker{peer: p})
	config := &river.Config{
		Logger:  quietLogger(),
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: workers}},
		Workers: ws,
	}
	if p.tuned {
		config.FetchCooldown, config.FetchPollInterval = time.Millisecond, 5*time.Millisecond
	}
	client, err := river.NewClient(riverpgxv5.New(p.pool), config)
	if err != nil {
		b.Fatal(err)
	}
	// Completions are counted from River's event stream, as its own
	// benchmark counts them: a job counts once its completion is written,
	// not when its handler returns.
	events, cancel := client.SubscribeConfig(&river.SubscribeConfig{
		ChanSize: n + trickle + 1,
		Kinds:    []river.EventKind{river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled},
	})
	defer cancel()
	wait := func(count int) {
		for range count {
			select {
			case e := <-events:
				if e.Kind != river.EventKindJobCompleted {
					b.Fatalf("river: job %d: %s", e.Job.ID, e.Kind)
				}
			case <-time.After(burnTimeout):
				b.Fatalf("river: no job completed for %v", burnTimeout)
			}
		}
	}

	const batch = 5_000
	params := make([]river.InsertManyParams, 0, batch)
	for i := range n {
		params = append(params, river.InsertManyParams{Args: riverArgs{Num: i}})
		if len(params) == batch || i == n-1 {
			if _, err := client.InsertManyFast(ctx, params); err != nil {
				b.Fatal(err)
			}
			params = params[:0]
		}
	}

	if _, err := p.pool.Exec(ctx, "ANALYZE river_job"); err != nil {
		b.Fatal(err)
	}

	b.StartTimer()
	start := time.Now()
	if err := client.Start(ctx); err != nil {
		b.Fatal(err)
	}
	wait(n)
	elapsed := time.Since(start)
	b.StopTimer()

	lat := make([]time.Duration, 0, trickle)
	for i := n; i < n+trickle; i++ {
		t0 := time.Now()
		if _, err := client.Insert(ctx, riverArgs{Num: i}, nil); err != nil {
			b.Fatal(err)
		}
		select {
		case <-p.trickled:
		case <-time.After(burnTimeout):
			b.Fatalf("river: job %d not handed out in %v", i, burnTimeout)
		}
		lat = append(lat, p.started[i].Sub(t0))
	}
	// River completes jobs in batches, on a timer when they are few.
	wait(trickle)
	if err := client.Stop(ctx); err != nil {
		b.Fatal(err)
	}
	var left int
	if err := p.pool.QueryRow(ctx, "SELECT count(*) FROM river_job WHERE state <> 'completed'").Scan(&left); err != nil {
		b.Fatal(err)
	}
	if left != 0 {
		b.Fatalf("river: %d jobs not completed", left)
	}
	return elapsed, lat
}

// quietLogger keeps a library's logging out of the benchmark's output,
// but for errors, which go to standard error.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}
