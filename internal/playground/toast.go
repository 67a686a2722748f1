package playground

// Obstacle is a part of the screen a notice should not cover, with how
// much covering it costs: a task of the drawing costs most, the page's
// controls less.
type Obstacle struct {
	Rect   Rect
	Weight float64
}

// ToastGap is the room a notice keeps from what it does not cover: each
// obstacle counts as that much taller above and below. Placed edge to
// edge, a notice and a task measured a fraction of a pixel later
// overlapped.
const ToastGap = 4

// Weights of obstacles for [PlaceToast].
const (
	WeightTask    = 100 // a task of the drawing
	WeightControl = 10  // the timeline, the drawing's tools, the detail sheet
	WeightText    = 1   // the header, the scenario's title and description
)

// PlaceToast returns where the top of a notice h pixels tall goes, on a
// screen screenH tall, spanning x0…x1: the place between margin and
// screenH − margin where it covers the least of the obstacles, each
// area (grown by [ToastGap] above and below) counted by its weight;
// among places that cost the same, the lowest, where notices are looked
// for. A notice taller than the room goes at the top margin.
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
			v := min(y+h, o.Rect.Y1+ToastGap) - max(y, o.Rect.Y0-ToastGap)
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
		y0, y1 := o.Rect.Y0-ToastGap, o.Rect.Y1+ToastGap
		try(y0 - h)
		try(y1)
		try(y0)
		try(y1 - h)
	}
	return best
}
