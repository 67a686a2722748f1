package durabletest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/durable/durabletest"
	"github.com/dagq/dagq/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestTheSameSeedMakesTheSameHistory runs histories of eight seeds twice,
// on two DAGs, and compares every task's state and the dead-letter queue;
// over them, the histories must reach SUCCEEDED, DEAD and BLOCKED, or they
// prove little to the tests that use them.
func TestTheSameSeedMakesTheSameHistory(t *testing.T) {
	ctx := context.Background()
	db, err := durable.Open(ctx, pgtest.New(t), durable.Options{VirtualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	seen := map[core.State]int{}
	for seed := range uint64(8) {
		var states [2][]string
		var dlq [2][]core.DeadLetter
		for side := range 2 {
			q, err := db.Queue(ctx, fmt.Sprintf("seed-%d-%d", seed, side), core.Config{MaxAttempts: 2})
			if err != nil {
				t.Fatal(err)
			}
			h := durabletest.NewHistory(q, rand.New(rand.NewPCG(seed, 0)), 24)
			if err := h.Run(ctx, 150); err != nil {
				t.Fatal(err)
			}
			for i := range 26 {
				st, ok, err := q.Status(ctx, fmt.Sprint("t", i))
				if err != nil {
					t.Fatal(err)
				}
				states[side] = append(states[side], fmt.Sprint(st, ok))
				if side == 0 && ok {
					seen[st]++
				}
			}
			if dlq[side], err = q.DeadLetters(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(states[0], states[1]) {
			t.Errorf("seed %d: two runs end in different states:\n%v\n%v", seed, states[0], states[1])
		}
		if !slices.EqualFunc(dlq[0], dlq[1], func(a, b core.DeadLetter) bool { return a.Task == b.Task && a.Reason == b.Reason }) {
			t.Errorf("seed %d: two runs end with different dead letters:\n%v\n%v", seed, dlq[0], dlq[1])
		}
	}
	t.Logf("states over the histories: %v", seen)
	if seen[core.Succeeded] == 0 || seen[core.Dead] == 0 || seen[core.Blocked] == 0 {
		t.Errorf("the histories reach %v: want SUCCEEDED, DEAD and BLOCKED tasks", seen)
	}
}

// TestExample runs Example, which has no Output line (it needs a server),
// and checks what it prints; without PostgreSQL it is skipped.
func TestExample(t *testing.T) {
	if got := pgtest.Output(t, Example); got != exampleOutput {
		t.Errorf("Example printed\n%s\nwant\n%s", got, exampleOutput)
	}
}

const exampleOutput = "SUCCEEDED: 5\nDEAD: 4\nBLOCKED: 12\n"
