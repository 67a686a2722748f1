package core_test

import (
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// TestSubmitDoesNotAllocateOnceWarm: with no event observer, submitting,
// handing out and completing tasks allocates nothing per task beyond the
// amortized growth of the queue's tables, on a chain and on a wide graph,
// under every strategy.
func TestSubmitDoesNotAllocateOnceWarm(t *testing.T) {
	const n = 5000
	names := make([]string, n+1)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i)
	}
	for _, strategy := range incremental.Names() {
		for _, shape := range []string{"chain", "wide"} {
			t.Run(strategy+"/"+shape, func(t *testing.T) {
				q, err := core.New(core.Config{MaxAttempts: 3, Strategy: strategy})
				if err != nil {
					t.Fatal(err)
				}
				q.Submit(names[0])
				i := 1
				allocs := testing.AllocsPerRun(n-1, func() {
					dep := names[i-1]
					if shape == "wide" {
						dep = names[0]
					}
					if err := q.Submit(names[i], dep); err != nil {
						t.Fatal(err)
					}
					i++
				})
				if allocs > 0 {
					t.Errorf("Submit allocates %.2f times per task once warm, want 0", allocs)
				}
				allocs = testing.AllocsPerRun(n-1, func() {
					l, ok := q.Next()
					if !ok {
						t.Fatal("nothing READY")
					}
					if err := q.Complete(l); err != nil {
						t.Fatal(err)
					}
				})
				if allocs > 0 {
					t.Errorf("Next+Complete allocate %.2f times per task, want 0", allocs)
				}
			})
		}
	}
}
