package render

import (
	"math/rand/v2"
	"testing"
)

// moved counts the tasks of before that are somewhere else in after.
func moved(before, after Layout) int {
	n := 0
	for name, p := range before.Pos {
		if after.Pos[name] != p {
			n++
		}
	}
	return n
}

// The playground tweens every box from its old position to its new one
// when a task arrives, so an arrival must leave most boxes where they were
// and show the new task land among them rather than the drawing shuffle.
func TestAddingATaskMovesFewBoxes(t *testing.T) {
	t.Parallel()
	const n, seeds, few = 50, 200, 3
	for _, c := range []struct {
		name string
		deps int // the new task waits on this many random earlier tasks
	}{
		{"ALeafWaitingOnThree", 3},
		{"ALeafWaitingOnOne", 1},
		{"ARoot", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			total, worst := 0, 0
			for seed := range uint64(seeds) {
				nodes := random3(n, seed)
				before := LayOut(nodes)
				r := rand.New(rand.NewPCG(seed, 7))
				task := Node{Name: "new"}
				for range c.deps {
					task.Deps = append(task.Deps, nodes[r.IntN(n)].Name)
				}
				m := moved(before, LayOut(append(nodes, task)))
				total += m
				if m > few {
					t.Errorf("seed %d: adding %v moved %d of %d boxes, want at most %d", seed, task, m, n, few)
				}
				worst = max(worst, m)
			}
			t.Logf("%d-task random graphs, %d seeds: %.2f boxes moved on average, %d at worst",
				n, seeds, float64(total)/seeds, worst)
		})
	}
}

// When a task arrives that others already named as a dependency, they
// drop below it, and their layer may make room for them; what lies above
// stays put.
func TestADependencyArrivingLateMovesNothingAboveIt(t *testing.T) {
	t.Parallel()
	nodes := []Node{{"fetch", nil}, {"parse", []string{"fetch", "auth"}}, {"index", []string{"fetch"}}, {"report", []string{"index"}}}
	before := LayOut(nodes)
	after := LayOut(append(nodes, Node{Name: "auth"}))
	if before.Pos["fetch"] != after.Pos["fetch"] {
		t.Errorf("fetch moved from %v to %v", before.Pos["fetch"], after.Pos["fetch"])
	}
	if after.Layer["parse"] != 1 || after.Layer["auth"] != 0 {
		t.Errorf("layers %v, want parse under auth", after.Layer)
	}
}
