package render

import (
	"fmt"
	"math/rand/v2"
)

// shapes are the graph shapes of the tests and benchmarks, each built from
// a size and a seed, tasks listed in arrival order.
var shapes = []struct {
	name string
	make func(n int, seed uint64) []Node
}{
	{"chain", chain},
	{"lattice", lattice},
	{"random3", random3},
	{"fan", fan},
}

func name(i int) string { return fmt.Sprintf("t%04d", i) }

// chain: t0 ← t1 ← … each task waits on the one before.
func chain(n int, _ uint64) []Node {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i].Name = name(i)
		if i > 0 {
			nodes[i].Deps = []string{name(i - 1)}
		}
	}
	return nodes
}

// lattice: rows of 5 tasks, each waiting on the two nearest tasks of the
// row above: stacked diamonds.
func lattice(n int, _ uint64) []Node {
	const w = 5
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i].Name = name(i)
		if i >= w {
			c := i % w
			nodes[i].Deps = append(nodes[i].Deps, name(i-w))
			if c+1 < w {
				nodes[i].Deps = append(nodes[i].Deps, name(i-w+1))
			} else {
				nodes[i].Deps = append(nodes[i].Deps, name(i-w-1))
			}
		}
	}
	return nodes
}

// random3: each task waits on up to three earlier tasks picked at random.
func random3(n int, seed uint64) []Node {
	r := rand.New(rand.NewPCG(seed, 3))
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i].Name = name(i)
		for range min(i, 3) {
			nodes[i].Deps = append(nodes[i].Deps, name(r.IntN(i)))
		}
	}
	return nodes
}

// fan: one root, n-2 tasks waiting on it, one task waiting on them all, as
// the 1,000-shard scenario.
func fan(n int, _ uint64) []Node {
	nodes := make([]Node, n)
	nodes[0].Name = "download"
	var all []string
	for i := 1; i < n-1; i++ {
		nodes[i] = Node{Name: fmt.Sprintf("shard-%04d", i), Deps: []string{"download"}}
		all = append(all, nodes[i].Name)
	}
	nodes[n-1] = Node{Name: "reduce", Deps: all}
	return nodes
}
