package playground

import (
	"strconv"

	"github.com/dagq/dagq/core/render"
)

// RefusedEdge is the edge a refused submit asked for, drawn over the graph
// for a moment: from its dependency to the task that was to wait on it.
// Each end is on the task's own box as laid out ([render.Layout.Box]): a
// cell of a compact grid is smaller than a task's box, and the edge starts
// and ends at the cell.
type RefusedEdge struct {
	From, To render.Point // where the edge leaves the dependency and meets the dependent
	Path     string       // the SVG path data, from From to To
}

// Refused returns the refused edge from dependency down to dependent:
// the usual curve ([render.Layout.Edge]) when the dependency is drawn
// above the dependent, from the middle of its bottom side to the middle of
// the dependent's top side; else (the edge closing a cycle points back up,
// or along a layer) an arc out to the right, from the middle of one's
// right side to the middle of the other's, so that it does not hide the
// edges it runs against. The arc bends at most as far as the layout's
// right margin leaves room for (its widest point is 3/4 of its bend out),
// so that it is drawn inside the drawing, never cut off at its edge. It
// reports false when either task is not laid out, or they are the same
// task.
//
// The cost is O(1).
func Refused(l render.Layout, dependency, dependent string) (RefusedEdge, bool) {
	from, ok1 := l.Pos[dependency]
	to, ok2 := l.Pos[dependent]
	if !ok1 || !ok2 || dependency == dependent {
		return RefusedEdge{}, false
	}
	w0, h0 := l.Box(dependency)
	w1, h1 := l.Box(dependent)
	if from.Y < to.Y {
		return RefusedEdge{
			From: render.Point{X: from.X, Y: from.Y + h0/2},
			To:   render.Point{X: to.X, Y: to.Y - h1/2},
			Path: l.Edge(dependency, dependent),
		}, true
	}
	a := render.Point{X: from.X + w0/2, Y: from.Y}
	b := render.Point{X: to.X + w1/2, Y: to.Y}
	bend := 40 + (from.Y-to.Y)/4
	room := l.Width - max(a.X, b.X) - arcStroke
	bend = max(0, min(bend, room/0.75))
	return RefusedEdge{From: a, To: b, Path: "M" + coord(a.X) + "," + coord(a.Y) +
		" C" + coord(a.X+bend) + "," + coord(a.Y) +
		" " + coord(b.X+bend) + "," + coord(b.Y) +
		" " + coord(b.X) + "," + coord(b.Y)}, true
}

// arcStroke is what the refused edge's stroke takes beyond its line: half
// its width, and a pixel to spare.
const arcStroke = 2.5

// coord formats a coordinate of a path, as short as it is exact.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
