package durable_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// asTasks is a shape's submits as NewTasks.
func asTasks(subs [][]string) []durable.NewTask {
	out := make([]durable.NewTask, len(subs))
	for i, s := range subs {
		out[i] = durable.NewTask{Name: s[0], Deps: s[1:]}
	}
	return out
}

// TestSubmitAllIsSubmitsInARow: every shape, submitted whole with
// SubmitAll into one DAG and task by task into another, gives the same
// events, states and READY line, and the two hand out the same tasks in
// the same order when run to the end; and SubmitAll takes as many
// statements (BEGIN and COMMIT included) for 200 tasks as for 50.
func TestSubmitAllIsSubmitsInARow(t *testing.T) {
	t.Parallel()
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c, VirtualClock: true})
	statements := map[int]int64{}
	for _, n := range []int{50, 200} {
		for _, sh := range shapes {
			t.Run(fmt.Sprintf("%s-%d", sh.name, n), func(t *testing.T) {
				subs := sh.build(n)
				var evBulk, evOne []core.Event
				bulk := openQueue(t, db, core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) { evBulk = append(evBulk, e) }})
				one := openQueue(t, db, core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) { evOne = append(evOne, e) }})
				before := c.n.Load()
				if err := bulk.SubmitAll(bg, asTasks(subs)); err != nil {
					t.Fatal(err)
				}
				if sh.name == "random" {
					statements[n] = c.n.Load() - before
				}
				for _, s := range subs {
					if err := one.Submit(bg, s[0], s[1:]...); err != nil {
						t.Fatal(err)
					}
				}
				compareQueues(t, bulk, one)
				if len(evBulk) != len(evOne) {
					t.Fatalf("%d events in bulk, %d one by one", len(evBulk), len(evOne))
				}
				for i := range evBulk {
					a, b := evBulk[i], evOne[i]
					if a.Kind != b.Kind || a.Task != b.Task || a.To != b.To || !slices.Equal(a.Deps, b.Deps) {
						t.Fatalf("event %d: %v in bulk, %v one by one", i, a, b)
					}
				}
				// Run both to the end, in step.
				for {
					la, oka := next(t, bulk)
					lb, okb := next(t, one)
					if oka != okb || la.Task != lb.Task {
						t.Fatalf("handed out %q %v in bulk, %q %v one by one", la.Task, oka, lb.Task, okb)
					}
					if !oka {
						break
					}
					if err := bulk.Complete(bg, la); err != nil {
						t.Fatal(err)
					}
					if err := one.Complete(bg, lb); err != nil {
						t.Fatal(err)
					}
				}
				compareQueues(t, bulk, one)
			})
		}
	}
	if statements[50] != statements[200] || statements[200] == 0 || statements[200] > 9 {
		t.Errorf("SubmitAll of a random DAG took %d statements at 50 tasks, %d at 200: want the same, at most 9", statements[50], statements[200])
	}
	t.Logf("SubmitAll of a random DAG: %d statements at 50 tasks and at 200", statements[200])
}

// compareQueues fails the test if two DAGs differ in their tasks' states,
// READY lines or dead-letter queues.
func compareQueues(t *testing.T, a, b *durable.Queue) {
	t.Helper()
	sa, err := a.States(bg)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.States(bg)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sa) != fmt.Sprint(sb) {
		t.Fatalf("states differ:\n  bulk %v\n  one by one %v", sa, sb)
	}
	if ra, rb := readyTasks(t, a), readyTasks(t, b); !slices.Equal(ra, rb) {
		t.Fatalf("READY lines differ:\n  bulk %v\n  one by one %v", ra, rb)
	}
	if da, dbl := deadLetters(t, a), deadLetters(t, b); fmt.Sprint(da) != fmt.Sprint(dbl) {
		t.Fatalf("dead letters differ:\n  bulk %v\n  one by one %v", da, dbl)
	}
}

// TestSubmitAllOfWhatIsNotNew: batches the bulk path does not take — a
// name the DAG knows, a dependency DEAD, a cycle among them, an empty name
// — are submitted task by task, with the same outcome as Submits in a row.
func TestSubmitAllOfWhatIsNotNew(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	setup := func(q *durable.Queue) {
		for _, s := range [][]string{{"later", "x"}, {"dead"}} {
			if err := q.Submit(bg, s[0], s[1:]...); err != nil {
				t.Fatal(err)
			}
		}
		l, ok := next(t, q)
		if !ok || l.Task != "dead" {
			t.Fatalf("handed out %v, %v", l, ok)
		}
		if _, err := q.Fail(bg, l, core.Permanent(fmt.Errorf("gone"))); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		batch [][]string
		err   error
	}{
		{"AKnownName", [][]string{{"x", "a"}, {"a"}}, nil},
		{"ADeadDependency", [][]string{{"b", "dead"}, {"c", "b"}}, nil},
		{"ACycle", [][]string{{"p", "q"}, {"q", "p"}}, core.ErrCycle},
		{"ADuplicate", [][]string{{"d"}, {"d"}}, core.ErrDuplicate},
		{"AnEmptyName", [][]string{{"e", ""}}, core.ErrInvalidName},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bulk, one := openQueue(t, db, core.Config{MaxAttempts: 1}), openQueue(t, db, core.Config{MaxAttempts: 1})
			setup(bulk)
			setup(one)
			err := bulk.SubmitAll(bg, asTasks(tc.batch))
			if tc.err != nil {
				if !errErrIs(err, tc.err) {
					t.Fatalf("SubmitAll: %v, want %v", err, tc.err)
				}
				if n := length(t, bulk); n != 2 {
					t.Errorf("%d tasks after a refused batch, want the 2 before", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.batch {
				if err := one.Submit(bg, s[0], s[1:]...); err != nil {
					t.Fatal(err)
				}
			}
			compareQueues(t, bulk, one)
		})
	}
}

// errErrIs is errors.Is, for a table of sentinels.
func errErrIs(err, target error) bool { return errors.Is(err, target) }
