//go:build js && wasm

package main

import (
	"math"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// wireNav connects what moves about a big drawing: zoom (buttons, Ctrl+
// wheel, which is also a trackpad's pinch, and a two-finger pinch), pan by
// dragging, fit, find a task, the highlight of a hovered task's lineage,
// and the READY line's toggle.
func (a *app) wireNav() {
	e := &a.el
	on(e.zoomIn, "click", func(js.Value) { a.zoomTo(a.g.scale*playground.ZoomFactor, -1, -1) })
	on(e.zoomOut, "click", func(js.Value) { a.zoomTo(a.g.scale/playground.ZoomFactor, -1, -1) })
	on(e.zoomFit, "click", func(js.Value) { a.zoomFit() })
	on(e.scroller, "wheel", func(ev js.Value) {
		w := ev
		if !w.Get("ctrlKey").Bool() {
			return // a plain wheel scrolls
		}
		ev.Call("preventDefault")
		x, y := a.pointer(w)
		a.zoomTo(playground.WheelZoom(a.g.scale, w.Get("deltaY").Float()), x, y)
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
		if x, y := a.pointer(p); x > e.scroller.Get("clientWidth").Float() || y > e.scroller.Get("clientHeight").Float() {
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
			d := math.Hypot(ps[0].x-ps[1].x, ps[0].y-ps[1].y)
			if pinch > 0 && d > 0 {
				r := e.scroller.Call("getBoundingClientRect")
				mx := (ps[0].x+ps[1].x)/2 - r.Get("left").Float()
				my := (ps[0].y+ps[1].y)/2 - r.Get("top").Float()
				a.zoomTo(a.g.scale*d/pinch, mx, my)
			}
			pinch = d
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
	on(a.g.svg, "mouseover", func(ev js.Value) {
		a.hover = pointerAt{ev.Get("clientX").Float(), ev.Get("clientY").Float(), true}
		a.trace(taskAt(ev.Get("target")))
	})
	on(a.g.svg, "mouseleave", func(js.Value) {
		a.hover.on = false
		a.trace("")
	})
	on(a.g.svg, "focusin", func(ev js.Value) {
		if g := ev.Get("target").Call("closest", "g[data-task]"); g.Truthy() {
			a.trace(g.Get("dataset").Get("task").String())
		}
	})
	on(a.g.svg, "focusout", func(js.Value) { a.trace("") })

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
		a.show(task)
	}
	on(e.find, "focus", func(js.Value) { a.listNames() })
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
			a.drawWindow(a.view())
		})
	})

	on(e.readyMore, "click", func(js.Value) {
		a.readyOpen = !a.readyOpen
		a.renderReady(nil, nil)
	})
	on(e.dlqMore, "click", func(js.Value) {
		a.dlqOpen = !a.dlqOpen
		a.renderDLQ()
	})
}

// pointer returns where a mouse or wheel event is in the scroller's view.
func (a *app) pointer(ev js.Value) (x, y float64) {
	r := a.el.scroller.Call("getBoundingClientRect")
	return ev.Get("clientX").Float() - r.Get("left").Float(), ev.Get("clientY").Float() - r.Get("top").Float()
}

// zoomTo zooms the drawing, keeping the point (x, y) of the view still
// (the view's centre for x, y < 0).
func (a *app) zoomTo(z float64, x, y float64) {
	z = playground.ClampZoom(z)
	v := a.view()
	if x < 0 || y < 0 {
		x, y = v.Width/2, v.Height/2
	}
	z0 := a.g.scale
	if z0 == 0 || z == z0 {
		return
	}
	a.zoom = z
	a.fit()
	left, top := playground.ZoomAround(v, z0, z, x, y)
	a.el.scroller.Set("scrollLeft", left)
	a.el.scroller.Set("scrollTop", top)
	v.Left, v.Top = left, top
	a.drawWindow(v)
	a.retrace()
}

// zoomFit zooms so that the whole graph shows.
func (a *app) zoomFit() {
	l, v := a.g.layout, a.view()
	a.zoomTo(playground.FitZoom(l.Width, l.Height, v.Width-16, v.Height-50), -1, -1)
}

// show brings a task into view, centred, at a zoom where it can be read,
// gives it the focus and makes it flash.
func (a *app) show(task string) {
	if z := playground.FindZoom(a.g.scale); z != a.g.scale {
		a.zoomTo(z, -1, -1)
	}
	x, y, ok := a.inContent(task)
	if !ok {
		return
	}
	v := a.view()
	v.Left, v.Top = playground.Centre(v, x, y)
	a.el.scroller.Set("scrollLeft", v.Left)
	a.el.scroller.Set("scrollTop", v.Top)
	a.drawWindow(v)
	if nd := a.g.nodes[task]; nd != nil {
		nd.g.Call("focus", map[string]any{"preventScroll": true})
		a.g.pulse(flash{task, "found"})
	}
}

// trace highlights the lineage of a task; "" takes the highlight away.
func (a *app) trace(task string) {
	if task == a.traced {
		return
	}
	a.traced = task
	var l playground.Lineage
	if task != "" {
		l = a.p.Lineage(task)
	}
	a.g.trace(task, l)
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

// retrace makes the highlight follow the pointer once the drawing has
// moved under it (a zoom, a new layout): the task now under the pointer,
// or none. A task highlighted for having the focus, the pointer away,
// stays highlighted.
func (a *app) retrace() {
	if !a.hover.on {
		return
	}
	el := document.Call("elementFromPoint", a.hover.x, a.hover.y)
	if !el.Truthy() || !a.g.svg.Call("contains", el).Bool() {
		a.hover.on = false
		a.trace("")
		return
	}
	a.trace(taskAt(el))
}

// listNames fills the find box's suggestions with the drawing's tasks,
// once a layout: when the box is first used.
func (a *app) listNames() {
	if a.namesListed {
		return
	}
	a.namesListed = true
	var b strings.Builder
	for _, n := range a.p.TaskNames() {
		b.WriteString(`<option value="` + xmlEscape(n) + `">`)
	}
	a.el.names.Set("innerHTML", b.String())
}
