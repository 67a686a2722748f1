package incremental_test

import (
	"errors"
	"testing"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/incremental/strategytest"
)

// FuzzStrategies drives every strategy through the same submits, read from
// the bytes: a task, a count of deps (0 to 4) and the deps, all names below
// 16. Every strategy must make the same decision on every submit; a refused
// submit must come with a real cycle, and a strategy that keeps an order
// must keep it topological.
func FuzzStrategies(f *testing.F) {
	f.Fuzz(func(t *testing.T, ops []byte) {
		names := incremental.Names()
		type run struct {
			s incremental.Strategy
			g *strategytest.Graph
		}
		runs := make([]run, len(names))
		for i, name := range names {
			s, err := incremental.New(name)
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = run{s, strategytest.NewGraph()}
		}
		for len(ops) >= 2 {
			task, n := int(ops[0]%16), int(ops[1]%5)
			ops = ops[2:]
			n = min(n, len(ops))
			deps := make([]int, n)
			for i := range deps {
				deps[i] = int(ops[i] % 16)
			}
			ops = ops[n:]
			var first string
			for i, r := range runs {
				cycle, err := r.g.Submit(r.s, task, deps...)
				got := outcome(cycle, err)
				if i == 0 {
					first = got
				} else if got != first {
					t.Fatalf("submit %d %v: %s %s, but %s %s", task, deps, names[0], first, names[i], got)
				}
				if cycle != nil {
					if err := r.g.CheckCycle(task, deps, cycle); err != nil {
						t.Fatalf("%s: submit %d %v: %v", names[i], task, deps, err)
					}
				}
				if o, ok := r.s.(incremental.Orderer); ok {
					if err := r.g.CheckOrder(o); err != nil {
						t.Fatalf("%s: submit %d %v: %v", names[i], task, deps, err)
					}
				}
			}
		}
	})
}

func outcome(cycle []int, err error) string {
	switch {
	case errors.Is(err, strategytest.ErrDuplicate):
		return "duplicate"
	case errors.Is(err, strategytest.ErrSelf):
		return "self"
	case err != nil:
		return err.Error()
	case cycle != nil:
		return "refused"
	}
	return "accepted"
}
