package durable_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestConformanceArgsAndResults is the conformance suite's durable part:
// what the durable queue adds to core's contract, arguments and results,
// each point checked through a Worker as a handler sees them.
//
//   - A task's arguments reach each of its attempts byte for byte (any
//     bytes, not only JSON); a task submitted without arguments has nil.
//   - A dependency's result reaches its dependents' handlers under its
//     name: the last SetResult of the attempt that succeeded. A result set
//     by an attempt that failed is never seen, nor is a result refused for
//     its size (over MaxResult: ErrTooLarge, nothing kept); a dependency
//     that set none has no entry.
//   - Queue.Result reads the result of a SUCCEEDED task; none without one.
//   - Arguments over MaxArgs are refused, with ErrTooLarge, before anything
//     is written; exactly MaxArgs are taken.
func TestConformanceArgsAndResults(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 2})
	binary := []byte{0, 1, 2, 0xff, '"', '\\', 0}
	tasks := []durable.NewTask{
		{Name: "a", Args: binary},
		{Name: "b"},
		{Name: "c", Args: []byte(`{"n": 3}`)},
		{Name: "d", Deps: []string{"a", "b", "c"}},
	}
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Fatal(err)
	}

	type seen struct {
		args    []byte
		results map[string][]byte
		attempt int
	}
	var mu sync.Mutex
	runs := map[string][]seen{}
	var tooLarge error
	w := durable.NewWorker(db, func(_ context.Context, task durable.Task) error {
		mu.Lock()
		results := map[string][]byte{}
		for k, v := range task.Results {
			results[k] = bytes.Clone(v)
		}
		runs[task.Name] = append(runs[task.Name], seen{bytes.Clone(task.Args), results, task.Attempt})
		mu.Unlock()
		switch task.Name {
		case "a":
			if task.Attempt == 1 {
				if err := task.SetResult([]byte("from the attempt that failed")); err != nil {
					return err
				}
				return errors.New("flaky")
			}
			if err := task.SetResult([]byte("overwritten")); err != nil {
				return err
			}
			return task.SetResult([]byte("a's result"))
		case "c":
			mu.Lock()
			tooLarge = task.SetResult(make([]byte, durable.MaxResult+1))
			mu.Unlock()
			return nil
		}
		return nil
	}, durable.WorkerOptions{Workers: 2, OnError: quiet(t)})
	stop := startWorker(t, w)
	waitFor(t, "every task to complete", func() bool { return w.Stats().Completed == 4 })
	stop()

	mu.Lock()
	defer mu.Unlock()
	if len(runs["a"]) != 2 {
		t.Fatalf("a ran %d times, want 2 (a failure, then a success)", len(runs["a"]))
	}
	for _, r := range runs["a"] {
		if !bytes.Equal(r.args, binary) {
			t.Errorf("a's attempt %d had the arguments %q, want %q", r.attempt, r.args, binary)
		}
	}
	if r := runs["b"]; len(r) != 1 || r[0].args != nil {
		t.Errorf("b, submitted without arguments, ran with %v, want nil", r)
	}
	if r := runs["c"]; len(r) != 1 || string(r[0].args) != `{"n": 3}` {
		t.Errorf("c ran with %v", r)
	}
	if !errors.Is(tooLarge, durable.ErrTooLarge) {
		t.Errorf("a result of MaxResult+1 bytes: %v, want ErrTooLarge", tooLarge)
	}
	if r := runs["d"]; len(r) != 1 || len(r[0].results) != 1 || string(r[0].results["a"]) != "a's result" || r[0].args != nil {
		t.Errorf("d ran with %+v, want the results {a: a's result} and no arguments", r)
	}
	for task, want := range map[string]string{"a": "a's result", "b": "", "c": "", "d": ""} {
		got, ok, err := q.Result(bg, task)
		if err != nil || ok != (want != "") || string(got) != want {
			t.Errorf("Result(%s) = %q, %v, %v; want %q", task, got, ok, err, want)
		}
	}

	if err := q.SubmitAll(bg, []durable.NewTask{{Name: "big", Args: make([]byte, durable.MaxArgs+1)}}); !errors.Is(err, durable.ErrTooLarge) {
		t.Errorf("arguments of MaxArgs+1 bytes: %v, want ErrTooLarge", err)
	}
	if st, ok, err := q.Status(bg, "big"); err != nil || ok {
		t.Errorf("the refused task is %q (%v), want unknown", st, err)
	}
	if err := q.SubmitAll(bg, []durable.NewTask{{Name: "most", Args: make([]byte, durable.MaxArgs)}}); err != nil {
		t.Errorf("arguments of exactly MaxArgs bytes: %v", err)
	}
}
