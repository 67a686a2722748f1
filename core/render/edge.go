package render

import "strconv"

// EdgePath returns the SVG path data ("d") of an edge from a dependency
// whose box is centred at from to its dependent centred at to, below it:
// a cubic Bézier curve from the middle of the dependency's bottom side to
// the middle of the dependent's top side, leaving and arriving vertically.
// Each end's control point is at most half a layer gap away from it, so
// an edge between neighbouring layers is an S, and a longer edge (across
// layers, or to a lower row of a wrapped layer) runs straight between two
// short bends, mostly behind the boxes it passes, which are drawn over it.
//
// An arrowhead drawn with marker-end touches the dependent's box.
func EdgePath(from, to Point, l Layout) string { return EdgeBetween(from, to, l.NodeH, l.NodeH) }

// EdgeBetween is [EdgePath] from a box centred at from, h0 tall, to one
// centred at to, h1 tall: a cell of a compact grid, or a whole grid.
func EdgeBetween(from, to Point, h0, h1 float64) string {
	y0, y1 := from.Y+h0/2, to.Y-h1/2
	k := min(gapY/2, max(y1-y0, 0)/2)
	return "M" + num(from.X) + "," + num(y0) +
		" C" + num(from.X) + "," + num(y0+k) +
		" " + num(to.X) + "," + num(y1-k) +
		" " + num(to.X) + "," + num(y1)
}

// num formats a coordinate with at most two decimals and no trailing
// zeros, so that the same layout always prints the same.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
