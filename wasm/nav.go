//go:build js && wasm

package main

import (
	"math"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// wire connects what moves about a big drawing: zoom (buttons, Ctrl+
// wheel, which is also a trackpad's pinch, and a two-finger pinch), pan by
// dragging, fit, find a task, and the highlight of a hovered task's
// lineage.
func (d *drawing) wire() {
	e := &d.el
	a := d.a
	on(e.zoomIn, "click", func(js.Value) { d.zoomTo(d.g.scale*playground.ZoomFactor, -1, -1) })
	on(e.zoomOut, "click", func(js.Value) { d.zoomTo(d.g.scale/playground.ZoomFactor, -1, -1) })
	on(e.zoomFit, "click", func(js.Value) { d.zoomFit() })
	on(e.scroller, "wheel", func(ev js.Value) {
		w := ev
		if !w.Get("ctrlKey").Bool() {
			return // a plain wheel scrolls
		}
		ev.Call("preventDefault")
		x, y := d.pointer(w)
		d.zoomTo(playground.WheelZoom(d.g.scale, w.Get("deltaY").Float()), x, y)
	})

	// Pan with one pointer on the background, pinch with two.
	type pt struct{ x, y float64 }
	pointers := map[int]pt{}
	var pinch float64 // the distance between two pointers when last seen
	on(e.scroller, "pointerdown", func(ev js.Value) {
		p := ev
		if p.Get("button").Int() != 0 || ev.Get("target").Call("closest", "g[data-task]").Truthy() {
			return
		}
		if x, y := d.pointer(p); x > e.scroller.Get("clientWidth").Float() || y > e.scroller.Get("clientHeight").Float() {
			return // on a scroll bar
		}
		pointers[p.Get("pointerId").Int()] = pt{p.Get("clientX").Float(), p.Get("clientY").Float()}
		e.scroller.Call("setPointerCapture", p.Get("pointerId"))
		addClass(e.scroller, "panning")
		// A pinch is measured from where the second finger came down.
		pinch = 0
		if len(pointers) == 2 {
			var ps []pt
			for _, q := range pointers {
				ps = append(ps, q)
			}
			pinch = math.Hypot(ps[0].x-ps[1].x, ps[0].y-ps[1].y)
		}
	})
	on(e.scroller, "pointermove", func(ev js.Value) {
		p := ev
		id := p.Get("pointerId").Int()
		last, ok := pointers[id]
		if !ok {
			return
		}
		now := pt{p.Get("clientX").Float(), p.Get("clientY").Float()}
		pointers[id] = now
		switch len(pointers) {
		case 1:
			sc := e.scroller
			sc.Set("scrollLeft", sc.Get("scrollLeft").Float()-(now.x-last.x))
			sc.Set("scrollTop", sc.Get("scrollTop").Float()-(now.y-last.y))
		case 2:
			var ps []pt
			for _, q := range pointers {
				ps = append(ps, q)
			}
			dist := math.Hypot(ps[0].x-ps[1].x, ps[0].y-ps[1].y)
			if pinch > 0 && dist > 0 {
				r := e.scroller.Call("getBoundingClientRect")
				mx := (ps[0].x+ps[1].x)/2 - r.Get("left").Float()
				my := (ps[0].y+ps[1].y)/2 - r.Get("top").Float()
				d.zoomTo(d.g.scale*dist/pinch, mx, my)
			}
			pinch = dist
		}
	})
	end := func(ev js.Value) {
		delete(pointers, ev.Get("pointerId").Int())
		pinch = 0
		if len(pointers) == 0 {
			removeClass(e.scroller, "panning")
		}
	}
	on(e.scroller, "pointerup", end)
	on(e.scroller, "pointercancel", end)

	// Hover: a task's upstream and downstream, while the pointer is on
	// it; the background takes the highlight away.
	// A finger's tap comes with mouse events too, and no mouseleave
	// after it: hovering is the mouse's alone.
	on(d.g.svg, "pointerdown", func(ev js.Value) { d.touched = ev.Get("pointerType").String() != "mouse" })
	on(d.g.svg, "pointermove", func(ev js.Value) {
		if ev.Get("pointerType").String() == "mouse" {
			d.touched = false
		}
	})
	on(d.g.svg, "mouseover", func(ev js.Value) {
		if d.touched {
			return
		}
		d.hover = pointerAt{ev.Get("clientX").Float(), ev.Get("clientY").Float(), true}
		d.trace(taskAt(ev.Get("target")))
	})
	on(d.g.svg, "mouseleave", func(js.Value) {
		d.hover.on = false
		d.trace("")
	})
	on(d.g.svg, "focusin", func(ev js.Value) {
		// A tap focuses the task too: only the keyboard's focus (drawn
		// with its ring) traces.
		if g := ev.Get("target").Call("closest", "g[data-task]"); g.Truthy() && g.Call("matches", ":focus-visible").Bool() {
			d.trace(g.Get("dataset").Get("task").String())
		}
	})
	on(d.g.svg, "focusout", func(js.Value) { d.trace("") })

	// Find.
	find := func() {
		q := e.find.Get("value").String()
		if strings.TrimSpace(q) == "" {
			return
		}
		task, ok := a.p.Find(q)
		if !ok {
			a.notify("No task is named like “"+q+"”.", false)
			return
		}
		a.unnotify()
		d.show(task)
	}
	on(e.find, "focus", func(js.Value) { d.listNames() })
	on(e.find, "change", func(js.Value) { find() })
	on(e.find, "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Enter" {
			ev.Call("preventDefault")
			find()
		}
	})

	// Scrolling draws what comes into view, once a frame.
	framed := false
	on(e.scroller, "scroll", func(js.Value) {
		if framed {
			return
		}
		framed = true
		afterFrames(1, func() {
			framed = false
			d.drawWindow(d.view())
		})
	})

}

// pointer returns where a mouse or wheel event is in the scroller's view.
func (d *drawing) pointer(ev js.Value) (x, y float64) {
	r := d.el.scroller.Call("getBoundingClientRect")
	return ev.Get("clientX").Float() - r.Get("left").Float(), ev.Get("clientY").Float() - r.Get("top").Float()
}

// zoomTo zooms the drawing, keeping the point (x, y) of the view still
// (the view's centre for x, y < 0).
func (d *drawing) zoomTo(z float64, x, y float64) {
	z = playground.ZoomWithin(z, d.leastZoom())
	v := d.view()
	if x < 0 || y < 0 {
		x, y = v.Width/2, v.Height/2
	}
	z0 := d.g.scale
	if z0 == 0 || z == z0 {
		return
	}
	d.zoom = z
	d.fit()
	left, top := playground.ZoomAround(v, z0, z, x, y)
	d.el.scroller.Set("scrollLeft", left)
	d.el.scroller.Set("scrollTop", top)
	v.Left, v.Top = left, top
	d.drawWindow(v)
	d.retrace()
}

// zoomFit zooms so that the whole graph shows, or as much of it as
// shows readable (playground.FitFor): the minimap shows the rest.
func (d *drawing) zoomFit() {
	v := d.view()
	d.zoomTo(playground.FitFor(d.g.layout, v.Width-fitRoomX, v.Height-fitRoomY), -1, -1)
}

// leastZoom is the least zoom the drawing is shown at in the stage
// (playground.LeastZoom).
func (d *drawing) leastZoom() float64 {
	v := d.view()
	return playground.LeastZoom(d.g.layout, v.Width-fitRoomX, v.Height-fitRoomY)
}

// show brings a task into view, centred, at a zoom where it can be read,
// gives it the focus and makes it flash.
func (d *drawing) show(task string) {
	if z := playground.FindZoom(d.g.scale); z != d.g.scale {
		d.zoomTo(z, -1, -1)
	}
	x, y, ok := d.inContent(task)
	if !ok {
		return
	}
	v := d.view()
	v.Left, v.Top = playground.Centre(v, x, y)
	d.el.scroller.Set("scrollLeft", v.Left)
	d.el.scroller.Set("scrollTop", v.Top)
	d.drawWindow(v)
	if nd := d.g.nodes[task]; nd != nil {
		nd.g.Call("focus", map[string]any{"preventScroll": true})
		d.g.pulse(flash{task, "found"})
	}
}

// trace highlights the lineage of a task; "" takes the highlight away.
func (d *drawing) trace(task string) {
	if task == d.traced {
		return
	}
	d.traced = task
	var l playground.Lineage
	if task != "" {
		l = d.a.p.Lineage(task)
	}
	d.g.trace(task, l)
}

// pointerAt is where the pointer was last seen over the drawing, in the
// window's pixels; on is false once it has left the drawing.
type pointerAt struct {
	x, y float64
	on   bool
}

// taskAt returns the task an element is part of; "" for none.
func taskAt(el js.Value) string {
	if !el.Truthy() {
		return ""
	}
	if g := el.Call("closest", "g[data-task]"); g.Truthy() {
		return g.Get("dataset").Get("task").String()
	}
	return ""
}

// taskAtTap is the task a finger's tap at the event's point meant when it
// hit no box (playground.TaskAtTap: a box shown under 44 px is a target
// that size), and its element; false when it meant none, or the task is
// not drawn.
func (d *drawing) taskAtTap(ev js.Value) (string, js.Value, bool) {
	r := d.g.svg.Call("getBoundingClientRect")
	w := r.Get("width").Float()
	if w <= 0 || d.g.layout.Width <= 0 {
		return "", js.Null(), false
	}
	zoom := w / d.g.layout.Width
	x := (ev.Get("clientX").Float() - r.Get("left").Float()) / zoom
	y := (ev.Get("clientY").Float() - r.Get("top").Float()) / zoom
	name, ok := playground.TaskAtTap(d.g.layout, zoom, x, y)
	if n := d.g.nodes[name]; ok && n != nil && n.drawn {
		return name, n.g, true
	}
	return "", js.Null(), false
}

// retrace makes the highlight follow the pointer once the drawing has
// moved under it (a zoom, a new layout): the task now under the pointer,
// or none. A task highlighted for having the focus, the pointer away,
// stays highlighted.
func (d *drawing) retrace() {
	if !d.hover.on {
		return
	}
	el := document.Call("elementFromPoint", d.hover.x, d.hover.y)
	if !el.Truthy() || !d.g.svg.Call("contains", el).Bool() {
		d.hover.on = false
		d.trace("")
		return
	}
	d.trace(taskAt(el))
}

// listNames fills the find box's suggestions with the drawing's tasks,
// once a layout: when the box is first used.
func (d *drawing) listNames() {
	if d.namesListed {
		return
	}
	d.namesListed = true
	var b strings.Builder
	for _, n := range d.a.p.TaskNames() {
		b.WriteString(`<option value="` + xmlEscape(n) + `">`)
	}
	d.el.names.Set("innerHTML", b.String())
}
