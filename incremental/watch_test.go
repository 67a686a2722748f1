package incremental_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/incremental/strategytest"
)

// TestWatchReportsEveryVisit: a watched strategy reports one node per visit
// it counts, every one a node of the graph, and watching changes no
// decision.
func TestWatchReportsEveryVisit(t *testing.T) {
	for _, name := range incremental.Names() {
		t.Run(name, func(t *testing.T) {
			watched, _ := incremental.New(name)
			plain, _ := incremental.New(name)
			w, ok := watched.(incremental.Watcher)
			if !ok {
				t.Fatalf("%s does not implement Watcher", name)
			}
			var reported int
			var g *strategytest.Graph
			w.Watch(func(v int32) {
				reported++
				if int(v) >= g.Len() || v < 0 {
					t.Fatalf("reported node %d of a graph of %d", v, g.Len())
				}
			})
			g = strategytest.NewGraph()
			g2 := strategytest.NewGraph()
			rng := rand.New(rand.NewPCG(3, 3))
			for i := range 400 {
				task := rng.IntN(60)
				deps := []int{rng.IntN(60), rng.IntN(60), rng.IntN(60)}
				_, a := g.Submit(watched, task, deps...)
				_, b := g2.Submit(plain, task, deps...)
				if (a == nil) != (b == nil) {
					t.Fatalf("step %d: watching changed the decision", i)
				}
			}
			if uint64(reported) != watched.Visits() || watched.Visits() != plain.Visits() {
				t.Fatalf("reported %d nodes for %d visits (unwatched: %d)", reported, watched.Visits(), plain.Visits())
			}
		})
	}
}
