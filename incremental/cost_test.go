package incremental_test

import (
	"testing"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/incremental/strategytest"
)

// submit is one submit of a shape: a task and what it waits on.
type submit struct {
	task int
	deps []int
}

// chainInOrder: task i waits on i-1, submitted in order.
func chainInOrder(n int) []submit {
	ops := []submit{{task: 0}}
	for i := 1; i < n; i++ {
		ops = append(ops, submit{i, []int{i - 1}})
	}
	return ops
}

// chainReversed: task i waits on i+1, submitted in order, so each task
// arrives before its dependency.
func chainReversed(n int) []submit {
	var ops []submit
	for i := 0; i < n-1; i++ {
		ops = append(ops, submit{i, []int{i + 1}})
	}
	return append(ops, submit{task: n - 1})
}

// wide: a download, n shards waiting on it and a reducer waiting on all of
// them; reversed, the reducer comes first and the download last.
func wide(n int, reversed bool) []submit {
	shards := make([]int, n)
	ops := []submit{{task: 0}}
	for i := range shards {
		shards[i] = i + 1
		ops = append(ops, submit{i + 1, []int{0}})
	}
	ops = append(ops, submit{n + 1, shards})
	if reversed {
		for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
			ops[i], ops[j] = ops[j], ops[i]
		}
	}
	return ops
}

// latticeReversed: a w×w grid of diamonds, each task waiting on the one
// above and the one to its left, submitted bottom-right first.
func latticeReversed(w int) []submit {
	var ops []submit
	for i := w - 1; i >= 0; i-- {
		for j := w - 1; j >= 0; j-- {
			o := submit{task: i*w + j}
			if i > 0 {
				o.deps = append(o.deps, (i-1)*w+j)
			}
			if j > 0 {
				o.deps = append(o.deps, i*w+j-1)
			}
			ops = append(ops, o)
		}
	}
	return ops
}

// visits submits ops to a fresh strategy and returns the visits and edges.
func visits(t *testing.T, name string, ops []submit) (visits, edges uint64) {
	t.Helper()
	s, err := incremental.New(name)
	if err != nil {
		t.Fatal(err)
	}
	g := strategytest.NewGraph()
	for _, o := range ops {
		if cycle, err := g.Submit(s, o.task, o.deps...); cycle != nil || err != nil {
			t.Fatalf("%s: submit %d %v: cycle %v, %v", name, o.task, o.deps, cycle, err)
		}
		edges += uint64(len(o.deps))
	}
	return s.Visits(), edges
}

func TestCostDefaultIsConstantPerEdge(t *testing.T) {
	const n = 10_000
	for _, c := range []struct {
		name string
		ops  []submit
	}{
		{"ChainInOrder", chainInOrder(n)},
		{"ChainReversed", chainReversed(n)},
		{"WideShallow", wide(n, false)},
		{"WideShallowReducerFirst", wide(n, true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, e := visits(t, incremental.Default, c.ops)
			if v > 4*e {
				t.Errorf("%s visited %d times for %d edges, want at most 4 a edge", incremental.Default, v, e)
			}
		})
	}
}

func TestCostPKNoMoreThanDFSAgainstCreationOrder(t *testing.T) {
	// Each task arrives before its dependencies, so every edge points at a
	// node made after the task: a new dependency must go in front.
	for _, c := range []struct {
		name string
		ops  []submit
	}{
		{"ChainReversed", chainReversed(10_000)},
		{"WideShallowReducerFirst", wide(10_000, true)},
		{"LatticeReversed", latticeReversed(100)},
	} {
		t.Run(c.name, func(t *testing.T) {
			pk, _ := visits(t, "pk", c.ops)
			dfs, _ := visits(t, "dfs", c.ops)
			if pk > dfs {
				t.Errorf("pk visited %d times, dfs %d", pk, dfs)
			}
		})
	}
}

// fixedGraph reveals a graph fixed in advance one arrival at a time, so
// driving a strategy through it allocates nothing.
type fixedGraph struct {
	deps       [][]int32
	dependents [][]int32 // in arrival order
	arrived    []bool
	seen       []int // how many of dependents[v] have arrived
}

func (g *fixedGraph) Len() int { return len(g.deps) }

func (g *fixedGraph) Deps(v int32) []int32 {
	if g.arrived[v] {
		return g.deps[v]
	}
	return nil
}

func (g *fixedGraph) Dependents(v int32) []int32 { return g.dependents[v][:g.seen[v]] }

func newFixedGraph(n int, order []int32, deps [][]int32) *fixedGraph {
	g := &fixedGraph{deps: deps, dependents: make([][]int32, n), arrived: make([]bool, n), seen: make([]int, n)}
	for _, v := range order {
		for _, d := range deps[v] {
			g.dependents[d] = append(g.dependents[d], v)
		}
	}
	return g
}

func (g *fixedGraph) arrive(v int32) {
	g.arrived[v] = true
	for _, d := range g.deps[v] {
		g.seen[d]++
	}
}

func TestDefaultInsertDoesNotAllocate(t *testing.T) {
	// Blocks of eight tasks that take every path of an accepted insert:
	// a task nobody waits on, one whose deps have not arrived, one that fits
	// between its deps and its dependents, and two that make the order
	// change.
	const blocks, warm = 2000, 200
	var order []int32
	deps := make([][]int32, 8*blocks)
	for k := range int32(blocks) {
		c, a, b, e, d, f, y, x := 8*k, 8*k+1, 8*k+2, 8*k+3, 8*k+4, 8*k+5, 8*k+6, 8*k+7
		deps[c] = []int32{a}
		deps[a] = []int32{b}
		deps[e] = []int32{d}
		deps[d] = []int32{f}
		deps[f] = []int32{c}
		deps[y] = []int32{x}
		deps[x] = []int32{b}
		if k > 0 {
			deps[b] = []int32{8*k - 2} // the previous block's y
		}
		order = append(order, c, b, a, e, d, f, y, x)
	}
	g := newFixedGraph(len(deps), order, deps)
	s, err := incremental.New(incremental.Default)
	if err != nil {
		t.Fatal(err)
	}
	next := 0
	step := func() {
		v := order[next]
		next++
		if s.Insert(g, v, g.deps[v]) != nil {
			t.Fatalf("task %d refused", v)
		}
		g.arrive(v)
	}
	for next < 8*warm {
		step()
	}
	for next+2 <= len(order) {
		at := order[next+1] // AllocsPerRun measures its second call
		if a := testing.AllocsPerRun(1, step); a != 0 {
			t.Fatalf("%s: inserting task %d allocated %v times", incremental.Default, at, a)
		}
	}
}
