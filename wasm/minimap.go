//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/playground"
)

// minimap is the overview in the stage's corner (playground.Minimap),
// shown while the drawing is bigger than the stage: every task a dot in
// its state's colour, on a canvas of its own redrawn at most every
// minimapEvery, and a frame around the part shown, redrawn as the drawing
// scrolls. A click or a tap on it brings that part into view.
type minimap struct {
	d         *drawing
	canvas    js.Value
	dots      js.Value // the dots, drawn apart from the frame
	m         playground.Minimap
	dotsDirty bool
	dotsAt    float64 // when the dots were last drawn, in ms
	queued    bool
}

// minimapEvery is how often, at most, the dots are drawn again: a step at
// 16× changes them twenty times a second, and a thousand dots cost a
// millisecond or two.
const minimapEvery = 200 * time.Millisecond

func newMinimap(d *drawing) *minimap {
	return &minimap{d: d, canvas: byID("minimap"), dots: document.Call("createElement", "canvas")}
}

// wire makes a click on the minimap scroll the drawing there.
func (mm *minimap) wire() {
	on(mm.canvas, "pointerdown", func(ev js.Value) {
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
		r := mm.canvas.Call("getBoundingClientRect")
		lx, ly := mm.m.At(ev.Get("clientX").Float()-r.Get("left").Float(), ev.Get("clientY").Float()-r.Get("top").Float())
		d := mm.d
		v := d.view()
		left, top := playground.Centre(v, lx*d.g.scale+d.svgX, ly*d.g.scale+d.svgY)
		d.el.scroller.Set("scrollLeft", left)
		d.el.scroller.Set("scrollTop", top)
	})
}

// update draws the minimap in the next frame; dots, when the tasks'
// states, the layout or the zoom may have changed.
func (mm *minimap) update(dots bool) {
	mm.dotsDirty = mm.dotsDirty || dots
	if mm.queued {
		return
	}
	mm.queued = true
	afterFrames(1, func() { mm.queued = false; mm.draw() })
}

// draw shows or hides the minimap, and draws it.
func (mm *minimap) draw() {
	d := mm.d
	l, z, v := d.g.layout, d.g.scale, d.view()
	show := playground.ShowMinimap(l.Width, l.Height, z, v.Width, v.Height)
	setHidden(mm.canvas, !show)
	if !show {
		return
	}
	maxW, maxH := playground.MinimapRoom(v.Width, v.Height)
	m := playground.MinimapFor(l.Width, l.Height, maxW, maxH)
	dpr := js.Global().Get("devicePixelRatio").Float()
	if m != mm.m {
		mm.m, mm.dotsDirty = m, true
		for _, c := range []js.Value{mm.canvas, mm.dots} {
			c.Set("width", int(m.W*dpr+0.5))
			c.Set("height", int(m.H*dpr+0.5))
		}
		st := mm.canvas.Get("style")
		st.Set("width", px(m.W))
		st.Set("height", px(m.H))
	}
	if mm.dotsDirty {
		if wait := float64(minimapEvery/time.Millisecond) - (now() - mm.dotsAt); wait > 0 {
			afterAll(time.Duration(wait*float64(time.Millisecond)), func() { mm.update(false) })
		} else {
			mm.drawDots(dpr)
		}
	}
	ctx := mm.canvas.Call("getContext", "2d")
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	ctx.Call("clearRect", 0, 0, mm.canvas.Get("width"), mm.canvas.Get("height"))
	ctx.Call("drawImage", mm.dots, 0, 0)
	f := m.Frame(playground.Seen(v, d.svgX, d.svgY, z))
	ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
	ctx.Set("fillStyle", "rgba(0, 114, 178, 0.14)")
	ctx.Call("fillRect", f.X0, f.Y0, f.X1-f.X0, f.Y1-f.Y0)
	ctx.Set("strokeStyle", "#222222")
	ctx.Set("lineWidth", 1.5)
	ctx.Call("strokeRect", f.X0+0.75, f.Y0+0.75, max(0, f.X1-f.X0-1.5), max(0, f.Y1-f.Y0-1.5))
}

// drawDots draws every task as a dot in its state's colour.
func (mm *minimap) drawDots(dpr float64) {
	mm.dotsDirty, mm.dotsAt = false, now()
	g, sx, sy := mm.d.g, mm.m.SX, mm.m.SY
	ctx := mm.dots.Call("getContext", "2d")
	ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
	ctx.Call("clearRect", 0, 0, mm.m.W, mm.m.H)
	w, h := g.layout.NodeW, g.layout.NodeH
	if len(g.layout.Grids) > 0 {
		w, h = min(w, g.layout.CellW), min(h, g.layout.CellH)
	}
	w, h = max(2.5, w*sx), max(2.5, h*sy)
	for _, st := range append([]core.State{""}, core.States()...) {
		colour := "#c9cfd6" // a task not submitted yet
		if st != "" {
			colour = render.StyleOf(st).Stroke
		}
		ctx.Set("fillStyle", colour)
		for _, nd := range g.order {
			if nd.state == st {
				ctx.Call("fillRect", nd.x*sx-w/2, nd.y*sy-h/2, w, h)
			}
		}
	}
}
