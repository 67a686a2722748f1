package bench

import (
	"testing"

	dominikbraun "github.com/dominikbraun/graph"
	heimdalr "github.com/heimdalr/dag"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"

	"github.com/dagq/dagq/core"
)

// peers are the libraries people would otherwise use, run on the same
// shapes. None can submit a task's edges all or none: heimdalr and
// dominikbraun keep the edges of a refused attempt that came before the one
// closing the cycle, and gonum-offline builds only the accepted graph and
// sorts it once.
var peers = []struct {
	name string
	run  runner
}{
	{"gonum-offline", gonumOffline},
	{"heimdalr", heimdalrDAG},
	{"dominikbraun", dominikbraunGraph},
}

// accepted drops reject's refused attempts: the first of two submits of a
// name.
func accepted(tasks []core.Task) []core.Task {
	last := make(map[string]int, len(tasks))
	for i, t := range tasks {
		last[t.Name] = i
	}
	out := make([]core.Task, 0, len(last))
	for i, t := range tasks {
		if last[t.Name] == i {
			out = append(out, t)
		}
	}
	return out
}

func gonumOffline(b *testing.B, fx *fixture, lifecycle bool, _ *faults) uint64 {
	g := simple.NewDirectedGraph()
	ids := make(map[string]int64, len(fx.accepted))
	id := func(name string) int64 {
		if v, ok := ids[name]; ok {
			return v
		}
		v := int64(len(ids))
		ids[name] = v
		g.AddNode(simple.Node(v))
		return v
	}
	for _, t := range fx.accepted {
		v := id(t.Name)
		for _, d := range t.Deps {
			g.SetEdge(g.NewEdge(simple.Node(id(d)), simple.Node(v)))
		}
	}
	order, err := topo.Sort(g)
	if err != nil {
		b.Fatal(err)
	}
	if len(order) != len(ids) {
		b.Fatalf("sorted %d of %d tasks", len(order), len(ids))
	}
	return 0
}

func heimdalrDAG(b *testing.B, fx *fixture, lifecycle bool, _ *faults) uint64 {
	d := heimdalr.NewDAG()
	seen := make(map[string]bool, len(fx.tasks))
	vertex := func(name string) {
		if !seen[name] {
			seen[name] = true
			if err := d.AddVertexByID(name, name); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, t := range fx.tasks {
		vertex(t.Name)
		for _, dep := range t.Deps {
			vertex(dep)
			d.AddEdge(dep, t.Name) // refused on a cycle; a repeat is refused too
		}
	}
	return 0
}

func dominikbraunGraph(b *testing.B, fx *fixture, lifecycle bool, _ *faults) uint64 {
	g := dominikbraun.New(dominikbraun.StringHash, dominikbraun.Directed(), dominikbraun.PreventCycles())
	seen := make(map[string]bool, len(fx.tasks))
	vertex := func(name string) {
		if !seen[name] {
			seen[name] = true
			if err := g.AddVertex(name); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, t := range fx.tasks {
		vertex(t.Name)
		for _, dep := range t.Deps {
			vertex(dep)
			g.AddEdge(dep, t.Name)
		}
	}
	return 0
}
