package durable_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestArgsAndResultsFlowDownAnETLDAG: downloads carry their URL as
// arguments and leave the rows they fetched as results; each transform
// reads its download's result by name, and the reduce reads every
// transform's. A result written by an attempt that failed is never seen.
func TestArgsAndResultsFlowDownAnETLDAG(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{})
	q := openQueue(t, db, core.Config{MaxAttempts: 2})
	type download struct{ URL string }
	type rows struct{ N int }
	var tasks []durable.NewTask
	var transforms []string
	for i := range 4 {
		args := fmt.Appendf(nil, `{"URL": "https://example.com/%d.csv"}`, i)
		tasks = append(tasks, durable.NewTask{Name: fmt.Sprint("download-", i), Args: args},
			durable.NewTask{Name: fmt.Sprint("transform-", i), Deps: []string{fmt.Sprint("download-", i)}})
		transforms = append(transforms, fmt.Sprint("transform-", i))
	}
	tasks = append(tasks, durable.NewTask{Name: "reduce", Deps: transforms})
	if err := q.SubmitAll(bg, tasks); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	failedOnce := map[string]bool{}
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		switch {
		case strings.HasPrefix(task.Name, "download-"):
			a, err := durable.JSONArgs[download](task)
			if err != nil {
				return core.Permanent(err)
			}
			var n int
			fmt.Sscanf(a.URL, "https://example.com/%d.csv", &n)
			mu.Lock()
			first := !failedOnce[task.Name]
			failedOnce[task.Name] = true
			mu.Unlock()
			if first && n == 0 {
				// A result set by an attempt that fails is not kept.
				if err := task.SetJSONResult(rows{N: -1}); err != nil {
					return err
				}
				return errors.New("flaky network")
			}
			return task.SetJSONResult(rows{N: 10 * (n + 1)})
		case strings.HasPrefix(task.Name, "transform-"):
			r, err := durable.JSONResult[rows](task, "download-"+strings.TrimPrefix(task.Name, "transform-"))
			if err != nil {
				return core.Permanent(err)
			}
			return task.SetJSONResult(rows{N: r.N * 2})
		default:
			sum := 0
			for _, tr := range transforms {
				r, err := durable.JSONResult[rows](task, tr)
				if err != nil {
					return core.Permanent(err)
				}
				sum += r.N
			}
			if len(task.Results) != len(transforms) {
				return core.Permanent(fmt.Errorf("reduce sees results of %d tasks, want %d", len(task.Results), len(transforms)))
			}
			return task.SetJSONResult(rows{N: sum})
		}
	}, durable.WorkerOptions{Workers: 4, OnError: quiet(t)})
	startWorker(t, w)
	waitFor(t, "every task settled", func() bool { _, ok := settledStates(t, q); return ok })
	if dl := deadLetters(t, q); len(dl) > 0 {
		t.Fatalf("dead letters: %+v", dl)
	}
	r, ok, err := q.Result(bg, "reduce")
	if err != nil || !ok {
		t.Fatalf("reduce's result: %q %v %v", r, ok, err)
	}
	if want := `{"N":200}`; string(r) != want { // 2·(10+20+30+40)
		t.Errorf("reduce's result is %s, want %s", r, want)
	}
}

// TestArgsAndResultsAreBounded: arguments over MaxArgs are refused before
// any statement, and so is a result over MaxResult.
func TestArgsAndResultsAreBounded(t *testing.T) {
	t.Parallel()
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	before := c.n.Load()
	err := q.SubmitAll(bg, []durable.NewTask{{Name: "big", Args: make([]byte, durable.MaxArgs+1)}})
	if !errors.Is(err, durable.ErrTooLarge) {
		t.Errorf("arguments of %d bytes: %v, want ErrTooLarge", durable.MaxArgs+1, err)
	}
	if n := c.n.Load() - before; n != 0 {
		t.Errorf("%d statements for a refused submit, want none", n)
	}
	if err := q.SubmitAll(bg, []durable.NewTask{{Name: "ok", Args: make([]byte, durable.MaxArgs)}}); err != nil {
		t.Errorf("arguments of exactly MaxArgs: %v", err)
	}
	ls, err := db.NextBatch(bg, 1)
	if err != nil || len(ls) != 1 {
		t.Fatalf("NextBatch: %v %v", ls, err)
	}
	if err := db.SetResult(bg, ls[0], make([]byte, durable.MaxResult+1)); !errors.Is(err, durable.ErrTooLarge) {
		t.Errorf("a result of %d bytes: %v, want ErrTooLarge", durable.MaxResult+1, err)
	}
	stale := ls[0]
	stale.ID++
	if err := db.SetResult(bg, stale, []byte("x")); !errors.Is(err, core.ErrStaleLease) {
		t.Errorf("a result with a stale lease: %v, want ErrStaleLease", err)
	}
}
