package playground

import (
	"slices"
	"strconv"

	"github.com/dagq/dagq/core/render"
)

// Grid is a compact grid of a layout (render.Compact): the cells of one
// layer, and the rectangle they fill.
type Grid struct {
	Layer          int
	Cells          int
	X0, Y0, X1, Y1 float64
}

// Bundle is the edges between a compact grid and a task, or between two
// grids, drawn as one path: a thousand edges from a task to the cells of a
// grid cost the page one element, and its paint a thousand fewer curves
// under the cells. From and To are a task's name, or "" for the grid
// FromGrid or ToGrid (indexes in the grids; -1 for a task).
type Bundle struct {
	From, To         string
	FromGrid, ToGrid int
	Edges            int     // the edges it stands for
	Path             string  // SVG path data, from From's bottom to To's top
	X0, Y0, X1, Y1   float64 // the centres of its ends, for drawing only the bundles near the view
	Title            string  // "1,000 edges: download → 1,000 tasks"
}

// Bundled reports whether the edge from dependency dep to task is drawn as
// part of a [Bundle]: whether either end is a cell.
func Bundled(l render.Layout, dep, task string) bool { return l.Compact[dep] || l.Compact[task] }

// Grids returns the compact grids of a layout, top first.
//
// The cost is O(V).
func Grids(l render.Layout) []Grid {
	at := map[int]int{} // layer → index in grids
	var grids []Grid
	for task := range l.Compact {
		p, layer := l.Pos[task], l.Layer[task]
		i, ok := at[layer]
		if !ok {
			i = len(grids)
			at[layer] = i
			grids = append(grids, Grid{Layer: layer, X0: p.X, Y0: p.Y, X1: p.X, Y1: p.Y})
		}
		g := &grids[i]
		g.Cells++
		g.X0, g.Y0 = min(g.X0, p.X), min(g.Y0, p.Y)
		g.X1, g.Y1 = max(g.X1, p.X), max(g.Y1, p.Y)
	}
	for i := range grids {
		g := &grids[i]
		g.X0, g.Y0, g.X1, g.Y1 = g.X0-l.CellW/2, g.Y0-l.CellH/2, g.X1+l.CellW/2, g.Y1+l.CellH/2
	}
	slices.SortFunc(grids, func(a, b Grid) int { return a.Layer - b.Layer })
	return grids
}

// Bundles returns the bundles of the edges of nodes that have a cell at
// either end (see [Bundled]), one for each pair of ends (a task or a
// grid), in the order their first edge comes in nodes.
//
// The cost is O(V + E).
func Bundles(nodes []render.Node, l render.Layout) []Bundle {
	if len(l.Compact) == 0 {
		return nil
	}
	grids := Grids(l)
	gridOf := make(map[int]int, len(grids)) // layer → grid
	for i, g := range grids {
		gridOf[g.Layer] = i
	}
	end := func(task string) (string, int) {
		if l.Compact[task] {
			return "", gridOf[l.Layer[task]]
		}
		return task, -1
	}
	type key struct {
		from, to         string
		fromGrid, toGrid int
	}
	index := map[key]int{}
	var out []Bundle
	for _, n := range nodes {
		if _, ok := l.Pos[n.Name]; !ok {
			continue
		}
		for _, d := range n.Deps {
			if _, ok := l.Pos[d]; !ok || d == n.Name || !Bundled(l, d, n.Name) {
				continue
			}
			from, fg := end(d)
			to, tg := end(n.Name)
			k := key{from, to, fg, tg}
			i, ok := index[k]
			if !ok {
				i = len(out)
				index[k] = i
				out = append(out, Bundle{From: from, To: to, FromGrid: fg, ToGrid: tg})
			}
			out[i].Edges++
		}
	}
	for i := range out {
		b := &out[i]
		p0, h0, what0 := bundleEnd(l, grids, b.From, b.FromGrid)
		p1, h1, what1 := bundleEnd(l, grids, b.To, b.ToGrid)
		b.Path = render.EdgeBetween(p0, p1, h0, h1)
		b.X0, b.Y0, b.X1, b.Y1 = p0.X, p0.Y, p1.X, p1.Y
		b.Title = plural(b.Edges, "edge") + ": " + what0 + " → " + what1
	}
	return out
}

// bundleEnd returns where one end of a bundle is, how tall, and what it is
// in words.
func bundleEnd(l render.Layout, grids []Grid, task string, grid int) (render.Point, float64, string) {
	if grid < 0 {
		_, h := l.Box(task)
		return l.Pos[task], h, task
	}
	g := grids[grid]
	return render.Point{X: (g.X0 + g.X1) / 2, Y: (g.Y0 + g.Y1) / 2}, g.Y1 - g.Y0, strconv.Itoa(g.Cells) + " tasks"
}
