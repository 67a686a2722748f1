package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// dagqPeer is dagq's durable queue under BenchmarkDurable: one DAG of n
// tasks, burnt down by one durable.Worker with a handler goroutine per
// worker, on the database's clock.
type dagqPeer struct {
	db *durable.DB
	// started[i] is when task i's handler started; trickleFrom is the first
	// task of the trickle, whose handlers say on trickled that they started.
	started     []time.Time
	trickleFrom int
	trickled    chan struct{}
	index       map[string]int
}

func newDagqPeer(ctx context.Context, b *testing.B, cfg *pgxpool.Config) *dagqPeer {
	db, err := durable.Open(ctx, cfg.ConnString(), durable.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(db.Close)
	return &dagqPeer{db: db}
}

// dagqTables are the durable queue's tables, as a burn-down leaves them.
// They are emptied with TRUNCATE … CASCADE, so that a table added later
// that refers to one of them is emptied too rather than refusing it.
var dagqTables = []string{"dagq_dags", "dagq_tasks", "dagq_edges", "dagq_expired", "dagq_redrives", "dagq_attempts"}

// restore empties the queue and submits the shape's DAG of n tasks in one
// Queue.SubmitAll: a fixed number of statements, one cycle check.
func (p *dagqPeer) restore(ctx context.Context, b *testing.B, shape string, n int) *durable.Queue {
	exec := func(sql string) {
		if _, err := p.db.Pool().Exec(ctx, sql); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
	exec("TRUNCATE " + strings.Join(dagqTables, ", ") + " CASCADE")
	q, err := p.db.Queue(ctx, "bench-"+shape, core.Config{MaxAttempts: 3})
	if err != nil {
		b.Fatal(err)
	}
	if err := q.SubmitAll(ctx, newTasks(durableShape(shape, n))); err != nil {
		b.Fatal(err)
	}
	exec("ANALYZE " + strings.Join(dagqTables, ", "))
	return q
}

// newTasks is tasks as SubmitAll takes them.
func newTasks(tasks []core.Task) []durable.NewTask {
	out := make([]durable.NewTask, len(tasks))
	for i, t := range tasks {
		out[i] = durable.NewTask{Name: t.Name, Deps: t.Deps}
	}
	return out
}

func (p *dagqPeer) shapes() []string { return []string{"independent", "random"} }

// durableShape is the tasks of a shape: independent tasks wait on nothing;
// random is the cycle-check benchmarks' random DAG (up to three earlier
// tasks each, arriving shuffled).
func durableShape(shape string, n int) []core.Task {
	if shape == "random" {
		return random(n, seed)
	}
	tasks := make([]core.Task, n)
	for i, name := range names(n) {
		tasks[i] = core.Task{Name: name}
	}
	return tasks
}

func (p *dagqPeer) burn(ctx context.Context, b *testing.B, shape string, n, workers, trickle int) (time.Duration, []time.Duration) {
	q := p.restore(ctx, b, shape, n)
	tasks := durableShape(shape, n)
	p.index = make(map[string]int, n+trickle)
	for i, t := range tasks {
		p.index[t.Name] = i
	}
	for i := n; i < n+trickle; i++ {
		p.index[fmt.Sprintf("trickle%d", i)] = i
	}
	p.started = make([]time.Time, n+trickle)
	p.trickleFrom, p.trickled = n, make(chan struct{}, 1)
	w := durable.NewWorker(p.db, func(_ context.Context, t durable.Task) error {
		now := time.Now()
		i := p.index[t.Name]
		p.started[i] = now
		if i >= p.trickleFrom {
			p.trickled <- struct{}{}
		}
		return nil
	}, durable.WorkerOptions{Workers: workers, OnError: func(err error) { b.Error(err) }})
	wctx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)

	// A task counts once its completion is committed: Stats counts it
	// after DB.Complete returns. Polled every 100 µs.
	wait := func(count int64) {
		last, progress := int64(-1), time.Now()
		for {
			done := w.Stats().Completed
			if done >= count {
				return
			}
			if done != last {
				last, progress = done, time.Now()
			} else if time.Since(progress) > burnTimeout {
				b.Fatalf("dagq: no task completed for %v", burnTimeout)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}

	b.StartTimer()
	start := time.Now()
	go func() { ran <- w.Run(wctx) }()
	wait(int64(n))
	elapsed := time.Since(start)
	b.StopTimer()

	lat := make([]time.Duration, 0, trickle)
	for i := n; i < n+trickle; i++ {
		t0 := time.Now()
		if err := q.Submit(context.Background(), fmt.Sprintf("trickle%d", i)); err != nil {
			b.Fatal(err)
		}
		select {
		case <-p.trickled:
		case <-time.After(burnTimeout):
			b.Fatalf("dagq: task %d not handed out in %v", i, burnTimeout)
		}
		lat = append(lat, p.started[i].Sub(t0))
	}
	wait(int64(n + trickle))
	stop()
	if err := <-ran; err != nil {
		b.Fatal(err)
	}
	var left int
	if err := p.db.Pool().QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE state <> 'SUCCEEDED'").Scan(&left); err != nil {
		b.Fatal(err)
	}
	if st := w.Stats(); left != 0 || st.Completed != int64(n+trickle) || st.Refused != 0 {
		b.Fatalf("dagq: %d tasks not SUCCEEDED, stats %+v", left, st)
	}
	return elapsed, lat
}
