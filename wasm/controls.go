//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/internal/playground"
	trainer "github.com/dagq/dagq/internal/practice"
	"honnef.co/go/js/dom/v2"
)

// wire fills the pickers and connects every control of the page: its
// own and each panel's. Every handler only reads the event, asks the
// playground.Page what to do, and draws the answer.
func (a *app) wire() {
	e := &a.el
	a.ed.wire()
	a.tl.wire()
	a.d.wire()
	a.ready.wire()
	a.dlq.wire()
	a.con.wire()
	a.log.wire()
	a.clk.wire()
	a.share.wire()
	a.pop.wire()
	a.detail.wire()
	a.tally.wireFilter()
	a.wireNotice()
	a.d.mm.wire()
	a.practice.wire()
	addOption(e.picker, "", "Your script").Set("disabled", true)
	for _, entry := range scenario.Library() {
		addOption(e.picker, entry.Name, entry.Title)
	}
	for _, name := range incremental.Names() {
		text := name
		if name == incremental.Default {
			text += " (default)"
		}
		addOption(e.strategy, name, text)
	}

	on(e.picker, "change", func(js.Value) {
		a.tl.pause()
		a.unnotify()
		if a.p.Choose(e.picker.Get("value").String()) {
			a.loaded(a.p.Session().Text(), nil)
		}
	})
	on(e.strategy, "change", func(js.Value) {
		a.unnotify()
		if err := a.p.SetStrategy(e.strategy.Get("value").String()); err != nil {
			a.notify(err.Error(), false)
			return
		}
		a.render(false)
	})

	on(e.about, "click", func(js.Value) { addClass(e.about, "open") })
	listenKeys(htmlElement(document), "keydown", a.keydown)
	on(a.d.el.scroller, "scroll", func(js.Value) { a.pop.scrolled() })

	// Acting.
	on(e.commandForm, "submit", func(ev js.Value) {
		ev.Call("preventDefault")
		if a.act(e.command.Get("value").String()) {
			e.command.Set("value", "")
		}
	})
	on(e.command, "input", func(js.Value) { setHidden(e.commandError, true) })
	on(a.d.g.svg, "click", func(ev js.Value) {
		if g := ev.Get("target").Call("closest", "g[data-task]"); g.Truthy() {
			ev.Call("stopPropagation")
			a.clickTask(g.Get("dataset").Get("task").String(), g)
		} else if a.d.touched {
			// A finger's target is a box's 44 px, however small it is drawn.
			if name, g, ok := a.d.taskAtTap(ev); ok {
				ev.Call("stopPropagation")
				a.clickTask(name, g)
			}
		}
	})
	on(e.noticeClose, "click", func(js.Value) { a.noticeGen++; setHidden(e.notice, true) })
	on(e.crashClose, "click", func(js.Value) { setHidden(e.crash, true) })

	on(js.Global(), "hashchange", func(js.Value) { a.loadURL() })
	on(js.Global(), "resize", func(js.Value) { a.d.resized() })

	// Tests (and only tests, which define dagqTestHooks before the page
	// loads) can make a handler panic, to see that the page survives it.
	if js.Global().Get("dagqTestHooks").Truthy() {
		on(document, "dagq-test-panic", func(js.Value) { panic("a panic on purpose, from a test") })
	}
}

// target says where a key was pressed, for playground.KeyFor.
func target(el js.Value) playground.Target {
	if !el.Truthy() || el.Get("tagName").IsUndefined() {
		return playground.OnPage
	}
	switch el.Get("tagName").String() {
	case "TEXTAREA":
		return playground.OnText
	case "INPUT":
		switch el.Get("type").String() {
		case "range", "checkbox":
			return playground.OnControl
		}
		return playground.OnText
	case "SELECT":
		return playground.OnControl
	case "BUTTON", "A", "SUMMARY":
		return playground.OnButton
	}
	if el.Call("closest", taskSelector).Truthy() {
		return playground.OnTask
	}
	return playground.OnPage
}

// taskSelector finds the tasks a key can act on: in the drawing and the
// READY line.
const taskSelector = "#graph g[data-task], #ready-line li[data-task]"

// keydown does what playground.KeyFor says a key does.
func (a *app) keydown(k *dom.KeyboardEvent) {
	ev := k.Underlying()
	el := ev.Get("target")
	key := playground.KeyFor(k.Key(), k.CtrlKey() || k.MetaKey(), k.AltKey(), target(el))
	if pr := a.practice.practice(); pr != nil {
		key = trainer.PracticeKey(key, pr)
	}
	switch key {
	case playground.KeyNextQuestion:
		a.practice.nextQuestion()
	case playground.KeyClose:
		if !isHidden(a.pop.el.popover) {
			a.pop.close()
		} else {
			a.detail.close()
		}
		a.share.close()
		return
	case playground.KeyBack:
		a.tl.step(-1)
	case playground.KeyForward:
		a.tl.step(+1)
	case playground.KeyFirst:
		a.tl.seek(0)
	case playground.KeyLast:
		a.tl.seek(scenario.StepEnd)
	case playground.KeyPlayPause:
		if a.tl.playing {
			a.tl.pause()
		} else {
			a.tl.play()
		}
	case playground.KeyActTask:
		k.StopPropagation()
		node := el.Call("closest", taskSelector)
		if el.Call("closest", "#graph").Truthy() {
			a.clickTask(node.Get("dataset").Get("task").String(), node)
		} else {
			a.clickTask(node.Get("dataset").Get("task").String(), js.Null())
		}
	case playground.KeyUndo:
		a.undo()
	case playground.KeyZoomIn:
		a.d.zoomTo(a.d.g.scale*playground.ZoomFactor, -1, -1)
	case playground.KeyZoomOut:
		a.d.zoomTo(a.d.g.scale/playground.ZoomFactor, -1, -1)
	case playground.KeyZoomFit:
		a.d.zoomFit()
	case playground.KeyZoomActual:
		a.d.zoomTo(1, -1, -1)
	default:
		return
	}
	k.PreventDefault()
}
