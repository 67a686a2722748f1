//go:build js && wasm

package main

import (
	"syscall/js"
	"time"

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
	held      bool    // play draws it, as a chore of its own (draw): update only notes what changed
	dotsAt    float64 // when the dots were last drawn, in ms
	queued    bool
	img       []byte           // the dots' pixels
	dotList   []playground.Dot // the tasks, as dots
	hidden    bool             // the canvas is hidden
	drawn     playground.Rect  // the frame drawn last, with the dots of dotsAt
	drawnAt   float64          // the dots' dotsAt when the frame was drawn
}

// minimapEvery is how often, at most, the dots are drawn again: a step at
// 16× changes them twenty times a second.
const minimapEvery = 200 * time.Millisecond

func newMinimap(d *drawing) *minimap {
	return &minimap{d: d, canvas: byID("minimap"), dots: document.Call("createElement", "canvas"), hidden: true}
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
	if mm.queued || mm.held {
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
	if mm.hidden != !show {
		// Written only when it changes: each write restyles the page.
		mm.hidden = !show
		setHidden(mm.canvas, mm.hidden)
	}
	if !show {
		return
	}
	maxW, maxH := playground.MinimapRoom(v.Width, v.Height)
	m := playground.MinimapFor(l.Width, l.Height, maxW, maxH)
	dpr := js.Global().Get("devicePixelRatio").Float()
	resized := m != mm.m
	if resized {
		mm.m, mm.dotsDirty = m, true
		for _, c := range []js.Value{mm.canvas, mm.dots} {
			c.Set("width", int(m.W*dpr+0.5))
			c.Set("height", int(m.H*dpr+0.5))
		}
		// The canvas's own pixels, one to one: a canvas stretched by a
		// fraction blurred its dots.
		st := mm.canvas.Get("style")
		st.Set("width", px(float64(int(m.W*dpr+0.5))/dpr))
		st.Set("height", px(float64(int(m.H*dpr+0.5))/dpr))
	}
	if mm.dotsDirty {
		// A canvas just resized is blank: its dots are drawn at once.
		if wait := mm.dotsWait(); wait > 0 && !resized {
			afterAll(time.Duration(wait*float64(time.Millisecond)), func() { mm.update(false) })
		} else {
			mm.drawDots()
		}
	}
	f := m.Frame(playground.Seen(v, d.svgX, d.svgY, z))
	if !resized && f == mm.drawn && mm.dotsAt == mm.drawnAt {
		return // nothing to draw anew: a step that changed no dot yet
	}
	mm.drawn, mm.drawnAt = f, mm.dotsAt
	ctx := mm.canvas.Call("getContext", "2d")
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	ctx.Call("clearRect", 0, 0, mm.canvas.Get("width"), mm.canvas.Get("height"))
	ctx.Call("drawImage", mm.dots, 0, 0)
	ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
	ctx.Set("fillStyle", "rgba(0, 114, 178, 0.14)")
	ctx.Call("fillRect", f.X0, f.Y0, f.X1-f.X0, f.Y1-f.Y0)
	ctx.Set("strokeStyle", "#222222")
	ctx.Set("lineWidth", 1.5)
	ctx.Call("strokeRect", f.X0+0.75, f.Y0+0.75, max(0, f.X1-f.X0-1.5), max(0, f.Y1-f.Y0-1.5))
}

// hold makes play draw the minimap, as a chore of its own (draw; update
// only notes what changed, and dots not yet due wait for the next), or
// lets it draw itself again, brought up to date.
func (mm *minimap) hold(on bool) {
	if mm.held != on {
		mm.held = on
		if !on {
			mm.update(true)
		}
	}
}

// dotsWait returns how long, in ms, the dots must wait before they are
// drawn again (minimapEvery after they last were); 0 or less for none.
func (mm *minimap) dotsWait() float64 {
	return float64(minimapEvery/time.Millisecond) - (now() - mm.dotsAt)
}

// dotsDue reports whether the minimap is shown and draw would draw its
// dots anew: they changed, and need wait no more (dotsWait).
func (mm *minimap) dotsDue() bool {
	return !mm.hidden && mm.dotsDirty && mm.dotsWait() <= 0
}

// drawDots draws every task as a dot in its state's colour: painted in Go
// (playground.Minimap.Paint) and put on the canvas in one call.
func (mm *minimap) drawDots() {
	mm.dotsDirty, mm.dotsAt = false, now()
	g := mm.d.g
	pw, ph := mm.dots.Get("width").Int(), mm.dots.Get("height").Int()
	if pw == 0 || ph == 0 {
		return
	}
	n := pw * ph * 4
	if cap(mm.img) < n {
		mm.img = make([]byte, n)
	}
	mm.img = mm.img[:n]
	for i := range mm.img {
		mm.img[i] = 0
	}
	dots := mm.dotList[:0]
	for _, nd := range g.order {
		dots = append(dots, playground.Dot{X: nd.x, Y: nd.y, State: nd.state})
	}
	mm.dotList = dots
	dw, dh := mm.m.DotSize(g.layout)
	mm.m.Paint(mm.img, pw, ph, float64(pw)/mm.m.W, dw, dh, dots)
	arr := js.Global().Get("Uint8ClampedArray").New(n)
	js.CopyBytesToJS(arr, mm.img)
	ctx := mm.dots.Call("getContext", "2d")
	ctx.Call("putImageData", js.Global().Get("ImageData").New(arr, pw, ph), 0, 0)
}
