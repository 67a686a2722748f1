package playground

import (
	"math"
	"slices"
	"strings"

	"github.com/dagq/dagq/core/render"
)

// Zoom limits: the drawing is shown between a fiftieth of its size and three
// times it.
const (
	MinZoom = 0.02
	MaxZoom = 3
	// ZoomFactor is what one press of + or − multiplies the zoom by.
	ZoomFactor = 1.25
)

// ClampZoom keeps a zoom within [MinZoom, MaxZoom].
func ClampZoom(z float64) float64 {
	if math.IsNaN(z) || z <= 0 {
		return 1
	}
	return min(MaxZoom, max(MinZoom, z))
}

// FitZoom returns the zoom at which a drawing of w×h fits a view of
// vw×vh: never above 1 (a small graph is shown at its size), and never below
// MinZoom.
func FitZoom(w, h, vw, vh float64) float64 {
	if w <= 0 || h <= 0 || vw <= 0 || vh <= 0 {
		return 1
	}
	return ClampZoom(min(1, vw/w, vh/h))
}

// FindReadable is the least zoom at which a task's name can be read.
const FindReadable = 0.6

// FindZoom returns the zoom at which a task found by name is shown, from
// the zoom z the drawing is at: z where a name can be read there, else 1
// (its size), so that what Find brings into the middle of the view is not
// a speck of a graph fitted at 2%.
func FindZoom(z float64) float64 {
	if z >= FindReadable {
		return z
	}
	return 1
}

// WheelZoom returns the zoom after a wheel turn of deltaY pixels with Ctrl
// held (a trackpad's pinch arrives as one): up zooms in, smoothly.
func WheelZoom(z, deltaY float64) float64 {
	return ClampZoom(z * math.Exp(-deltaY/300))
}

// Scroll is where a scrolled view is: its scroll offsets and its size, in
// the pixels of the content.
type Scroll struct {
	Left, Top, Width, Height float64
	// Above and Below are how much of the view's top and bottom the
	// screen does not show: scrolled off it, or under a bar stuck to its
	// bottom (a phone's timeline). Centre and Follow bring a point into
	// the part in sight, where that is at least [SightMin] tall.
	Above, Below float64
	// Cover is a part of the view that something drawn over it hides
	// (the minimap), from the view's top left corner; Follow takes a
	// point near it for out of sight. The zero Rect covers nothing.
	Cover Rect
}

// covered reports whether the point (x, y) of the content is under the
// view's cover, or within m of it.
func (v Scroll) covered(x, y float64, m Margin) bool {
	c := v.Cover
	if c.X1 <= c.X0 || c.Y1 <= c.Y0 {
		return false
	}
	x, y = x-v.Left, y-v.Top
	return x > c.X0-m.X && x < c.X1+m.X && y > c.Y0-m.Y && y < c.Y1+m.Y
}

// Margin is the room Follow keeps about a point brought into sight, across
// and down: about half a task's box, so that the whole box shows.
type Margin struct{ X, Y float64 }

// half is half of m: how near the cover a point counts as under it.
func (m Margin) half() Margin { return Margin{m.X / 2, m.Y / 2} }

// SightMin is the least height of a view's part in sight that Centre and
// Follow aim at; less in sight, they aim at the whole view.
const SightMin = 120

// sight returns the part of v on the screen, or v where too little is.
func (v Scroll) sight() Scroll {
	above, below := max(0, v.Above), max(0, v.Below)
	if v.Height-above-below < SightMin {
		above, below = 0, 0
	}
	return Scroll{Left: v.Left, Top: v.Top + above, Width: v.Width, Height: v.Height - above - below}
}

// Fits reports whether a drawing of w×h (its size at the zoom shown)
// fits a view of vw×vh, leaving nothing to pan: a swipe on it is then the
// page's, to scroll a phone's page, not the drawing's.
func Fits(w, h, vw, vh float64) bool { return w <= vw && h <= vh }

// ZoomAround returns the scroll offsets that keep the point (x, y) of the
// view (relative to its top left corner) over the same spot of the drawing
// when the zoom goes from z0 to z1.
func ZoomAround(v Scroll, z0, z1, x, y float64) (left, top float64) {
	r := z1 / z0
	return max(0, (v.Left+x)*r-x), max(0, (v.Top+y)*r-y)
}

// Centre returns the scroll offsets that put the point (x, y) of the
// content in the middle of the view's part in sight (as near as the edges
// allow).
func Centre(v Scroll, x, y float64) (left, top float64) {
	s := v.sight()
	return max(0, x-s.Width/2), max(0, y-(s.Top-v.Top)-s.Height/2)
}

// Follow returns the scroll offsets that bring the point (x, y) of the
// content into the view's part in sight, m from its edges and clear of its
// cover, centring it, and whether the view has to move at all: a task
// already in sight stays where it is.
func Follow(v Scroll, x, y float64, m Margin) (left, top float64, move bool) {
	p := render.Point{X: x, Y: y}
	return followBounds(v, Rect{X0: x, Y0: y, X1: x, Y1: y}, []render.Point{p}, m)
}

// followBounds brings the bounds b of the points pts into the part of v in
// sight, m from its edges, centring b on each axis along which it has to
// move, and all of it when the cover would then be over one of pts.
func followBounds(v Scroll, b Rect, pts []render.Point, m Margin) (left, top float64, move bool) {
	left, top = v.Left, v.Top
	s := v.sight()
	cl, ct := Centre(v, (b.X0+b.X1)/2, (b.Y0+b.Y1)/2)
	if b.X0 < s.Left+m.X || b.X1 > s.Left+s.Width-m.X {
		left, move = cl, true
	}
	if b.Y0 < s.Top+m.Y || b.Y1 > s.Top+s.Height-m.Y {
		top, move = ct, true
	}
	if v.coversAt(left, top, m, pts...) {
		left, top, move = cl, ct, true
	}
	return left, top, move
}

// coversAt reports whether the view's cover, the view scrolled to (left,
// top), is over or near one of the points.
func (v Scroll) coversAt(left, top float64, m Margin, pts ...render.Point) bool {
	v.Left, v.Top = left, top
	for _, p := range pts {
		if v.covered(p.X, p.Y, m.half()) {
			return true
		}
	}
	return false
}

// FollowAll is Follow for the tasks a step is about, at pts, the first
// first: where their bounds fit the part in sight within m it brings them
// all into it, centring the bounds on each axis it has to move along;
// else it follows the first. A caption that names a task SUCCEEDED and the
// next READY shows both.
//
// The cost is O(len(pts)).
func FollowAll(v Scroll, pts []render.Point, m Margin) (left, top float64, move bool) {
	if len(pts) == 0 {
		return v.Left, v.Top, false
	}
	if len(pts) == 1 {
		return Follow(v, pts[0].X, pts[0].Y, m)
	}
	b := Rect{X0: pts[0].X, Y0: pts[0].Y, X1: pts[0].X, Y1: pts[0].Y}
	for _, p := range pts[1:] {
		b.X0, b.Y0, b.X1, b.Y1 = min(b.X0, p.X), min(b.Y0, p.Y), max(b.X1, p.X), max(b.Y1, p.Y)
	}
	if s := v.sight(); b.X1-b.X0 > s.Width-2*m.X || b.Y1-b.Y0 > s.Height-2*m.Y {
		return Follow(v, pts[0].X, pts[0].Y, m)
	}
	return followBounds(v, b, pts, m)
}

// Find returns the task a search names: the task of exactly that name,
// else the first (in arrival order) whose name starts with it, else the
// first that contains it, ignoring case; false if none does.
//
// The cost is O(tasks).
func (p *Page) Find(query string) (string, bool) {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return "", false
	}
	nodes, _ := GraphNodes(p.s.GraphAt(StepEnd))
	prefix, contains := "", ""
	for _, n := range nodes {
		name := strings.ToLower(n.Name)
		switch {
		case name == q:
			return n.Name, true
		case prefix == "" && strings.HasPrefix(name, q):
			prefix = n.Name
		case contains == "" && strings.Contains(name, q):
			contains = n.Name
		}
	}
	if prefix != "" {
		return prefix, true
	}
	return contains, contains != ""
}

// TaskNames returns the name of every task of the drawing, in arrival
// order, for the find box to suggest.
func (p *Page) TaskNames() []string {
	nodes, _ := GraphNodes(p.s.GraphAt(StepEnd))
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Name
	}
	return out
}

// Lineage is what hovering a task highlights: every task it waits on,
// transitively (Up), every task that waits on it (Down), and the edges
// between them, as [dependency, dependent] pairs.
type Lineage struct {
	Up, Down []string
	Edges    [][2]string
}

// Lineage returns the upstream and downstream of a task in the whole
// script's graph, nearest first.
//
// The cost is O(tasks + edges).
func (p *Page) Lineage(task string) Lineage {
	nodes, _ := GraphNodes(p.s.GraphAt(StepEnd))
	deps := make(map[string][]string, len(nodes))
	dependents := make(map[string][]string, len(nodes))
	for _, n := range nodes {
		deps[n.Name] = n.Deps
		for _, d := range n.Deps {
			dependents[d] = append(dependents[d], n.Name)
		}
	}
	var l Lineage
	walk := func(next map[string][]string, up bool) []string {
		seen := map[string]bool{task: true}
		var out []string
		queue := []string{task}
		for len(queue) > 0 {
			t := queue[0]
			queue = queue[1:]
			for _, u := range next[t] {
				if up {
					l.Edges = append(l.Edges, [2]string{u, t})
				} else {
					l.Edges = append(l.Edges, [2]string{t, u})
				}
				if !seen[u] {
					seen[u] = true
					out = append(out, u)
					queue = append(queue, u)
				}
			}
		}
		return out
	}
	l.Up = walk(deps, true)
	l.Down = walk(dependents, false)
	slices.SortFunc(l.Edges, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	l.Edges = slices.Compact(l.Edges)
	return l
}

// OpenFittedMin is the least zoom a drawing opens fitted at: at a fifth
// of its size a task is still a box a pointer can take, its state a
// colour the eye tells apart. Below it the tasks are specks, and a
// view of thousands of them costs every step a restyle of all.
const OpenFittedMin = 0.2

// AutoZoom returns the zoom a drawing of w×h opens at in a view of vw×vh
// (the stage, less the room Fit leaves): a graph that fits is shown at
// its size (1), never enlarged; one too big for the view opens fitted, as
// the Fit button shows it ([FitZoom]), when that zoom is at least
// [OpenFittedMin], so that the first view shows the whole graph
// (wide-1000); one bigger still (chain-200, a DAG of thousands) opens at
// its size, scrolled to the action ([Follow]), its names readable.
//
// The cost is O(1).
func AutoZoom(w, h, vw, vh float64) float64 {
	if z := FitZoom(w, h, vw, vh); z >= OpenFittedMin {
		return z
	}
	return 1
}

// Text on the drawing is never drawn under MinTextPx pixels on the
// screen: its smallest text, the state label, is SmallestTextPx at 100%,
// so that below ReadableZoom the drawing's texts are not drawn at all
// (its boxes and colours are, an overview; a task's name is in its
// tooltip and accessible name).
const (
	MinTextPx      = 9
	SmallestTextPx = 10
	ReadableZoom   = MinTextPx / float64(SmallestTextPx)
)

// Readable reports whether the drawing's texts are drawn at zoom z: at
// z ≥ [ReadableZoom] they are MinTextPx or more on the screen.
func Readable(z float64) bool { return z >= ReadableZoom }

// LeastZoom returns the least zoom the drawing of layout l is shown at in
// a view of vw×vh (the stage, less the room Fit leaves), by Fit, the
// zoom buttons, the wheel and a pinch: [ReadableZoom], where its smallest
// text is MinTextPx on the screen; a graph too big for the view at that
// zoom is panned, and the minimap beside it shows the whole. Six tasks of
// retry-storm-jitter were fitted at 59%, their labels 5.9 px and most of
// the stage empty; a chain of 3,000 at 2%, an empty-looking stage.
//
// A graph with compact grids (wide-1000), whose cells carry no text at
// any zoom, may be zoomed out to the zoom at which it fits ([FitZoom]),
// an overview whose texts are not drawn ([Readable]), as long as that
// keeps [OpenFittedMin] of its size; one that fits only below that
// (outage, a speck of a strip) stops at ReadableZoom like any other.
//
// The cost is O(1).
func LeastZoom(l render.Layout, vw, vh float64) float64 {
	if fit := FitZoom(l.Width, l.Height, vw, vh); len(l.Grids) > 0 && fit >= OpenFittedMin {
		return min(fit, ReadableZoom)
	}
	return ReadableZoom
}

// LeastZoomWhy says why the zoom-out button, disabled, zooms out no
// further at the least zoom least ([LeastZoom]).
func LeastZoomWhy(least float64) string {
	if least < ReadableZoom {
		return "Zoomed out as far as it goes: the whole graph shows"
	}
	return "Zoomed out as far as names can be read (9 px on the screen); the minimap shows a graph bigger than the stage"
}

// MostZoomWhy says why the zoom-in button, disabled at [MaxZoom], zooms
// in no further.
const MostZoomWhy = "Zoomed in as far as it goes"

// ZoomWithin keeps a zoom within [least, MaxZoom], least from [LeastZoom].
func ZoomWithin(z, least float64) float64 { return max(least, ClampZoom(z)) }

// OpenZoom returns the zoom a drawing of layout l opens at in a view of
// vw×vh: [AutoZoom], but never below [LeastZoom], so that a graph whose
// texts would be too small to read when fitted opens at ReadableZoom,
// scrolled to the action (retry-storm-jitter's six tasks were fitted at
// 59%, state labels 5.9 px). A graph of compact grids with at most
// [OverviewBoxes] boxes beside its cells (wide-1000's download and
// reduce) still opens fitted, as an overview without texts that loses
// few names; one with more (the outage's forty fetches) opens readable.
//
// The cost is O(1).
func OpenZoom(l render.Layout, vw, vh float64) float64 {
	least := LeastZoom(l, vw, vh)
	if len(l.Pos)-len(l.Compact) > OverviewBoxes {
		least = max(least, ReadableZoom)
	}
	return ZoomWithin(AutoZoom(l.Width, l.Height, vw, vh), least)
}

// OverviewBoxes is the most boxes (tasks not drawn as cells) a graph of
// compact grids has for it to open as an overview without texts.
const OverviewBoxes = 12

// FitFor returns the zoom the Fit button shows a drawing of layout l at
// in a view of vw×vh: the zoom at which it fits ([FitZoom]), but never
// below [LeastZoom]; the minimap shows the whole of a graph bigger than
// that.
func FitFor(l render.Layout, vw, vh float64) float64 {
	return ZoomWithin(FitZoom(l.Width, l.Height, vw, vh), LeastZoom(l, vw, vh))
}

// READY line lengths: collapsed, the line lists its front few and says how
// many more wait; opened, it lists up to ReadyOpen.
const (
	ReadyCollapsed = 12
	ReadyOpen      = 500
)

// Dead-letter queue lengths, as the READY line's: collapsed, its first few
// entries (the console above it groups them all); opened, up to DLQOpen.
const (
	DLQCollapsed = 12
	DLQOpen      = 500
)

// Tab stops of the drawing: a graph of fewer than TabAllBelow tasks has
// every task in the Tab order; a bigger one at most TabStopsMax.
const (
	TabAllBelow = 60
	TabStopsMax = 12
)

// TabStops returns the tasks of the drawing that Tab stops at, at step k.
// In a graph of fewer than [TabAllBelow] tasks, all of them (all is true).
// In a bigger one, the tasks the step is about ([Page.Focus]), at most
// [TabStopsMax], or the first task of the graph when no step is about one:
// a thousand tasks in the Tab order took a thousand presses to cross
// before the timeline. Find, the READY line and the dead-letter queue
// reach the others, and any task can still take the focus.
//
// The cost is that of [Page.Focus].
func (p *Page) TabStops(k int) (all bool, tasks map[string]bool) {
	nodes := p.s.GraphAt(StepEnd)
	if len(nodes) < TabAllBelow {
		return true, nil
	}
	focus := p.Focus(k)
	if len(focus) == 0 {
		focus = []string{nodes[0].Task}
	}
	tasks = make(map[string]bool, min(len(focus), TabStopsMax))
	for _, t := range focus[:min(len(focus), TabStopsMax)] {
		tasks[t] = true
	}
	return false, tasks
}

// DrawAllBelow is the size of graph drawn whole; a bigger one is drawn
// only around the view ([Window]), so that a step costs the browser what
// is on the screen, not the whole graph.
const DrawAllBelow = 600

// Rect is a part of the layout, in its own coordinates.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Seen returns the part of the layout a view shows. offX and offY are
// where the drawing starts in the view's content, scale its zoom.
func Seen(v Scroll, offX, offY, scale float64) Rect {
	if scale <= 0 {
		scale = 1
	}
	x0, y0 := (v.Left-offX)/scale, (v.Top-offY)/scale
	return Rect{x0, y0, x0 + v.Width/scale, y0 + v.Height/scale}
}

// Window returns the part of the layout to draw for a view: what it
// shows ([Seen]), and a quarter as much again on every side, so that
// scrolling a little finds the tasks drawn already. The page draws a new
// window only when the part seen leaves the one drawn. The margin is what
// a jump of the view costs: play at 16× that follows its steps jumps once a
// second, and a window of four times the view drew a thousand tasks anew
// at each jump where one of 2.25 times draws 560.
func Window(v Scroll, offX, offY, scale float64) Rect {
	r := Seen(v, offX, offY, scale)
	w, h := (r.X1-r.X0)/4, (r.Y1-r.Y0)/4
	return Rect{r.X0 - w, r.Y0 - h, r.X1 + w, r.Y1 + h}
}

// Holds reports whether the box centred on (x, y), w×h, meets r.
func (r Rect) Holds(x, y, w, h float64) bool {
	return x+w/2 >= r.X0 && x-w/2 <= r.X1 && y+h/2 >= r.Y0 && y-h/2 <= r.Y1
}

// Contains reports whether r holds all of o.
func (r Rect) Contains(o Rect) bool {
	return o.X0 >= r.X0 && o.X1 <= r.X1 && o.Y0 >= r.Y0 && o.Y1 <= r.Y1
}

// Crosses reports whether the segment from (x0, y0) to (x1, y1), widened
// by pad on every side, meets r: Liang and Barsky's clipping of a line by a
// rectangle ("A new concept and method for line clipping", ACM TOG 3(1),
// 1984), with the rectangle grown by pad.
func (r Rect) Crosses(x0, y0, x1, y1, pad float64) bool {
	xmin, ymin, xmax, ymax := r.X0-pad, r.Y0-pad, r.X1+pad, r.Y1+pad
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, x0 - xmin}, {dx, xmax - x0}, {-dy, y0 - ymin}, {dy, ymax - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false // parallel to this edge and outside it
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
