//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/session"
)

// drawing is the stage: the graph (graph.go), sized to its zoom in its
// scroller, the part of a big graph around the view, the tasks a step
// changes followed into view, and the lineage of the task under the
// pointer highlighted. nav.go moves about it.
type drawing struct {
	a           *app
	g           *graph
	mm          *minimap  // the overview of a drawing bigger than the stage
	follow      bool      // bring the tasks a step changes into view
	holdFollow  bool      // but not those of the step drawn now (playground.JobFollow does)
	zoomText    string    // the zoom label written
	zoom        float64   // the zoom chosen; 0 until one is, when the drawing fits itself
	traced      string    // the task whose lineage is highlighted; "" for none
	hover       pointerAt // where the pointer is over the drawing, if it is
	touched     bool      // the last pointer on the drawing was a finger or a pen: no hover
	namesListed bool      // the find box suggests the tasks of the graph drawn
	atLeast     bool      // the drawing is at its least zoom: − is disabled
	atMost      bool      // the drawing is at playground.MaxZoom: + is disabled
	rowStale    bool      // the stage's width holds another number of boxes in a row: lay out again
	fitFor      [3]float64
	svgX, svgY  float64 // where the drawing is in the scroller's content, at fitFor: the layout's size and the zoom

	graphOf  *session.Session // the session and graph size drawn
	graphLen int
	nodes    []render.Node // the graph drawn

	el struct {
		scroller, stage, zoomIn, zoomOut, zoomFit, zoomLabel, find, names js.Value
		timeline                                                          js.Value
	}
}

func newDrawing(a *app) *drawing {
	d := &drawing{a: a, follow: true, g: newGraph(byID("graph"))}
	d.mm = newMinimap(d)
	e := &d.el
	byIDs(idField{&e.scroller, "scroller"}, idField{&e.stage, "stage"}, idField{&e.zoomIn, "zoom-in"},
		idField{&e.zoomOut, "zoom-out"}, idField{&e.zoomFit, "zoom-fit"}, idField{&e.zoomLabel, "zoom-label"},
		idField{&e.find, "find"}, idField{&e.names, "task-names"})
	e.timeline = document.Call("querySelector", ".timeline")
	return d
}

// draw draws the graph at step k: laid out again if the script submits
// more tasks or is another script, followed into view, its window drawn,
// and its tasks restyled (all of them after a new layout or a first
// drawing, else those the step changed), one after another when animate.
// view is where the scroller was before the step. It reports whether the
// graph was laid out again.
func (d *drawing) draw(view playground.Scroll, k int, animate bool) (relaid bool) {
	a := d.a
	p := a.p
	s := p.Session()
	all := s.GraphAt(scenario.StepEnd)
	if s != d.graphOf || len(all) != d.graphLen || d.rowStale {
		d.graphOf, d.graphLen, d.rowStale = s, len(all), false
		nodes, key := playground.GraphNodes(all)
		d.nodes = nodes
		relaid = d.g.setGraph(nodes, key, d.row())
	}
	if relaid {
		d.trace("")
		d.namesListed = false
	}
	d.fitIn(view.Width, view.Height)
	if d.follow && !d.holdFollow && k != a.shown {
		view = d.followAction(view, p.Focus(k))
	}
	d.g.setTabStops(p.TabStops(k))
	d.drawWindow(view)
	if relaid {
		d.retrace()
	}
	var tasks []string
	if relaid || a.shown < 0 {
		for _, n := range d.nodes {
			tasks = append(tasks, n.Name)
		}
	} else {
		tasks = p.Changed(a.shown, k)
	}
	reasons := p.Reasons()
	views := make([]playground.TaskView, len(tasks))
	for i, t := range tasks {
		views[i] = p.Task(t, reasons[t])
	}
	var events []core.Event
	if k > 0 {
		events = s.Step(k).Events
	}
	if animate && len(events) > 0 {
		d.animate(events, views)
	} else {
		for _, v := range views {
			d.g.show(v)
		}
	}
	d.g.markVisited(p.Visited(k))
	d.mm.update(true)
	return relaid
}

// fit sizes the drawing: at the zoom chosen, or, until one is, as
// playground.AutoZoom says for the stage. When the size changes, it
// notes where the drawing sits in the scroller (it is centred when
// smaller), which costs a layout.
func (d *drawing) fit() {
	sc := d.el.scroller
	d.fitIn(sc.Get("clientWidth").Float(), sc.Get("clientHeight").Float())
}

// fitIn is fit for a scroller of the size given, read before the page
// was changed: read after, it would cost a layout of its own.
func (d *drawing) fitIn(scW, scH float64) {
	z := d.zoom
	l := d.g.layout
	sc := d.el.scroller
	if z == 0 {
		z = playground.OpenZoom(l, scW-fitRoomX, scH-fitRoomY)
	}
	if d.g.setScale(z) || d.fitFor != [3]float64{l.Width, l.Height, z} {
		d.fitFor = [3]float64{l.Width, l.Height, z}
		gr, sr := d.g.svg.Call("getBoundingClientRect"), sc.Call("getBoundingClientRect")
		d.svgX = gr.Get("left").Float() - sr.Get("left").Float() + sc.Get("scrollLeft").Float()
		d.svgY = gr.Get("top").Float() - sr.Get("top").Float() + sc.Get("scrollTop").Float()
	}
	if label := strconv.Itoa(int(z*100+0.5)) + "%"; label != d.zoomText {
		d.zoomText = label
		setText(d.el.zoomLabel, label)
	}
	// At the least zoom, − says why it zooms out no further.
	lz := playground.LeastZoom(l, scW-fitRoomX, scH-fitRoomY)
	if least := z <= lz; least != d.atLeast {
		d.atLeast = least
		d.el.zoomOut.Set("disabled", least)
		passFocus(d.el.zoomOut, d.el.zoomIn)
		title := zoomOutTitle
		if least {
			title = playground.LeastZoomWhy(lz)
		}
		setAttr(d.el.zoomOut, "title", title)
	}
	if most := z >= playground.MaxZoom; most != d.atMost {
		d.atMost = most
		d.el.zoomIn.Set("disabled", most)
		passFocus(d.el.zoomIn, d.el.zoomOut)
		title := zoomInTitle
		if most {
			title = playground.MostZoomWhy
		}
		setAttr(d.el.zoomIn, "title", title)
	}
	toggleClass(d.g.svg, "unreadable", !playground.Readable(z))
	// The scroller's padding above the drawing is room for the banner.
	toggleClass(sc, "fits", playground.Fits(l.Width*z, l.Height*z, scW, scH-bannerRoom))
}

// row returns the most boxes in a row of the drawing: as many as fit the
// stage across at the least zoom that shows names (playground.RowFor).
// The stage's width is read with its scroll bar, so that a scroll bar
// coming or going lays out nothing.
func (d *drawing) row() int {
	return playground.RowFor(d.el.scroller.Get("offsetWidth").Float() - fitRoomX)
}

// resized lays the drawing out again if the stage's new width holds
// another number of boxes in a row, and fits it again.
func (d *drawing) resized() {
	if d.g.key != "" && d.row() != d.g.row {
		d.rowStale = true
		d.a.render(false)
		return
	}
	d.fitFor = [3]float64{}
	d.fit()
}

// bannerRoom is the scroller's padding above the drawing (style.css).
const bannerRoom = 34

// fitRoomX and fitRoomY are the room Fit leaves around the drawing in the
// stage, across and down (the banner's above it).
const fitRoomX, fitRoomY = 16, 50

// zoomOutTitle and zoomInTitle are the zoom buttons' titles (index.html).
const (
	zoomOutTitle = "Zoom out (−, or Ctrl+wheel)"
	zoomInTitle  = "Zoom in (+, or Ctrl+wheel)"
)

// view returns where the drawing's scroller is scrolled.
func (d *drawing) view() playground.Scroll {
	sc := d.el.scroller
	v := playground.Scroll{Left: sc.Get("scrollLeft").Float(), Top: sc.Get("scrollTop").Float(),
		Width: sc.Get("clientWidth").Float(), Height: sc.Get("clientHeight").Float()}
	// What of it the screen hides: above the window's top, below its
	// bottom or under the timeline stuck over it (on a phone).
	sr := sc.Call("getBoundingClientRect")
	left, top := sr.Get("left").Float()+sc.Get("clientLeft").Float(), sr.Get("top").Float()+sc.Get("clientTop").Float()
	screen := js.Global().Get("innerHeight").Float()
	bottom := min(screen, d.el.timeline.Call("getBoundingClientRect").Get("top").Float())
	if bottom <= top {
		bottom = screen // the timeline is above the stage (an embed)
	}
	v.Above, v.Below = max(0, -top), max(0, top+v.Height-bottom)
	// The minimap, drawn over the stage's corner, covers what is under it.
	if !d.mm.hidden {
		r := d.mm.canvas.Call("getBoundingClientRect")
		v.Cover = playground.Rect{X0: r.Get("left").Float() - left, Y0: r.Get("top").Float() - top,
			X1: r.Get("right").Float() - left, Y1: r.Get("bottom").Float() - top}
	}
	return v
}

// inContent returns where a task is in the scroller's content, in pixels.
func (d *drawing) inContent(task string) (x, y float64, ok bool) {
	x, y, ok = d.g.at(task)
	return x + d.svgX, y + d.svgY, ok
}

// followAction scrolls the drawing so that the tasks a step changed are
// in sight, if they are not (playground.FollowAll); view is where the
// scroller was before the step. It returns where the scroller is now.
func (d *drawing) followAction(view playground.Scroll, tasks []string) playground.Scroll {
	// The first few: a step about a thousand tasks is followed to its
	// first.
	var pts []render.Point
	for _, t := range tasks[:min(len(tasks), 8)] {
		if x, y, ok := d.inContent(t); ok {
			pts = append(pts, render.Point{X: x, Y: y})
		}
	}
	if len(pts) == 0 {
		return view
	}
	// Room for half a box about each task's centre, and a little more.
	l, z := d.g.layout, d.g.scale
	m := playground.Margin{X: l.NodeW/2*z + 8, Y: l.NodeH/2*z + 8}
	if left, top, move := playground.FollowAll(view, pts, m); move {
		d.a.scrollLater(d.el.scroller, left, top, true)
		view.Left, view.Top = left, top
	}
	return view
}

// followShown brings the tasks of the step shown into view, as drawing a
// step followed does: play too quick to animate does it in a frame after
// the step's (playground.JobFollow).
func (d *drawing) followShown() {
	if d.follow {
		view := d.followAction(d.view(), d.a.p.Focus(d.a.shown))
		// The page is laid out at a frame's start: the scroll is set
		// at once, so that the view moves and its window is drawn in
		// the same frame, painted once, not the window in one frame and
		// the view in the next.
		d.a.flushScrolls()
		d.drawWindow(view)
	}
}

// drawWindow draws the part of a big graph around the view.
func (d *drawing) drawWindow(view playground.Scroll) {
	d.mm.update(false)
	d.g.setWindow(playground.Seen(view, d.svgX, d.svgY, d.g.scale), playground.Window(view, d.svgX, d.svgY, d.g.scale))
}

// animate changes the tasks of one step in event order, so that a wave of
// blocking or unblocking runs down the graph nearest first, as
// playground.Schedule times it; then every task the step changed is drawn
// as the step ends.
func (d *drawing) animate(events []core.Event, final []playground.TaskView) {
	a := d.a
	batches, done := playground.Schedule(events)
	end := func() {
		for _, v := range final {
			d.g.show(v)
		}
	}
	a.pending = end
	pulses := playground.Pulses(events)
	for _, b := range batches {
		evs := b.Events
		a.later(b.At, func() { d.applyEvents(evs, pulses) })
	}
	a.later(done, func() {
		end()
		a.pending = nil
		// When the wave ended, for the speed benchmark (site/speed_test.go).
		setData(a.el.body, "waveEndMs", strconv.FormatFloat(now(), 'f', 1, 64))
	})
}

// applyEvents draws events drawn together: each task's new state, with
// a pulse that says what kind of change it was when pulses is set.
func (d *drawing) applyEvents(evs []core.Event, pulses bool) {
	var fs []flash
	for _, e := range evs {
		reason := ""
		if e.To == core.Dead || e.To == core.Blocked {
			reason = e.Reason
		}
		if d.g.show(d.a.p.TaskAs(e.Task, e.To, reason)) {
			fs = append(fs, flash{e.Task, "arrive"})
		}
		if c := playground.Pulse(e); c != "" && pulses {
			fs = append(fs, flash{e.Task, c})
		}
	}
	d.g.pulse(fs...)
}

// flashCycle shows a refused cycle: its tasks and edges highlighted and the
// path named, fading after a moment.
func (d *drawing) flashCycle(b playground.Banner) {
	undo := d.g.flashCycle(b.Cycle)
	d.a.showBanner(b.Kind, b.Text)
	afterAll(playground.Flash, undo)
}

// focusTask gives the focus to a task of the drawing, if it is drawn.
func (d *drawing) focusTask(task string) {
	if nd := d.g.nodes[task]; nd != nil && nd.drawn {
		nd.g.Call("focus", map[string]any{"preventScroll": true})
	}
}
