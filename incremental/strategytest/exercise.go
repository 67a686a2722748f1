package strategytest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"

	"github.com/dagq/dagq/incremental"
)

// Seeds are the fixed seeds of the random part of [Exercise]; a failure
// names its seed.
var Seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 42, 2024}

// Exercise runs the conformance suite on a strategy, made fresh by
// newStrategy for every scenario. Every insert is checked against an offline
// oracle (gonum's topo.Sort on the graph plus the new edges):
//
//   - it is accepted exactly when the graph plus the new edges is acyclic;
//   - a returned cycle is a path v, d, …, v of edges of the graph plus the
//     new edges, d a dependency of v, no node but v repeated;
//   - a refused insert is refused again when repeated;
//   - [incremental.Strategy.Visits] never decreases;
//   - if the strategy is an [incremental.Orderer], its order puts every
//     dependency before the tasks waiting on it after every call.
//
// The scenarios: every directed graph on two to four nodes, submitted in
// every arrival order (so tasks arrive both before and after they are named,
// and refused submits forget ids that the next one reuses); long chains and
// wide graphs closed into cycles at the end; random graphs of up to a few
// hundred tasks with cycles mixed in, for each of [Seeds].
func Exercise(t *testing.T, name string, newStrategy func() incremental.Strategy) {
	t.Run("EverySmallGraphInEveryArrivalOrder", func(t *testing.T) {
		memo := make(map[uint64]bool)
		for k := 2; k <= 4; k++ {
			pairs := allPairs(k)
			perms := permutations(k)
			for mask := 0; mask < 1<<len(pairs); mask++ {
				deps := make([][]int, k)
				for i, p := range pairs {
					if mask&(1<<i) != 0 {
						deps[p[0]] = append(deps[p[0]], p[1])
					}
				}
				for pi, perm := range perms {
					c := newChecker(t, name, newStrategy(), memo)
					c.scenario = fmt.Sprintf("nodes %d, edges %v, arrival %v", k, edgeList(deps), perm)
					for _, task := range perm {
						ds := slices.Clone(deps[task])
						if pi%2 == 1 {
							slices.Reverse(ds)
						}
						c.submitOrFix(task, ds)
					}
				}
			}
		}
	})

	t.Run("LongCyclesAreFoundWhole", func(t *testing.T) {
		const n = 300
		c := newChecker(t, name, newStrategy(), nil)
		c.scenario = "chain in order, closed at its first task"
		for i := 1; i < n; i++ {
			c.submit(i, i-1)
		}
		c.wantRefused(c.submit(0, n-1), n+1)

		c = newChecker(t, name, newStrategy(), nil)
		c.scenario = "reversed chain, closed at its last task"
		for i := 0; i < n-1; i++ {
			c.submit(i, i+1)
		}
		c.wantRefused(c.submit(n-1, 0), n+1)

		c = newChecker(t, name, newStrategy(), nil)
		c.scenario = "wide graph, closed through one shard"
		all := make([]int, n)
		for i := range all {
			all[i] = i + 1
		}
		c.submit(n+1, all...)
		for i := 1; i <= n; i++ {
			c.submit(i, 0)
		}
		c.wantRefused(c.submit(0, n+1), 4)
	})

	t.Run("RandomGraphsWithCyclesMixedIn", func(t *testing.T) {
		for _, seed := range Seeds {
			r := rand.New(rand.NewPCG(seed, 0x5eed))
			for _, shape := range []string{"random", "lattice"} {
				n := 20 + r.IntN(280)
				c := newChecker(t, name, newStrategy(), nil)
				c.scenario = fmt.Sprintf("seed %d, %s of %d tasks", seed, shape, n)
				deps := randomDeps(r, shape, n)
				order := r.Perm(n)
				for _, task := range order[:n-r.IntN(n/10+1)] { // a few never arrive
					c.submitOrFix(task, deps[task])
				}
			}
		}
	})
}

// checker submits tasks to a strategy and a graph, checking each against
// the oracle.
type checker struct {
	t        *testing.T
	name     string
	s        incremental.Strategy
	g        *Graph
	memo     map[uint64]bool // acyclicity by edge set, for names below 8
	scenario string
	ops      []op // the submits so far, for failure messages
	visits   uint64
}

type op struct {
	task  int
	deps  []int
	again bool
}

func newChecker(t *testing.T, name string, s incremental.Strategy, memo map[uint64]bool) *checker {
	return &checker{t: t, name: name, s: s, g: NewGraph(), memo: memo}
}

func (c *checker) fatalf(format string, args ...any) {
	c.t.Helper()
	const show = 12
	var ops []string
	if len(c.ops) > show {
		ops = append(ops, fmt.Sprintf("%d more", len(c.ops)-show))
	}
	for _, o := range c.ops[max(0, len(c.ops)-show):] {
		if o.again {
			ops = append(ops, "the same again")
		} else {
			ops = append(ops, fmt.Sprintf("submit %d %v", o.task, o.deps))
		}
	}
	c.t.Fatalf("strategy %s, %s, after %s: %s", c.name, c.scenario, strings.Join(ops, "; "), fmt.Sprintf(format, args...))
}

// submitOrFix submits task; if it is refused, it submits it again with no
// deps, which must be accepted.
func (c *checker) submitOrFix(task int, deps []int) {
	c.t.Helper()
	if c.submit(task, deps...) != nil {
		if c.submit(task) != nil {
			c.fatalf("a task with no deps was refused")
		}
	}
}

// wantRefused fails unless cycle has length n.
func (c *checker) wantRefused(cycle []int, n int) {
	c.t.Helper()
	if len(cycle) != n {
		c.fatalf("cycle %v, want one of %d nodes", cycle, n)
	}
}

// submit submits task and checks the outcome; it returns the cycle if the
// task was refused.
func (c *checker) submit(task int, deps ...int) []int {
	c.t.Helper()
	acyclic := c.acyclic(task, deps)
	before := c.g.Len()
	cycle, err := c.g.Submit(c.s, task, deps...)
	c.ops = append(c.ops, op{task: task, deps: deps})
	if err != nil {
		c.fatalf("%v", err)
	}
	c.checkVisits()
	switch {
	case acyclic && cycle != nil:
		c.fatalf("refused with cycle %v, but the graph stays acyclic", cycle)
	case !acyclic && cycle == nil:
		c.fatalf("accepted, but the new edges close a cycle")
	case cycle != nil:
		c.checkCycle(task, deps, cycle)
		if c.g.Len() != before {
			c.fatalf("graph has %d ids after a refusal, want %d", c.g.Len(), before)
		}
		again, _ := c.g.Submit(c.s, task, deps...)
		c.ops = append(c.ops, op{again: true})
		if again == nil {
			c.fatalf("accepted when repeated after a refusal")
		}
		c.checkCycle(task, deps, again)
		c.checkVisits()
	}
	c.checkOrder()
	return cycle
}

func (c *checker) checkVisits() {
	c.t.Helper()
	if v := c.s.Visits(); v < c.visits {
		c.fatalf("visits went down from %d to %d", c.visits, v)
	} else {
		c.visits = v
	}
}

// checkCycle checks a cycle returned for task.
func (c *checker) checkCycle(task int, deps, cycle []int) {
	c.t.Helper()
	if err := c.g.CheckCycle(task, deps, cycle); err != nil {
		c.fatalf("%v", err)
	}
}

// checkOrder checks, for a strategy that keeps an order, that it puts every
// dependency before the tasks waiting on it.
func (c *checker) checkOrder() {
	c.t.Helper()
	if o, ok := c.s.(incremental.Orderer); ok {
		if err := c.g.CheckOrder(o); err != nil {
			c.fatalf("%v", err)
		}
	}
}

// acyclic asks the oracle whether the graph plus the edges task→deps is
// acyclic: gonum's topo.Sort, which returns topo.Unorderable on a cycle.
func (c *checker) acyclic(task int, deps []int) bool {
	var edges [][2]int
	c.g.Edges(func(a, b int) { edges = append(edges, [2]int{a, b}) })
	for _, d := range deps {
		edges = append(edges, [2]int{task, d})
	}
	key, small := uint64(0), c.memo != nil
	for _, e := range edges {
		if e[0] >= 8 || e[1] >= 8 {
			small = false
			break
		}
		key |= 1 << (e[0]*8 + e[1])
	}
	if small {
		if ok, hit := c.memo[key]; hit {
			return ok
		}
	}
	g := simple.NewDirectedGraph()
	for _, e := range edges {
		if e[0] == e[1] {
			c.fatalf("a self-dependency reached the oracle")
		}
		g.SetEdge(g.NewEdge(simple.Node(e[0]), simple.Node(e[1])))
	}
	_, err := topo.Sort(g)
	_, cyclic := err.(topo.Unorderable)
	if err != nil && !cyclic {
		c.fatalf("oracle: %v", err)
	}
	if small {
		c.memo[key] = !cyclic
	}
	return !cyclic
}

// allPairs lists the ordered pairs of distinct nodes below k.
func allPairs(k int) [][2]int {
	var p [][2]int
	for a := range k {
		for b := range k {
			if a != b {
				p = append(p, [2]int{a, b})
			}
		}
	}
	return p
}

// permutations lists every order of 0..k-1.
func permutations(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for i := 0; i <= len(p); i++ {
			q := make([]int, 0, k)
			q = append(q, p[:i]...)
			q = append(q, k-1)
			q = append(q, p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func edgeList(deps [][]int) string {
	var b strings.Builder
	for a, ds := range deps {
		for _, d := range ds {
			fmt.Fprintf(&b, "%d→%d ", a, d)
		}
	}
	return strings.TrimSpace(b.String())
}

// randomDeps makes the deps of n tasks: mostly on earlier tasks (a random
// graph with up to four deps each, or a lattice of diamonds), with one task
// in twelve also waiting on a later task, which may close a cycle.
func randomDeps(r *rand.Rand, shape string, n int) [][]int {
	deps := make([][]int, n)
	w := 1
	for w*w < n {
		w++
	}
	for i := range n {
		switch shape {
		case "lattice":
			if i >= w {
				deps[i] = append(deps[i], i-w)
			}
			if i%w > 0 {
				deps[i] = append(deps[i], i-1)
			}
		default:
			for range r.IntN(5) {
				if i > 0 {
					deps[i] = append(deps[i], r.IntN(i))
				}
			}
		}
		if r.IntN(12) == 0 && i+1 < n {
			deps[i] = append(deps[i], i+1+r.IntN(n-i-1))
		}
	}
	return deps
}
