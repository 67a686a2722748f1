//go:build js && wasm

package main

import (
	"math"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/playground"
)

// graph is the drawing: every task the whole script submits, laid out once
// by render.LayOut, so that nothing moves while stepping. A task not
// submitted at the step shown is a ghost (dashed, no state); one submitted
// is drawn as the render package draws it:
//
//	<g class="task" data-task="NAME" data-state="STATE">
//
// with its name and the state's icon and label, in the state's colours.
// When the script grows (a command added, a script run), the graph is laid
// out again and the tasks glide to their new places.
//
// A graph of playground.DrawAllBelow tasks or more is drawn only around the
// view (its window): every task keeps what it shows in its gnode, and gets
// an element when the view comes near it.
type graph struct {
	svg, edgeLayer, nodeLayer, overlay js.Value
	bundleLayer                        js.Value // compact grids' frames and bundled edges

	key      string // the graph laid out, as text
	row      int    // the most boxes in a row it was laid out with (playground.RowFor)
	layout   render.Layout
	scale    float64 // the drawing's size over the layout's
	nodes    map[string]*gnode
	edges    map[[2]string]*gedge // by [dependency, dependent]
	edgeList []*gedge             // the edges, in the order of the graph's nodes and their dependencies
	into     map[string][]*gedge  // the edges into each dependent
	marked   map[string]bool      // the tasks marked visited
	tabAll   bool                 // every task is in the Tab order
	tabStops map[string]bool      // else, the tasks that are
	order    []*gnode             // the tasks in layout order
	gen      uint64               // setGraph's calls: what a call keeps carries its number
	all      bool                 // every task is drawn
	win      playground.Rect      // the part of the layout drawn, when not all

	untrace []func() // takes the highlight of a hovered task's lineage away
	bundles []*gbundle
}

// gbundle is a bundle of a compact grid's edges (playground.Bundle), drawn
// when it passes through the window, as an edge is.
type gbundle struct {
	playground.Bundle
	path  js.Value
	drawn bool
}

// gnode is a task as drawn, with what was last written to the page so
// that a step changes only what it must.
type gnode struct {
	name    string
	g       js.Value
	tt, sub js.Value   // its title and state label, found when first changed
	kind    string     // "task" or "ghost"
	state   core.State // drawn state ("" for a ghost)
	subText string     // drawn state label
	tip     string     // drawn title
	aria    string     // drawn accessible name
	x, y    float64
	cell    bool   // drawn as a cell of a compact grid: a box without texts
	drawn   bool   // g is on the page
	gen     uint64 // the last setGraph that kept it
}

// gedge is a dependency drawn as a path from the dependency down to the
// task that waits on it.
type gedge struct {
	from, to string
	a, b     *gnode // the tasks of from and to
	bundled  bool   // drawn in a bundle of a compact grid (playground.Bundled), not alone
	path     js.Value
	shape    string // the path drawn; "" until it is drawn
	future   bool   // the dependent has not been submitted at this step
	drawn    bool   // path is on the page
	gen      uint64 // the last setGraph that kept it
}

const ghostLabel = playground.GhostLabel

func newGraph(svg js.Value) *graph {
	g := &graph{svg: svg, nodes: map[string]*gnode{}, edges: map[[2]string]*gedge{}, into: map[string][]*gedge{}}
	defs := createSVG("defs", "")
	marker := createSVG("marker", "")
	for k, v := range map[string]string{"id": "arrow", "viewBox": "0 0 10 10", "refX": "9", "refY": "5",
		"markerWidth": "7", "markerHeight": "7", "orient": "auto-start-reverse"} {
		setAttr(marker, k, v)
	}
	tip := createSVG("path", "arrow-tip")
	setAttr(tip, "d", "M0,1 L10,5 L0,9 z")
	appendTo(marker, tip)
	appendTo(defs, marker)
	appendTo(svg, defs)
	g.bundleLayer = createSVG("g", "bundles")
	g.edgeLayer = createSVG("g", "edges")
	g.nodeLayer = createSVG("g", "nodes")
	g.overlay = createSVG("g", "overlay")
	appendTo(svg, g.bundleLayer)
	appendTo(svg, g.edgeLayer)
	appendTo(svg, g.nodeLayer)
	appendTo(svg, g.overlay)
	return g
}

// setScale shows the drawing at a zoom: its size is the layout's times
// scale.
func (g *graph) setScale(scale float64) bool {
	l := g.layout
	if l.Width == 0 || l.Height == 0 || scale == g.scale {
		return false
	}
	g.scale = scale
	// Whole pixels, rounded up: a drawing a fraction of a pixel narrower
	// than its zoom drew 9 px texts 8.999 px high.
	setAttr(g.svg, "width", num(math.Ceil(l.Width*scale)))
	setAttr(g.svg, "height", num(math.Ceil(l.Height*scale)))
	return true
}

// trace highlights a task's upstream and downstream (playground.Lineage)
// and dims the rest; an empty lineage and task "" take it away.
func (g *graph) trace(task string, l playground.Lineage) {
	for _, f := range g.untrace {
		f()
	}
	g.untrace = g.untrace[:0]
	toggleClass(g.svg, "tracing", task != "")
	mark := func(name, class string) {
		if nd := g.nodes[name]; nd != nil && nd.drawn {
			addClass(nd.g, class)
			g.untrace = append(g.untrace, func() { removeClass(nd.g, class) })
		}
	}
	if task == "" {
		return
	}
	mark(task, "traced")
	for _, t := range l.Up {
		mark(t, "up")
	}
	for _, t := range l.Down {
		mark(t, "down")
	}
	for _, k := range l.Edges {
		if e := g.edges[k]; e != nil && e.drawn {
			addClass(e.path, "lit")
			g.untrace = append(g.untrace, func() { removeClass(e.path, "lit") })
		}
	}
}

// setGraph lays out the graph (nodes, with key, from
// playground.GraphNodes) with rows of at most row boxes
// (playground.RowFor) if it or row changed, moving the
// tasks that stay, adding the new ones and removing the ones gone. It
// reports whether the layout changed.
func (g *graph) setGraph(nodes []render.Node, key string, row int) bool {
	if key == g.key && row == g.row {
		return false
	}
	g.key, g.row = key, row
	g.layout = playground.LayOutRow(nodes, row)
	l := g.layout
	setAttr(g.svg, "viewBox", "0 0 "+num(l.Width)+" "+num(l.Height))
	g.scale = 0
	g.all = len(nodes) < playground.DrawAllBelow
	g.drawBundles(nodes)

	deps := 0
	for _, n := range nodes {
		deps += len(n.Deps)
	}
	// Maps sized at once: grown a doubling at a time, a graph of thousands
	// cost the first layout tens of milliseconds of copying.
	if len(g.nodes) == 0 {
		g.nodes = make(map[string]*gnode, len(nodes))
	}
	if len(g.edges) == 0 {
		g.edges = make(map[[2]string]*gedge, deps)
	}
	// What this call keeps carries its number: the nodes and edges of
	// earlier calls without it go. Two maps of names, keys made anew at
	// every call, cost a 100,000-task DAG a tenth of its first drawing.
	g.gen++
	gen := g.gen
	g.order = g.order[:0]
	for _, n := range nodes {
		p := l.Pos[n.Name]
		nd := g.nodes[n.Name]
		if nd == nil {
			nd = &gnode{name: n.Name, kind: "ghost", subText: ghostLabel, tip: n.Name + ": not submitted", aria: n.Name + ": not submitted", x: p.X, y: p.Y}
			g.nodes[n.Name] = nd
		} else if cell := l.Compact[n.Name]; cell != nd.cell {
			// A layer became a grid, or stopped being one: drawn anew.
			if nd.drawn {
				nd.g.Call("remove")
				nd.g, nd.tt, nd.sub, nd.drawn = js.Undefined(), js.Undefined(), js.Undefined(), false
			}
			nd.x, nd.y = p.X, p.Y
		} else if p.X != nd.x || p.Y != nd.y {
			x0, y0 := nd.x, nd.y
			nd.x, nd.y = p.X, p.Y
			if nd.drawn {
				g.place(nd, x0, y0)
			}
		}
		nd.cell = l.Compact[n.Name]
		nd.gen = gen
		g.order = append(g.order, nd)
	}
	for name, nd := range g.nodes {
		if nd.gen != gen {
			if nd.drawn {
				nd.g.Call("remove")
			}
			delete(g.nodes, name)
		}
	}

	// The edges, in the order of the nodes and their dependencies, each
	// once however often d is named; the ones into each dependent.
	g.into = make(map[string][]*gedge, deps)
	g.edgeList = g.edgeList[:0]
	kept := 0
	for i, n := range nodes {
		to := g.order[i]
		for _, d := range n.Deps {
			from := g.nodes[d]
			if d == n.Name || from == nil {
				continue
			}
			k := [2]string{d, n.Name}
			e := g.edges[k]
			if e != nil && e.gen == gen {
				continue
			}
			kept++
			if e == nil {
				e = &gedge{from: d, to: n.Name, future: true, gen: gen}
				g.edges[k] = e
				g.listEdge(e, from, to)
				continue
			}
			e.gen = gen
			g.listEdge(e, from, to)
			if !e.drawn {
				e.shape = "" // made when drawn
				continue
			}
			if shape := l.Edge(d, n.Name); shape != e.shape {
				// The path is set as the CSS d property too, so that it
				// glides with its tasks where browsers animate it.
				e.shape = shape
				setAttr(e.path, "d", shape)
				e.path.Get("style").Set("d", "path('"+shape+"')")
			}
		}
	}
	toggleClass(g.svg, "dense", kept > 150)
	for k, e := range g.edges {
		if e.gen != gen {
			if e.drawn {
				e.path.Call("remove")
			}
			delete(g.edges, k)
		}
	}
	g.draw()
	return true
}

// listEdge notes what drawing a window asks of an edge kept by setGraph,
// from task a to task b, found once there: a window is drawn at every
// scroll that leaves it.
func (g *graph) listEdge(e *gedge, a, b *gnode) {
	e.a, e.b = a, b
	e.bundled = playground.Bundled(g.layout, e.from, e.to)
	g.into[e.to] = append(g.into[e.to], e)
	g.edgeList = append(g.edgeList, e)
}

// setWindow draws the window win of the layout (and takes away what is
// outside it) when the part seen is not all in the window drawn, unless
// the whole graph is drawn.
func (g *graph) setWindow(seen, win playground.Rect) {
	if g.all || g.win.Contains(seen) && g.win != (playground.Rect{}) {
		return
	}
	g.win = win
	g.draw()
}

// inWindow reports whether a task is to be drawn.
func (g *graph) inWindow(nd *gnode) bool {
	return g.all || g.win.Holds(nd.x, nd.y, g.layout.NodeW, g.layout.NodeH)
}

// edgeInWindow reports whether an edge is to be drawn: whether it passes
// through the window. The edge is a curve between its ends that bends
// within a layer's gap of them (render.EdgePath), so the line between
// them, widened by two task heights, holds it.
func (g *graph) edgeInWindow(e *gedge) bool {
	if e.bundled {
		return false // drawn in its bundle
	}
	if g.all {
		return true
	}
	a, b := e.a, e.b
	if a == nil || b == nil {
		return false
	}
	return g.win.Crosses(a.x, a.y, b.x, b.y, 2*g.layout.NodeH)
}

// draw makes the elements of the tasks and edges in the window that have
// none, and removes those of the ones outside it. New elements are
// written as markup, in one call a layer: a thousand tasks made element
// by element would take a second.
func (g *graph) draw() {
	var fresh []*gnode
	var markup strings.Builder
	for _, nd := range g.order {
		switch in := g.inWindow(nd); {
		case in && !nd.drawn:
			fresh = append(fresh, nd)
			g.nodeMarkup(&markup, nd)
		case !in && nd.drawn:
			nd.g.Call("remove")
			nd.g, nd.tt, nd.sub, nd.drawn = js.Undefined(), js.Undefined(), js.Undefined(), false
		}
	}
	appendMarkup(g.nodeLayer, markup.String(), len(fresh), func(i int, el js.Value) { fresh[i].g, fresh[i].drawn = el, true })

	var freshEdges []*gedge
	markup.Reset()
	for _, e := range g.edgeList {
		switch in := g.edgeInWindow(e); {
		case in && !e.drawn:
			if e.shape == "" {
				e.shape = g.layout.Edge(e.from, e.to)
			}
			freshEdges = append(freshEdges, e)
			class := "edge"
			if e.future {
				class += " future"
			}
			markup.WriteString(`<path class="` + class + `" data-from="` + xmlEscape(e.from) + `" data-to="` + xmlEscape(e.to) +
				`" marker-end="url(#arrow)" d="` + e.shape + `" style="d:path('` + e.shape + `')"/>`)
		case !in && e.drawn:
			e.path.Call("remove")
			e.path, e.drawn = js.Undefined(), false
		}
	}
	appendMarkup(g.edgeLayer, markup.String(), len(freshEdges), func(i int, el js.Value) { freshEdges[i].path, freshEdges[i].drawn = el, true })
	g.drawBundlesInWindow()
}

// drawBundles draws the compact grids' frames and lays out the bundles of
// the edges at their cells (playground.Bundles), which draw draws in place
// of those edges, near the view.
func (g *graph) drawBundles(nodes []render.Node) {
	var b strings.Builder
	for _, gr := range playground.Grids(g.layout) {
		b.WriteString(`<rect class="grid-frame" x="` + num(gr.X0-4) + `" y="` + num(gr.Y0-4) + `" width="` + num(gr.X1-gr.X0+8) +
			`" height="` + num(gr.Y1-gr.Y0+8) + `" rx="6"/>`)
	}
	g.bundleLayer.Set("innerHTML", b.String())
	for _, bu := range g.bundles {
		if bu.drawn {
			bu.path.Call("remove")
		}
	}
	g.bundles = g.bundles[:0]
	for _, bu := range playground.Bundles(nodes, g.layout) {
		g.bundles = append(g.bundles, &gbundle{Bundle: bu})
	}
}

// drawBundlesInWindow draws the bundles that pass through the window and
// removes the others.
func (g *graph) drawBundlesInWindow() {
	var markup strings.Builder
	var fresh []*gbundle
	for _, bu := range g.bundles {
		in := g.all || g.win.Crosses(bu.X0, bu.Y0, bu.X1, bu.Y1, 2*g.layout.NodeH)
		switch {
		case in && !bu.drawn:
			fresh = append(fresh, bu)
			markup.WriteString(`<path class="bundle" marker-end="url(#arrow)" d="` + bu.Path + `"><title>` + xmlEscape(bu.Title) + `</title></path>`)
		case !in && bu.drawn:
			bu.path.Call("remove")
			bu.path, bu.drawn = js.Undefined(), false
		}
	}
	appendMarkup(g.edgeLayer, markup.String(), len(fresh), func(i int, el js.Value) { fresh[i].path, fresh[i].drawn = el, true })
}

// appendMarkup adds SVG markup at the end of layer and hands over the n
// elements it made, in order.
func appendMarkup(layer js.Value, markup string, n int, each func(i int, el js.Value)) {
	if n == 0 {
		return
	}
	layer.Call("insertAdjacentHTML", "beforeend", markup)
	kids := layer.Get("children")
	first := kids.Length() - n
	for i := range n {
		each(i, kids.Index(first+i))
	}
}

// nodeMarkup writes a task as it is to be drawn, in place.
func (g *graph) nodeMarkup(b *strings.Builder, nd *gnode) {
	name := xmlEscape(nd.name)
	class := nd.kind
	if g.marked[nd.name] {
		class += " visited"
	}
	if nd.cell {
		class += " cell"
	}
	// The task's place is in its parts' coordinates, not a transform of
	// its group: a thousand groups each with a transform of its own are a
	// thousand paint chunks, which Chromium layers anew at every step
	// that paints anything.
	b.WriteString(`<g class="` + class + `" data-task="` + name + `" data-state="` + string(nd.state) + `" tabindex="` + g.tabIndex(nd.name) + `" role="button" aria-label="` + xmlEscape(nd.aria) + `">`)
	b.WriteString(`<title>` + xmlEscape(nd.tip) + `</title>`)
	g.partsMarkup(b, nd)
	b.WriteString(`</g>`)
}

// partsMarkup writes the box and texts of a task at its place: a cell of a
// compact grid is a box alone, its state's colours, its name in the
// tooltip and the accessible name.
func (g *graph) partsMarkup(b *strings.Builder, nd *gnode) {
	l := g.layout
	if nd.cell {
		b.WriteString(`<rect x="` + num(nd.x-l.CellW/2) + `" y="` + num(nd.y-l.CellH/2) + `" width="` + num(l.CellW) + `" height="` + num(l.CellH) + `" rx="4"/>`)
		return
	}
	b.WriteString(`<rect x="` + num(nd.x-l.NodeW/2) + `" y="` + num(nd.y-l.NodeH/2) + `" width="` + num(l.NodeW) + `" height="` + num(l.NodeH) + `" rx="8"/>`)
	b.WriteString(`<text class="name" x="` + num(nd.x) + `" y="` + num(nd.y-4) + `">` + xmlEscape(shorten(nd.name, 17)) + `</text>`)
	b.WriteString(`<text class="state" x="` + num(nd.x) + `" y="` + num(nd.y+13) + `">` + xmlEscape(nd.subText) + `</text>`)
}

// place moves a drawn task from where it was (x0, y0) to its place: its
// parts are set there, and it glides from the old place to it, by a
// transform taken off two frames later, once the page has been styled with
// it (the style sheet's transition animates that).
func (g *graph) place(nd *gnode, x0, y0 float64) {
	l := g.layout
	kids := nd.g.Get("children")
	w, h := l.NodeW, l.NodeH
	if nd.cell {
		w, h = l.CellW, l.CellH
	}
	box := kids.Index(1)
	setAttr(box, "x", num(nd.x-w/2))
	setAttr(box, "y", num(nd.y-h/2))
	if !nd.cell {
		for i, dy := range []float64{-4, 13} {
			t := kids.Index(2 + i)
			setAttr(t, "x", num(nd.x))
			setAttr(t, "y", num(nd.y+dy))
		}
	}
	st := nd.g.Get("style")
	st.Set("transition", "none")
	st.Set("transform", translate(render.Point{X: x0 - nd.x, Y: y0 - nd.y}))
	el := nd.g
	afterFrames(2, func() {
		st := el.Get("style")
		st.Set("transition", "")
		st.Set("transform", "")
	})
}

// parts finds the title and the state label of a task's drawing, once.
func (nd *gnode) parts() {
	if nd.tt.Truthy() {
		return
	}
	kids := nd.g.Get("children")
	nd.tt = kids.Index(0)
	if !nd.cell {
		nd.sub = kids.Index(3)
	}
}

func translate(p render.Point) string { return "translate(" + px(p.X) + "," + px(p.Y) + ")" }

// xmlEscape escapes text for markup. Task names cannot hold these
// characters, but the drawing does not rely on it.
func xmlEscape(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}

// shorten cuts a name to n characters, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// show draws a task as the playground says (v.State "" is a ghost). It
// reports whether the task arrived (was a ghost and is a task now), to be
// faded in.
func (g *graph) show(v playground.TaskView) (arrived bool) {
	nd := g.nodes[v.Name]
	if nd == nil {
		return false
	}
	kind := "task"
	if v.State == "" {
		kind = "ghost"
	}
	on := nd.drawn
	if kind != nd.kind {
		nd.kind = kind
		if on {
			toggleClass(nd.g, "task", kind == "task")
			toggleClass(nd.g, "ghost", kind == "ghost")
		}
		arrived = kind == "task"
	}
	if v.State != nd.state {
		nd.state = v.State
		if on {
			setAttr(nd.g, "data-state", string(v.State))
		}
	}
	if v.Label != nd.subText {
		nd.subText = v.Label
		if on && !nd.cell {
			nd.parts()
			setText(nd.sub, v.Label)
		}
	}
	if v.Tip != nd.tip {
		nd.tip = v.Tip
		if on {
			nd.parts()
			setText(nd.tt, v.Tip)
		}
	}
	if v.Aria != nd.aria {
		nd.aria = v.Aria
		if on {
			setAttr(nd.g, "aria-label", v.Aria)
		}
	}
	for _, e := range g.into[v.Name] {
		if future := v.State == ""; future != e.future {
			e.future = future
			if e.drawn {
				toggleClass(e.path, "future", future)
			}
		}
	}
	return arrived && on
}

// flash is a task to flash once with a class (e.g. "pulse").
type flash struct{ task, class string }

// pulse makes tasks flash once, each with its class. The classes are taken
// off, the page laid out once, and put back, so that the animations start
// again however many tasks there are.
func (g *graph) pulse(fs ...flash) {
	type on struct {
		el    js.Value
		class string
	}
	var ons []on
	for _, f := range fs {
		if nd := g.nodes[f.task]; nd != nil && nd.drawn {
			removeClass(nd.g, f.class)
			ons = append(ons, on{nd.g, f.class})
		}
	}
	if len(ons) == 0 {
		return
	}
	// Two frames later the page has been styled without the classes:
	// putting them back starts the animations again, with no layout forced.
	afterFrames(2, func() {
		for _, o := range ons {
			addClass(o.el, o.class)
		}
	})
}

// edgeFor returns the drawn edge where dependent waits on dependency.
func (g *graph) edgeFor(dependency, dependent string) *gedge {
	return g.edges[[2]string{dependency, dependent}]
}

// flashCycle highlights the tasks and edges of a refused cycle, first and
// last the submitted task; the edge the submit asked for is drawn for the
// moment, dashed. It returns a function that takes it all away.
func (g *graph) flashCycle(path []string) func() {
	var undo []func()
	for _, t := range path {
		if nd := g.nodes[t]; nd != nil && nd.drawn {
			addClass(nd.g, "cycle")
			undo = append(undo, func() { removeClass(nd.g, "cycle") })
		}
	}
	// path[i] waits on path[i+1]: the edge is drawn from path[i+1] down
	// to path[i].
	for i := 0; i+1 < len(path); i++ {
		dependent, dependency := path[i], path[i+1]
		if e := g.edgeFor(dependency, dependent); e != nil && e.drawn {
			addClass(e.path, "cycle")
			undo = append(undo, func() { removeClass(e.path, "cycle") })
			continue
		}
		r, ok := playground.Refused(g.layout, dependency, dependent)
		if !ok {
			continue
		}
		p := createSVG("path", "edge cycle refused")
		setAttr(p, "d", r.Path)
		setAttr(p, "marker-end", "url(#arrow)")
		appendTo(g.overlay, p)
		undo = append(undo, func() { p.Call("remove") })
	}
	return func() {
		for _, f := range undo {
			f()
		}
	}
}

// markVisited highlights the tasks a cycle check visited (class
// "visited"), and unmarks the ones marked before.
func (g *graph) markVisited(tasks map[string]bool) {
	for name := range g.marked {
		if nd := g.nodes[name]; nd != nil && nd.drawn && !tasks[name] {
			removeClass(nd.g, "visited")
		}
	}
	for name := range tasks {
		if nd := g.nodes[name]; nd != nil && nd.drawn && !g.marked[name] {
			addClass(nd.g, "visited")
		}
	}
	g.marked = tasks
}

// tabIndex is a task's tabindex: "0" in the Tab order, "-1" out of it.
func (g *graph) tabIndex(name string) string {
	if g.tabAll || g.tabStops[name] {
		return "0"
	}
	return "-1"
}

// setTabStops puts in the Tab order the tasks playground.TabStops names,
// and takes the others out, changing only the tasks drawn that move.
func (g *graph) setTabStops(all bool, stops map[string]bool) {
	was, wasAll := g.tabStops, g.tabAll
	g.tabAll, g.tabStops = all, stops
	set := func(name string) {
		if nd := g.nodes[name]; nd != nil && nd.drawn {
			setAttr(nd.g, "tabindex", g.tabIndex(name))
		}
	}
	if all != wasAll {
		for _, nd := range g.order {
			set(nd.name)
		}
		return
	}
	for name := range was {
		if !stops[name] {
			set(name)
		}
	}
	for name := range stops {
		if !was[name] {
			set(name)
		}
	}
}

// drawnTask returns a task's element, if it is on the page.
func (g *graph) drawnTask(name string) (js.Value, bool) {
	if nd := g.nodes[name]; nd != nil && nd.drawn {
		return nd.g, true
	}
	return js.Undefined(), false
}

// drawnBox returns the width of a task's box and whether it is a cell of
// a compact grid; false if the task is not on the page.
func (g *graph) drawnBox(name string) (w float64, cell, ok bool) {
	nd := g.nodes[name]
	if nd == nil || !nd.drawn {
		return 0, false, false
	}
	if nd.cell {
		return g.layout.CellW, true, true
	}
	return g.layout.NodeW, false, true
}

// addTimer puts a timer, drawn about the origin, on a drawn task at its
// place. A layout that moves tasks is always told, so the clock draws its
// timers again at their new places.
func (g *graph) addTimer(name string, timer js.Value) {
	nd := g.nodes[name]
	setAttr(timer, "transform", "translate("+num(nd.x)+" "+num(nd.y)+")")
	appendTo(nd.g, timer)
}

// at returns where a task is drawn, in the drawing's pixels; false if it
// is not drawn.
func (g *graph) at(name string) (x, y float64, ok bool) {
	nd := g.nodes[name]
	if nd == nil || g.scale == 0 {
		return 0, 0, false
	}
	return nd.x * g.scale, nd.y * g.scale, true
}
