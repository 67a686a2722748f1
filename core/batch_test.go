package core_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

func TestSubmitBatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		before string // ops on the queue first
		batch  []core.Task
		err    error
		path   string // the cycle, for ErrCycle
		want   string
	}{
		{"AcceptsTasksInAnyOrder", "", []core.Task{{"c", []string{"b"}}, {"b", []string{"a"}}, {"a", nil}}, nil, "",
			"c:PENDING b:PENDING a:READY | dlq | ready a"},
		{"RefusesACycleInsideTheBatch", "submit x", []core.Task{{"a", []string{"b"}}, {"b", []string{"c"}}, {"c", []string{"a", "x"}}}, core.ErrCycle,
			"cycle: a -> b -> c -> a", "x:READY | dlq | ready x"},
		{"RefusesACycleThroughAWaitingTask", "submit w b", []core.Task{{"a", nil}, {"b", []string{"a", "w"}}}, core.ErrCycle,
			"cycle: b -> w -> b", "w:PENDING | dlq | ready"},
		{"RefusesASelfDependency", "", []core.Task{{"a", nil}, {"b", []string{"b"}}}, core.ErrCycle,
			"cycle: b -> b", "| dlq | ready"},
		{"RefusesANameTwice", "", []core.Task{{"a", nil}, {"a", nil}}, core.ErrDuplicate, "",
			"| dlq | ready"},
		{"RefusesATaskAlreadySubmitted", "submit a", []core.Task{{"b", nil}, {"a", nil}}, core.ErrDuplicate, "",
			"a:READY | dlq | ready a"},
		{"BlocksOnArrivalLikeSubmit", "submit a\nsubmit w b\nnext\nfail a x", []core.Task{{"b", []string{"a"}}, {"c", []string{"b"}}}, nil, "",
			"a:DEAD w:BLOCKED b:BLOCKED c:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] [w blocked by a] [c blocked by a] | ready"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, _ := core.New(core.Config{MaxAttempts: 1})
			if tt.before != "" {
				ops(t, q, tt.before)
			}
			err := q.SubmitBatch(tt.batch)
			if !errors.Is(err, tt.err) {
				t.Fatalf("SubmitBatch: %v, want %v", err, tt.err)
			}
			if tt.path != "" && err.Error() != tt.path {
				t.Errorf("error %q, want %q", err, tt.path)
			}
			if got := view(q); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if err != nil { // refused: refused again, nothing changed
				if err2 := q.SubmitBatch(tt.batch); err2 == nil || err2.Error() != err.Error() {
					t.Errorf("second try: %v, want %v", err2, err)
				}
			}
		})
	}
}

// TestSubmitBatchAgreesWithSubmit: a batch is accepted exactly when
// submitting its tasks one by one would accept them all, and then leaves the
// queue as they would; refused, it leaves the queue as it was.
func TestSubmitBatchAgreesWithSubmit(t *testing.T) {
	t.Parallel()
	const seed = 7
	rng := rand.New(rand.NewPCG(seed, seed))
	for round := range 2000 {
		names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
		strategy := incremental.Names()[round%len(incremental.Names())]
		batchQ, _ := core.New(core.Config{MaxAttempts: 1, Strategy: strategy})
		oneQ, _ := core.New(core.Config{MaxAttempts: 1, Strategy: strategy})
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		// Some tasks first, on both queues; one may die.
		pre := rng.IntN(4)
		preDeps := make([][]string, pre)
		for i := range pre {
			preDeps[i] = randomDeps(rng.IntN, names)
		}
		for _, q := range []*core.Queue{batchQ, oneQ} {
			for i := range pre {
				q.Submit(names[i], preDeps[i]...)
			}
			if l, ok := q.Next(); ok && round%3 == 0 {
				q.Fail(l, errors.New("x"))
			}
		}
		var batch []core.Task
		for _, n := range names[pre : pre+1+rng.IntN(len(names)-pre)] {
			batch = append(batch, core.Task{Name: n, Deps: randomDeps(rng.IntN, names)})
		}
		before := view(batchQ)
		err := batchQ.SubmitBatch(batch)
		all := true
		for _, task := range batch {
			if oneQ.Submit(task.Name, task.Deps...) != nil {
				all = false
			}
		}
		switch {
		case all != (err == nil):
			t.Fatalf("round %d (seed %d): batch %v: err %v, one by one all accepted %v", round, seed, batch, err, all)
		case err == nil && view(batchQ) != view(oneQ):
			t.Fatalf("round %d (seed %d): batch %v\n got %s\nwant %s", round, seed, batch, view(batchQ), view(oneQ))
		case err != nil && view(batchQ) != before:
			t.Fatalf("round %d (seed %d): refused batch %v changed the queue\n got %s\nwant %s", round, seed, batch, view(batchQ), before)
		}
		var ce *core.CycleError
		if errors.As(err, &ce) && (len(ce.Path) < 2 || ce.Path[0] != ce.Path[len(ce.Path)-1]) {
			t.Fatalf("round %d: cycle %v is not closed", round, ce.Path)
		}
	}
}

func randomDeps(intN func(int) int, names []string) []string {
	var deps []string
	for range intN(3) {
		deps = append(deps, names[intN(len(names))])
	}
	return slices.Clip(deps)
}

func ExampleQueue_SubmitBatch() {
	q, _ := core.New(core.Config{MaxAttempts: 3})
	err := q.SubmitBatch([]core.Task{
		{Name: "report", Deps: []string{"parse"}},
		{Name: "parse", Deps: []string{"fetch"}},
		{Name: "fetch", Deps: []string{"report"}},
	})
	fmt.Println(err)
	fmt.Println(q.Len())
	// Output:
	// cycle: report -> parse -> fetch -> report
	// 0
}
