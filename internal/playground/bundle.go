package playground

import (
	"strconv"

	"github.com/dagq/dagq/core/render"

	"github.com/dagq/dagq/internal/wording"
)

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
func Grids(l render.Layout) []render.Grid { return l.Grids }

// Bundles returns the bundles of the edges of nodes that have a cell at
// either end (see [Bundled]), one for each pair of ends (a task or a
// grid), in the order their first edge comes in nodes.
//
// The cost is O(V + E).
func Bundles(nodes []render.Node, l render.Layout) []Bundle {
	if len(l.Compact) == 0 {
		return nil
	}
	gridOf := make(map[int]int, len(l.Grids)) // layer → grid
	for i, g := range l.Grids {
		gridOf[g.Layer] = i
	}
	// An end is a task's index in nodes, or -1-g for grid g.
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if _, ok := index[n.Name]; !ok {
			index[n.Name] = i
		}
	}
	end := func(task string) int {
		if l.Compact[task] {
			return -1 - gridOf[l.Layer[task]]
		}
		return index[task]
	}
	at := map[[2]int]int{}
	var out []Bundle
	for _, n := range nodes {
		if _, ok := l.Pos[n.Name]; !ok {
			continue
		}
		to := end(n.Name)
		for _, d := range n.Deps {
			if _, ok := l.Pos[d]; !ok || d == n.Name || !Bundled(l, d, n.Name) {
				continue
			}
			k := [2]int{end(d), to}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				b := Bundle{FromGrid: -1, ToGrid: -1}
				if k[0] < 0 {
					b.FromGrid = -1 - k[0]
				} else {
					b.From = d
				}
				if k[1] < 0 {
					b.ToGrid = -1 - k[1]
				} else {
					b.To = n.Name
				}
				out = append(out, b)
			}
			out[i].Edges++
		}
	}
	for i := range out {
		b := &out[i]
		p0, h0, what0 := bundleEnd(l, b.From, b.FromGrid)
		p1, h1, what1 := bundleEnd(l, b.To, b.ToGrid)
		b.Path = render.EdgeBetween(p0, p1, h0, h1)
		b.X0, b.Y0, b.X1, b.Y1 = p0.X, p0.Y, p1.X, p1.Y
		b.Title = wording.Plural(b.Edges, "edge") + ": " + what0 + " → " + what1
	}
	return out
}

// bundleEnd returns where one end of a bundle is, how tall, and what it is
// in words.
func bundleEnd(l render.Layout, task string, grid int) (render.Point, float64, string) {
	if grid < 0 {
		_, h := l.Box(task)
		return l.Pos[task], h, task
	}
	g := l.Grids[grid]
	return render.Point{X: (g.X0 + g.X1) / 2, Y: (g.Y0 + g.Y1) / 2}, g.Y1 - g.Y0, strconv.Itoa(g.Cells) + " tasks"
}
