//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// popover is a task's actions, shown beside it when a click on it offers
// a choice (playground.DoPopover).
type popover struct {
	a  *app
	el struct{ popover, stage js.Value }
}

func newPopover(a *app) *popover {
	p := &popover{a: a}
	byIDs(idField{&p.el.popover, "popover"}, idField{&p.el.stage, "stage"})
	return p
}

// wire makes the buttons act, Enter in the error field fail the task, and
// a click elsewhere close it.
func (p *popover) wire() {
	el := p.el.popover
	on(el, "click", func(ev js.Value) {
		ev.Call("stopPropagation")
		if b := ev.Get("target").Call("closest", "button[data-action]"); b.Truthy() {
			p.action(b.Get("dataset").Get("action").String())
		}
	})
	on(el, "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Enter" && ev.Get("target").Get("tagName").String() == "INPUT" {
			ev.Call("preventDefault")
			p.action("fail")
		}
	})
	on(document, "click", func(js.Value) { p.hide() })
}

// show shows a popover's buttons beside its task (node, or found by name
// in the drawing when node is null).
func (p *popover) show(pop playground.Popover, node js.Value) {
	el := p.el.popover
	clear(el)
	setData(el, "task", pop.Task)
	title := create("p", "pop-title")
	setText(title, pop.Title)
	appendTo(el, title)
	if pop.Note != "" {
		r := create("p", "pop-note")
		setText(r, pop.Note)
		appendTo(el, r)
	}
	for _, b := range pop.Buttons {
		row := create("div", "pop-row")
		if b.Action == "fail" && pop.ErrorText {
			in := create("input", "")
			setAttr(in, "type", "text")
			setAttr(in, "id", "pop-error")
			setAttr(in, "placeholder", "error, e.g. timeout")
			setAttr(in, "aria-label", "Error text of the failure")
			appendTo(row, in)
		}
		btn := create("button", b.Class)
		setAttr(btn, "type", "button")
		setData(btn, "action", b.Action)
		setText(btn, b.Label)
		appendTo(row, btn)
		appendTo(el, row)
	}
	if !node.Truthy() {
		node = p.el.stage.Call("querySelector", `g[data-task="`+cssEscape(pop.Task)+`"]`)
	}
	stage := p.el.stage.Call("getBoundingClientRect")
	x, y := -stage.Get("left").Float(), -stage.Get("top").Float()
	if node.Truthy() {
		r := node.Call("getBoundingClientRect")
		x += r.Get("left").Float() + r.Get("width").Float()/2
		y += r.Get("bottom").Float() + 6
	} else {
		x += stage.Get("width").Float() / 2
		y += 40
	}
	// Keep it inside the stage on narrow screens.
	half := 125.0
	x = max(half, min(x, stage.Get("width").Float()-half))
	style := el.Get("style")
	style.Set("left", px(x))
	style.Set("top", px(y))
	setHidden(el, false)
	el.Call("querySelector", "button").Call("focus", map[string]any{"preventScroll": true})
}

func cssEscape(s string) string {
	return js.Global().Get("CSS").Call("escape", s).String()
}

// close hides the popover; if it had the focus, the focus goes back to
// its task, not to the page's body.
func (p *popover) close() {
	el := p.el.popover
	inPopover := el.Call("contains", document.Get("activeElement")).Bool()
	task := el.Get("dataset").Get("task")
	p.hide()
	if inPopover && task.Truthy() {
		p.a.d.focusTask(task.String())
	}
}

func (p *popover) hide() {
	if !p.el.popover.Get("hidden").Bool() {
		setHidden(p.el.popover, true)
	}
}

// action does what a popover button says.
func (p *popover) action(action string) {
	task := p.el.popover.Get("dataset").Get("task").String()
	msg := ""
	if in := p.el.popover.Call("querySelector", "input"); in.Truthy() {
		msg = in.Get("value").String()
	}
	p.hide()
	p.a.act(playground.PopoverCommand(action, task, msg))
	// The popover's button had the focus: it goes back to the task, not
	// to the page's body.
	p.a.d.focusTask(task)
}
