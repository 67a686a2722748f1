package bench

import (
	"fmt"
	"strings"
	"testing"
)

// TestTheRandomDAGLeavesRoomForHalfTheRate says how much BenchmarkDurable's
// random DAG (10⁴ tasks, up to three dependencies each) bounds a queue by
// its shape alone: its levels (a task's level is one more than its
// deepest dependency's), and the rounds a queue with w workers would need
// if every round ran up to w READY tasks at once and freed their
// dependents for the next, against n/w rounds for independent tasks. At
// 100 workers that ratio must stay at least 0.5, or the goal "a random DAG
// keeps half the independent rate" would be out of any queue's reach and
// the benchmark's DAG unfair.
func TestTheRandomDAGLeavesRoomForHalfTheRate(t *testing.T) {
	tasks := random(durableTasks, seed)
	deps := map[string][]string{}
	dependents := map[string][]string{}
	for _, task := range tasks {
		deps[task.Name] = task.Deps
		for _, d := range task.Deps {
			dependents[d] = append(dependents[d], task.Name)
		}
	}
	level := map[string]int{}
	var levelOf func(string) int
	levelOf = func(name string) int {
		if l, ok := level[name]; ok {
			return l
		}
		l := 0
		for _, d := range deps[name] {
			l = max(l, levelOf(d)+1)
		}
		level[name] = l
		return l
	}
	var widths []int
	for _, task := range tasks {
		l := levelOf(task.Name)
		for len(widths) <= l {
			widths = append(widths, 0)
		}
		widths[l]++
	}
	var w strings.Builder
	for _, n := range widths {
		fmt.Fprintf(&w, " %d", n)
	}
	t.Logf("%d levels, widths:%s", len(widths), w.String())

	// rounds runs the DAG in rounds of up to workers READY tasks, in READY
	// order.
	rounds := func(workers int) int {
		waiting := map[string]int{}
		var ready []string
		for _, task := range tasks {
			waiting[task.Name] = len(task.Deps)
			if len(task.Deps) == 0 {
				ready = append(ready, task.Name)
			}
		}
		r := 0
		for len(ready) > 0 {
			k := min(workers, len(ready))
			var next []string
			for _, name := range ready[:k] {
				for _, d := range dependents[name] {
					if waiting[d]--; waiting[d] == 0 {
						next = append(next, d)
					}
				}
			}
			ready = append(ready[k:], next...)
			r++
		}
		return r
	}
	for _, workers := range durableWorkers {
		ideal := (len(tasks) + workers - 1) / workers
		got := rounds(workers)
		ratio := float64(ideal) / float64(got)
		t.Logf("%d workers: %d rounds, %d for independent tasks: at most %.2f× the independent rate", workers, got, ideal, ratio)
		if workers == 100 && ratio < 0.5 {
			t.Errorf("at 100 workers the random DAG's shape alone allows only %.2f× the independent rate", ratio)
		}
	}
}
