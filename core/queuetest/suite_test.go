package queuetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dagq/dagq/core"
)

// recorder is a runner that records failures instead of failing the test
// that runs it: the suite's own tests run the suite through it against
// wrong queues and assert that it fails them. Fatal ends the subtest's
// goroutine, as testing.T's does; logs are dropped.
type recorder struct {
	testing.TB // the real test, for Helper, Cleanup, TempDir and the like
	name       string
	failed     bool
	book       *book
}

// book is what a recorder and its subtests recorded.
type book struct {
	mu       sync.Mutex
	failures []failure
}

// failure is one message a subtest reported.
type failure struct {
	test, msg string
}

func newRecorder(t testing.TB) *recorder { return &recorder{TB: t, name: "Run", book: &book{}} }

func (r *recorder) Name() string { return r.name }

func (r *recorder) record(msg string) {
	r.failed = true
	r.book.mu.Lock()
	r.book.failures = append(r.book.failures, failure{r.name, msg})
	r.book.mu.Unlock()
}

func (r *recorder) Fail()                             { r.record("Fail") }
func (r *recorder) Failed() bool                      { return r.failed }
func (r *recorder) Error(args ...any)                 { r.record(fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.record(fmt.Sprintf(format, args...)) }
func (r *recorder) FailNow()                          { r.record("FailNow"); runtime.Goexit() }
func (r *recorder) Fatal(args ...any)                 { r.record(fmt.Sprint(args...)); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (r *recorder) Log(args ...any)                        {}
func (r *recorder) Logf(format string, args ...any)        {}
func (r *recorder) Helper()                                {}
func (r *recorder) sub(name string, f func(r runner)) bool { return r.run(r.name+"/"+name, f) }

// run runs f as a subtest on a goroutine of its own and reports whether it
// passed.
func (r *recorder) run(name string, f func(r runner)) bool {
	child := &recorder{TB: r.TB, name: name, book: r.book}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(child)
	}()
	<-done
	if child.failed {
		r.failed = true
	}
	return !child.failed
}

// failed returns the subtests that reported failures, each once, in order.
func (b *book) failedTests() []string {
	var ts []string
	for _, f := range b.failures {
		if !slices.Contains(ts, f.test) {
			ts = append(ts, f.test)
		}
	}
	return ts
}

// wrong is a core.Queue, through Memory, that breaks one rule.
type wrong struct {
	Queue
	q      *core.Queue
	breaks string
}

func (w wrong) ReadyTasks(ctx context.Context) ([]string, error) {
	ready := w.q.ReadyTasks()
	if w.breaks == "lifo" {
		slices.Reverse(ready)
	}
	return ready, nil
}

func (w wrong) Complete(ctx context.Context, l core.Lease) error {
	if cur, ok := w.q.Lease(l.Task); ok && w.breaks == "no fencing" {
		l = cur // any lease of a running task completes it
	}
	return w.q.Complete(l)
}

func (w wrong) Heartbeat(ctx context.Context, l core.Lease) (core.Lease, error) {
	if cur, ok := w.q.Lease(l.Task); ok && w.breaks == "heartbeat renews nothing" && cur.ID == l.ID && cur.Attempt == l.Attempt {
		if lt := w.q.Config().LeaseTimeout; lt > 0 {
			cur.Deadline = w.q.Now() + lt
		}
		return cur, nil
	}
	return w.q.Heartbeat(l)
}

func (w wrong) Fail(ctx context.Context, l core.Lease, err error) (core.State, error) {
	if w.breaks == "permanent errors retried" && core.IsPermanent(err) {
		err = errors.New(err.Error())
	}
	return w.q.Fail(l, err)
}

func (w wrong) Status(ctx context.Context, task string) (core.State, bool, error) {
	s, ok := w.q.Status(task)
	if s == core.Blocked && w.breaks == "blocks one level only" {
		info, _ := w.q.Info(task)
		if !slices.Contains(info.Deps, info.DeadLetter.Root) {
			return core.Pending, ok, nil
		}
	}
	return s, ok, nil
}

func (w wrong) DeadLetters(ctx context.Context) ([]core.DeadLetter, error) {
	dlq := w.q.DeadLetters()
	if w.breaks == "dead letters in no order" && len(dlq) > 1 {
		slices.SortFunc(dlq, func(a, b core.DeadLetter) int { return strings.Compare(a.Task, b.Task) })
	}
	return dlq, nil
}

// openWrong opens core.Queues that break one rule.
func openWrong(breaks string) Open {
	return func(t testing.TB, cfg core.Config) (Queue, error) {
		q, err := core.New(cfg)
		if err != nil {
			return nil, err
		}
		return wrong{Memory(q), q, breaks}, nil
	}
}

// TestTheSuiteFailsWrongQueues runs the suite against queues that each
// break one rule of core's package documentation, and checks that it reports each, and that
// the random sequences alone find each, with the seed that replays them.
// A queue that breaks nothing passes.
func TestTheSuiteFailsWrongQueues(t *testing.T) {
	t.Run("ACorrectQueuePasses", func(t *testing.T) {
		rec := newRecorder(t)
		rec.run("Run", func(r runner) { run(r, openWrong("")) })
		if len(rec.book.failures) > 0 {
			t.Errorf("the suite failed core.Queue: %+v", rec.book.failures)
		}
	})
	for _, breaks := range []string{"lifo", "no fencing", "heartbeat renews nothing", "permanent errors retried",
		"blocks one level only", "dead letters in no order"} {
		t.Run(strings.ReplaceAll(breaks, " ", "_"), func(t *testing.T) {
			rec := newRecorder(t)
			rec.run("Run", func(r runner) { run(r, openWrong(breaks)) })
			failed := rec.book.failedTests()
			if len(failed) == 0 {
				t.Fatalf("the suite passed a queue whose %s", breaks)
			}
			t.Logf("failed %q", failed)
			i := slices.IndexFunc(rec.book.failures, func(f failure) bool { return f.test == "Run/RandomSequences" })
			if i < 0 {
				t.Fatalf("the random sequences passed a queue whose %s", breaks)
			}
			msg := rec.book.failures[i].msg
			if !strings.Contains(msg, "-queuetest.seed=") || !strings.Contains(msg, "a shorter sequence") {
				t.Errorf("the random sequences' report has no seed to rerun or no shorter sequence:\n%s", msg)
			}
			t.Logf("the random sequences report:\n%s", msg)
		})
	}
}

// TestASeedRepeatsItsSequence: a sequence is a function of its seed, so a
// printed seed replays the very sequence that failed.
func TestASeedRepeatsItsSequence(t *testing.T) {
	open := openWrong("")
	for i := range 3 {
		seed := sequenceSeed(i)
		a, err := runSequence(t, open, seed, 100)
		if err != nil {
			t.Fatal(err)
		}
		b, err := runSequence(t, open, seed, 100)
		if err != nil {
			t.Fatal(err)
		}
		if x, y := script(a.cfg, a.ops), script(b.cfg, b.ops); x != y {
			t.Fatalf("seed %d made two sequences:\n%s\nand\n%s", seed, x, y)
		}
		if i > 0 && seed == sequenceSeed(i-1) {
			t.Fatalf("sequences %d and %d share the seed %d", i-1, i, seed)
		}
	}
}

// TestTheSeedComesFromTheEnvironment: DAGQ_QUEUETEST_SEED replays a
// sequence where flags cannot be passed, in decimal or hexadecimal, and a
// value that is no number is an error, not a silent full run.
func TestTheSeedComesFromTheEnvironment(t *testing.T) {
	if *seedFlag != 0 {
		t.Skip("-queuetest.seed is set")
	}
	for _, tt := range []struct {
		env  string
		want uint64
		ok   bool
	}{{"", 0, true}, {"42", 42, true}, {"0x2a", 42, true}, {"forty-two", 0, false}} {
		t.Setenv(seedEnv, tt.env)
		got, err := replaySeed()
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%s=%q: %d, %v; want %d, ok %v", seedEnv, tt.env, got, err, tt.want, tt.ok)
		}
	}
}
