package playground

import (
	"math"

	"github.com/dagq/dagq/core/render"
)

// TapSize is the least size, in screen pixels, of anything a finger takes:
// a task box shown smaller is a target this size about its centre.
const TapSize = 44.0

// TaskAtTap returns the task that a tap at (x, y), in the layout's units,
// on a drawing shown at zoom screen pixels a unit, is meant for, when it
// hit no box: each box (or compact grid's cell) counts as grown about its
// centre to at least TapSize pixels each way, and of the boxes so grown
// that hold the point, the nearest to it (by the distance from the point
// to the box as drawn; of two as near, the first name) is the tap's. A
// point inside a box is that box's. False when no grown box holds it.
//
// The targets of boxes in two layers (44 units tall, 56 apart) overlap
// only below zoom 0.44, those of a row's boxes (136 wide, 20 apart) below
// 0.28; a compact grid's cells (26 units, 6 apart) overlap below 1.4,
// where the nearest decides. The cost is O(n) for n tasks laid out.
func TaskAtTap(l render.Layout, zoom, x, y float64) (string, bool) {
	if zoom <= 0 {
		return "", false
	}
	reach := TapSize / zoom // the least size of a target, in the layout's units
	best, bestD, found := "", math.Inf(1), false
	for name, c := range l.Pos {
		w, h := l.Box(name)
		dx, dy := math.Abs(x-c.X), math.Abs(y-c.Y)
		if dx > max(w, reach)/2 || dy > max(h, reach)/2 {
			continue
		}
		d := math.Hypot(max(0, dx-w/2), max(0, dy-h/2))
		if !found || d < bestD || (d == bestD && name < best) {
			best, bestD, found = name, d, true
		}
	}
	return best, found
}
