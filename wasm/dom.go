//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"time"

	"github.com/dagq/dagq/internal/playground"
)

// The page's panels and controls are reached through
// honnef.co/go/js/dom/v2; the drawing, changed many times a second while
// playing, and the markup written whole go through syscall/js and the few
// helpers below, where wrapping each element would cost calls into
// JavaScript for nothing.

const svgNS = "http://www.w3.org/2000/svg"

var document = js.Global().Get("document")

// byID returns the element with this id; it panics if the page lacks it,
// which is a bug of index.html.
func byID(id string) js.Value {
	el := document.Call("getElementById", id)
	if el.IsNull() {
		panic("playground: index.html has no #" + id)
	}
	return el
}

// create makes an HTML element with a class ("" for none).
func create(tag, class string) js.Value {
	el := document.Call("createElement", tag)
	if class != "" {
		el.Set("className", class)
	}
	return el
}

// createSVG makes an SVG element with a class ("" for none).
func createSVG(tag, class string) js.Value {
	el := document.Call("createElementNS", svgNS, tag)
	if class != "" {
		el.Call("setAttribute", "class", class)
	}
	return el
}

func setAttr(el js.Value, name, value string) { el.Call("setAttribute", name, value) }
func setText(el js.Value, s string)           { el.Set("textContent", s) }
func clear(el js.Value)                       { el.Set("textContent", "") }
func appendTo(parent, child js.Value)         { parent.Call("appendChild", child) }
func setHidden(el js.Value, hidden bool)      { el.Set("hidden", hidden) }
func addClass(el js.Value, c string)          { el.Get("classList").Call("add", c) }
func removeClass(el js.Value, c string)       { el.Get("classList").Call("remove", c) }
func toggleClass(el js.Value, c string, on bool) {
	el.Get("classList").Call("toggle", c, on)
}
func setData(el js.Value, key, value string) { el.Get("dataset").Set(key, value) }

// on listens to an event of an element, the document or the window, for
// the page's life. A panic in f is recovered and reported on the page (see
// guard).
func on(el js.Value, typ string, f func(ev js.Value)) {
	el.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		guard(typ, func() { f(args[0]) })
		return nil
	}))
}

// crashed shows a recovered panic; the app sets it once the page is wired.
var crashed = func(c playground.Crash) { println(c.Detail) }

// guard runs f, reporting a panic instead of ending the program: every
// handler, timer and callback of the page runs through it.
func guard(where string, f func()) {
	playground.Guard(where, f, func(c playground.Crash) { crashed(c) })
}

// px formats a length in CSS pixels.
func px(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "px" }

// num formats a number for an SVG attribute.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// later runs f after d unless the generation it was scheduled in has
// passed: every new drawing starts a generation, so that what an old
// animation still had to do is dropped.
func (a *app) later(d time.Duration, f func()) {
	gen := a.gen
	time.AfterFunc(d, func() {
		guard("animation", func() {
			if a.gen == gen {
				f()
			}
		})
	})
}

// afterAll runs f after d whatever happens in between: for undoing a
// highlight, which must go even when the drawing moves on.
func afterAll(d time.Duration, f func()) {
	time.AfterFunc(d, func() { guard("timer", f) })
}

// clock returns the time since navigation, as performance.now does.
func clock() time.Duration { return time.Duration(now() * float64(time.Millisecond)) }

// now returns milliseconds since navigation, as performance.now does.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// afterFrames runs f after n animation frames.
func afterFrames(n int, f func()) {
	var cb js.Func
	cb = js.FuncOf(func(js.Value, []js.Value) any {
		if n--; n > 0 {
			js.Global().Call("requestAnimationFrame", cb)
			return nil
		}
		cb.Release()
		guard("frame", f)
		return nil
	})
	js.Global().Call("requestAnimationFrame", cb)
}

// afterPaint runs f once the page as it is now has been painted: after
// the next animation frame, in a task of its own.
func afterPaint(f func()) {
	afterFrames(1, func() { time.AfterFunc(0, func() { guard("paint", f) }) })
}

// addOption adds an option to a select: its value and its label. It
// returns the option.
func addOption(sel js.Value, value, label string) js.Value {
	opt := create("option", "")
	setAttr(opt, "value", value)
	setText(opt, label)
	appendTo(sel, opt)
	return opt
}

// jsList returns the elements of a NodeList or an HTMLCollection.
func jsList(v js.Value) []js.Value {
	out := make([]js.Value, v.Length())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out
}

// rewrite sets an element's markup, keeping the focus in it if it had it:
// on the control of the new markup that does what the focused one did
// (the same data-command, or data-action and data-task), else on its first
// enabled button, else on the element itself. Without it a click on a
// button that the click redraws left the focus on the page's body.
func rewrite(el js.Value, markup string) {
	active := document.Get("activeElement")
	inside := active.Truthy() && !active.Equal(el) && el.Call("contains", active).Bool()
	same := ""
	if inside {
		same = sameControl(active)
	}
	el.Set("innerHTML", markup)
	if !inside {
		return
	}
	for _, sel := range []string{same, "button:not([disabled])"} {
		if sel == "" {
			continue
		}
		if to := el.Call("querySelector", sel); to.Truthy() {
			to.Call("focus")
			return
		}
	}
	if !el.Call("hasAttribute", "tabindex").Bool() {
		setAttr(el, "tabindex", "-1")
	}
	el.Call("focus")
}

// sameControl returns a selector of the controls that act as el does, ""
// if it says nothing of what it does.
func sameControl(el js.Value) string {
	attr := func(name string) string {
		if v := el.Call("getAttribute", name); !v.IsNull() {
			return "[" + name + `="` + cssString(v.String()) + `"]`
		}
		return ""
	}
	if c := attr("data-command"); c != "" {
		return c
	}
	if act := attr("data-action"); act != "" {
		return act + attr("data-task")
	}
	return ""
}

// passFocus moves the focus from a button just disabled, where it would
// fall to the page's body, to another.
func passFocus(from, to js.Value) {
	if from.Get("disabled").Bool() && document.Get("activeElement").Equal(from) {
		to.Call("focus")
	}
}
