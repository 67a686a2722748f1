package durable_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// newURL is a fresh database of the test's own, whose commits survive a
// crash of the server.
func newURL(t testing.TB) string { return pgtest.New(t, pgtest.SynchronousCommit) }

// openDB opens a DB on a fresh database of its own for the test.
func openDB(t testing.TB, opts durable.Options) *durable.DB {
	t.Helper()
	db, err := durable.Open(context.Background(), newURL(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

var dags atomic.Int64

// openQueue opens a queue on a DAG of its own in db.
func openQueue(t testing.TB, db *durable.DB, cfg core.Config) *durable.Queue {
	t.Helper()
	q, err := db.Queue(context.Background(), fmt.Sprintf("dag-%d", dags.Add(1)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// seeded runs f in a subtest for each of runs seeds, taken from the clock,
// with a generator of that seed and stream; the seed names the subtest and
// is logged, so that a failure can be run again.
func seeded(t *testing.T, runs int, stream uint64, f func(t *testing.T, rng *rand.Rand)) {
	for run := range runs {
		seed := uint64(time.Now().UnixNano()) + uint64(run)
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			t.Logf("seed %d", seed)
			f(t, rand.New(rand.NewPCG(seed, stream)))
		})
	}
}

// bg is the context of the tests' calls.
var bg = context.Background()

// The reads of a Queue, for tests: an error is reported to the test (from
// any goroutine) and read as nothing.

func next(t testing.TB, q *durable.Queue) (core.Lease, bool) {
	l, ok, err := q.Next(bg)
	if err != nil {
		t.Errorf("Next: %v", err)
	}
	return l, ok
}

func status(t testing.TB, q *durable.Queue, task string) (core.State, bool) {
	s, ok, err := q.Status(bg, task)
	if err != nil {
		t.Errorf("Status(%q): %v", task, err)
	}
	return s, ok
}

func deadLetters(t testing.TB, q *durable.Queue) []core.DeadLetter {
	dl, err := q.DeadLetters(bg)
	if err != nil {
		t.Errorf("DeadLetters: %v", err)
	}
	return dl
}

func deadLetterGroups(t testing.TB, q *durable.Queue) []core.DeadLetterGroup {
	g, err := q.DeadLetterGroups(bg)
	if err != nil {
		t.Errorf("DeadLetterGroups: %v", err)
	}
	return g
}

func readyTasks(t testing.TB, q *durable.Queue) []string {
	r, err := q.ReadyTasks(bg)
	if err != nil {
		t.Errorf("ReadyTasks: %v", err)
	}
	return r
}

func now(t testing.TB, q *durable.Queue) time.Duration {
	n, err := q.Now(bg)
	if err != nil {
		t.Errorf("Now: %v", err)
	}
	return n
}

func length(t testing.TB, q *durable.Queue) int {
	n, err := q.Len(bg)
	if err != nil {
		t.Errorf("Len: %v", err)
	}
	return n
}

func maxAttempts(t testing.TB, q *durable.Queue) int {
	n, err := q.MaxAttempts(bg)
	if err != nil {
		t.Errorf("MaxAttempts: %v", err)
	}
	return n
}

func previewRedrive(t testing.TB, q *durable.Queue, sel core.Selector) core.RedrivePreview {
	p, err := q.PreviewRedrive(bg, sel)
	if err != nil {
		t.Errorf("PreviewRedrive: %v", err)
	}
	return p
}

func alerting(t testing.TB, q *durable.Queue) bool {
	on, err := q.Alerting(bg)
	if err != nil {
		t.Errorf("Alerting: %v", err)
	}
	return on
}

func redriving(t testing.TB, q *durable.Queue) (core.RedriveJob, bool) {
	j, ok, err := q.Redriving(bg)
	if err != nil {
		t.Errorf("Redriving: %v", err)
	}
	return j, ok
}
