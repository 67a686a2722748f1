package strategytest

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/incremental"
)

// Errors of [Graph.Submit] for submits the strategy never sees.
var (
	ErrDuplicate = errors.New("strategytest: task already submitted")
	ErrSelf      = errors.New("strategytest: task waits on itself")
)

// Graph is a small graph for testing strategies, driven the way package
// core drives them. Tasks are named by ints and interned to dense ids on
// first sight, as a task or as a dependency; a submit the strategy refuses
// forgets the ids it made, so the next submit reuses them.
//
// Graph implements [incremental.Graph].
type Graph struct {
	ids        map[int]int32
	names      []int
	arrived    []bool
	deps       [][]int32
	dependents [][]int32
	scratch    []int32
}

// NewGraph returns an empty graph.
func NewGraph() *Graph { return &Graph{ids: make(map[int]int32)} }

// Len implements [incremental.Graph].
func (g *Graph) Len() int { return len(g.names) }

// Deps implements [incremental.Graph].
func (g *Graph) Deps(v int32) []int32 { return g.deps[v] }

// Dependents implements [incremental.Graph].
func (g *Graph) Dependents(v int32) []int32 { return g.dependents[v] }

// ID returns the id of a name the graph has seen.
func (g *Graph) ID(name int) (int32, bool) {
	v, ok := g.ids[name]
	return v, ok
}

// Name returns the name of an id.
func (g *Graph) Name(v int32) int { return g.names[v] }

// Arrived reports whether the task has been submitted.
func (g *Graph) Arrived(name int) bool {
	v, ok := g.ids[name]
	return ok && g.arrived[v]
}

// Edges calls yield for every edge, a task and a dependency it waits on, by
// name.
func (g *Graph) Edges(yield func(task, dep int)) {
	for v, ds := range g.deps {
		for _, d := range ds {
			yield(g.names[v], g.names[d])
		}
	}
}

// Submit adds task, waiting on deps, checked by s: duplicate deps are
// dropped, a task already submitted is refused with [ErrDuplicate] and one
// that waits on itself with [ErrSelf], both before s is asked. If s returns
// a cycle, Submit forgets the ids it made and returns the cycle by name;
// otherwise it adds the edges. In a returned cycle -1 stands for an id out
// of the graph's range, so names should not be negative.
func (g *Graph) Submit(s incremental.Strategy, task int, deps ...int) (cycle []int, err error) {
	if g.Arrived(task) {
		return nil, ErrDuplicate
	}
	known := g.Len()
	v := g.intern(task)
	ids := g.scratch[:0]
	for _, name := range deps {
		d := g.intern(name)
		dup := false
		for _, x := range ids {
			dup = dup || x == d
		}
		if !dup {
			ids = append(ids, d)
		}
	}
	g.scratch = ids
	for _, d := range ids {
		if d == v {
			g.forget(known)
			return nil, ErrSelf
		}
	}
	if c := s.Insert(g, v, ids); c != nil {
		cycle = make([]int, len(c))
		for i, x := range c {
			cycle[i] = -1
			if x >= 0 && int(x) < g.Len() {
				cycle[i] = g.names[x]
			}
		}
		g.forget(known)
		return cycle, nil
	}
	g.arrived[v] = true
	g.deps[v] = append([]int32(nil), ids...)
	for _, d := range ids {
		g.dependents[d] = append(g.dependents[d], v)
	}
	return nil, nil
}

func (g *Graph) intern(name int) int32 {
	if v, ok := g.ids[name]; ok {
		return v
	}
	v := int32(len(g.names))
	g.ids[name] = v
	g.names = append(g.names, name)
	g.arrived = append(g.arrived, false)
	g.deps = append(g.deps, nil)
	g.dependents = append(g.dependents, nil)
	return v
}

// forget drops the ids from n on.
func (g *Graph) forget(n int) {
	for _, name := range g.names[n:] {
		delete(g.ids, name)
	}
	g.names = g.names[:n]
	g.arrived = g.arrived[:n]
	g.deps = g.deps[:n]
	g.dependents = g.dependents[:n]
}

// CheckCycle reports whether cycle, returned for a refused submit of task
// with deps, is a path task, d, …, task along edges of the graph plus the
// new ones, d one of deps, repeating no node but task.
func (g *Graph) CheckCycle(task int, deps, cycle []int) error {
	if len(cycle) < 3 || cycle[0] != task || cycle[len(cycle)-1] != task {
		return fmt.Errorf("cycle %v does not go from %d back to it", cycle, task)
	}
	found := false
	for _, d := range deps {
		found = found || d == cycle[1]
	}
	if !found {
		return fmt.Errorf("cycle %v does not start with one of the deps %v of %d", cycle, deps, task)
	}
	seen := make(map[int]bool, len(cycle))
	for i := 1; i < len(cycle)-1; i++ {
		x := cycle[i]
		if seen[x] || x == task {
			return fmt.Errorf("cycle %v repeats %d", cycle, x)
		}
		seen[x] = true
		if !g.waitsOn(x, cycle[i+1]) {
			return fmt.Errorf("cycle %v: %d does not wait on %d", cycle, x, cycle[i+1])
		}
	}
	return nil
}

func (g *Graph) waitsOn(a, b int) bool {
	va, ok := g.ids[a]
	if !ok {
		return false
	}
	for _, d := range g.deps[va] {
		if g.names[d] == b {
			return true
		}
	}
	return false
}

// CheckOrder reports whether o puts every dependency before the tasks
// waiting on it.
func (g *Graph) CheckOrder(o incremental.Orderer) error {
	for v, ds := range g.deps {
		for _, d := range ds {
			if o.Ord(d) >= o.Ord(int32(v)) {
				return fmt.Errorf("order puts %d (ord %d) after %d (ord %d), which waits on it",
					g.names[d], o.Ord(d), g.names[v], o.Ord(int32(v)))
			}
		}
	}
	return nil
}
