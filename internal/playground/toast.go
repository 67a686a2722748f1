package playground

// Obstacle is a part of the screen a notice should not cover, with how
// much covering it costs: a task of the drawing costs most, the page's
// controls less.
type Obstacle struct {
	Rect   Rect
	Weight float64
}

// Weights of obstacles for [PlaceToast].
const (
	WeightTask    = 100 // a task of the drawing
	WeightControl = 10  // the timeline, the drawing's tools, the detail sheet
	WeightText    = 1   // the header, the scenario's title and description
)

// PlaceToast returns where the top of a notice h pixels tall goes, on a
// screen screenH tall, spanning x0…x1: the place between margin and
// screenH − margin where it covers the least of the obstacles, each
// area counted by its weight; among places that cost the same, the
// lowest, where notices are looked for. A notice taller than the room
// goes at the top margin.
//
// The cost covered is piecewise linear in the top, so its least is at a
// place where an edge of the notice meets an edge of an obstacle, or at
// an end of the range: those are the places tried. The cost is O(n²)
// for n obstacles.
func PlaceToast(screenH, h, x0, x1, margin float64, obstacles []Obstacle) (top float64) {
	hi := screenH - margin - h
	if hi <= margin {
		return margin
	}
	cost := func(y float64) float64 {
		c := 0.0
		for _, o := range obstacles {
			w := min(x1, o.Rect.X1) - max(x0, o.Rect.X0)
			v := min(y+h, o.Rect.Y1) - max(y, o.Rect.Y0)
			if w > 0 && v > 0 {
				c += w * v * o.Weight
			}
		}
		return c
	}
	best, bestCost := hi, cost(hi)
	try := func(y float64) {
		if y < margin || y > hi {
			return
		}
		if c := cost(y); c < bestCost || (c == bestCost && y > best) {
			best, bestCost = y, c
		}
	}
	try(margin)
	for _, o := range obstacles {
		try(o.Rect.Y0 - h)
		try(o.Rect.Y1)
		try(o.Rect.Y0)
		try(o.Rect.Y1 - h)
	}
	return best
}
