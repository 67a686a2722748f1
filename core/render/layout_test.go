package render

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// checkLayout reports every way l fails to be a layout of nodes: a task
// missing, an edge not pointing down, two boxes overlapping, a box outside
// the drawing.
func checkLayout(t *testing.T, nodes []Node, l Layout) {
	t.Helper()
	g := newGraph(nodes)
	for _, name := range g.names {
		if _, ok := l.Pos[name]; !ok {
			t.Errorf("task %q not placed", name)
		}
		if _, ok := l.Layer[name]; !ok {
			t.Errorf("task %q has no layer", name)
		}
	}
	if len(l.Pos) != len(g.names) || len(l.Layer) != len(g.names) {
		t.Errorf("%d tasks, %d positions, %d layers", len(g.names), len(l.Pos), len(l.Layer))
	}
	for v, deps := range g.deps {
		for _, u := range deps {
			a, b := g.names[u], g.names[v]
			if l.Layer[a] >= l.Layer[b] {
				t.Errorf("edge %s → %s: layer %d → %d, not downward", a, b, l.Layer[a], l.Layer[b])
			}
			if l.Pos[a].Y+l.NodeH/2 >= l.Pos[b].Y-l.NodeH/2 {
				t.Errorf("edge %s → %s: box bottom %v not above box top %v", a, b, l.Pos[a].Y+l.NodeH/2, l.Pos[b].Y-l.NodeH/2)
			}
		}
	}
	for _, name := range g.names {
		p := l.Pos[name]
		if p.X-l.NodeW/2 < 0 || p.Y-l.NodeH/2 < 0 || p.X+l.NodeW/2 > l.Width || p.Y+l.NodeH/2 > l.Height {
			t.Errorf("box of %q at %v sticks out of %v×%v", name, p, l.Width, l.Height)
		}
	}
	// Overlaps: boxes sorted into rows by y; within a row, by x.
	rows := map[float64][]float64{}
	for _, name := range g.names {
		p := l.Pos[name]
		rows[p.Y] = append(rows[p.Y], p.X)
	}
	ys := make([]float64, 0, len(rows))
	for y, xs := range rows {
		ys = append(ys, y)
		slices.Sort(xs)
		for i := 1; i < len(xs); i++ {
			if xs[i]-xs[i-1] < l.NodeW {
				t.Errorf("boxes at (%v,%v) and (%v,%v) overlap", xs[i-1], y, xs[i], y)
			}
		}
	}
	slices.Sort(ys)
	for i := 1; i < len(ys); i++ {
		if ys[i]-ys[i-1] < l.NodeH {
			t.Errorf("rows at y=%v and y=%v overlap", ys[i-1], ys[i])
		}
	}
}

func TestLayOutProperties(t *testing.T) {
	t.Parallel()
	for _, s := range shapes {
		for _, n := range []int{1, 2, 3, 10, 50, 300} {
			for seed := range uint64(5) {
				if s.name == "fan" && n < 3 {
					continue
				}
				t.Run(fmt.Sprintf("%s/n=%d/seed=%d", s.name, n, seed), func(t *testing.T) {
					nodes := s.make(n, seed)
					l := LayOut(nodes)
					checkLayout(t, nodes, l)
					if again := LayOut(nodes); !maps.Equal(l.Pos, again.Pos) || !maps.Equal(l.Layer, again.Layer) ||
						l.Width != again.Width || l.Height != again.Height {
						t.Errorf("two layouts of the same graph differ")
					}
					if t.Failed() {
						t.Logf("shape %s, n=%d, seed %d", s.name, n, seed)
					}
				})
			}
		}
	}
}

// crossings counts the pairs of edges, drawn as straight segments between
// box centres, that cross; edges sharing a task are not counted.
func crossings(edges [][2]Point) int {
	orient := func(a, b, c Point) float64 { return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X) }
	n := 0
	for i, e := range edges {
		for _, f := range edges[i+1:] {
			if e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1] {
				continue
			}
			d1, d2 := orient(e[0], e[1], f[0]), orient(e[0], e[1], f[1])
			d3, d4 := orient(f[0], f[1], e[0]), orient(f[0], f[1], e[1])
			if d1*d2 < 0 && d3*d4 < 0 {
				n++
			}
		}
	}
	return n
}

func layoutCrossings(nodes []Node, l Layout) int {
	g := newGraph(nodes)
	var edges [][2]Point
	for v, deps := range g.deps {
		for _, u := range deps {
			edges = append(edges, [2]Point{l.Pos[g.names[u]], l.Pos[g.names[v]]})
		}
	}
	return crossings(edges)
}
