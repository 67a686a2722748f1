//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
	"honnef.co/go/js/dom/v2"
)

// popover is a task's actions, shown beside it when a click on it offers
// a choice (playground.DoPopover).
type popover struct {
	a  *app
	el struct{ popover, stage *dom.BasicHTMLElement }
	// fresh is set for the two frames after show: a scroll event then
	// comes from a scroll made before the popover opened (a step's Follow,
	// or the click's own scrolling into view), not from the person, and
	// does not close it.
	fresh bool
}

func newPopover(a *app) *popover {
	p := &popover{a: a}
	p.el.popover, p.el.stage = elementByID("popover"), elementByID("stage")
	return p
}

// wire makes the buttons act, Enter in the error field fail the task, and
// a click elsewhere close it.
func (p *popover) wire() {
	el := p.el.popover
	listen(el, "click", func(ev *dom.BasicEvent) {
		ev.StopPropagation()
		if b, ok := closest(ev, "button[data-action]"); ok {
			p.action(dataOf(b, "action"))
		}
	})
	listenKeys(el, "keydown", func(ev *dom.KeyboardEvent) {
		if _, ok := closest(ev, "input"); ok && ev.Key() == "Enter" {
			ev.PreventDefault()
			p.action("fail")
		}
	})
	on(document, "click", func(js.Value) { p.hide() })
}

// show shows a popover's buttons beside its task (node, or found by name
// in the drawing when node is null).
func (p *popover) show(pop playground.Popover, node js.Value) {
	el := p.el.popover
	el.SetTextContent("")
	setDataset(el, "task", pop.Task)
	para := func(class, text string) {
		t := newElement("p", class)
		t.SetTextContent(text)
		el.AppendChild(t)
	}
	para("pop-title", pop.Title)
	if pop.Note != "" {
		para("pop-note", pop.Note)
	}
	for _, b := range pop.Buttons {
		row := newElement("div", "pop-row")
		if b.Action == "fail" && pop.ErrorText {
			in := &dom.HTMLInputElement{BasicHTMLElement: newElement("input", "")}
			in.SetType("text")
			in.SetID("pop-error")
			in.SetPlaceholder("error, e.g. timeout")
			in.SetAttribute("aria-label", "Error text of the failure")
			row.AppendChild(in)
		}
		btn := &dom.HTMLButtonElement{BasicHTMLElement: newElement("button", b.Class)}
		btn.SetType("button")
		setDataset(btn, "action", b.Action)
		btn.SetTextContent(b.Label)
		row.AppendChild(btn)
		el.AppendChild(row)
	}
	if !node.Truthy() {
		// An SVG element, which the binding does not type: the drawing's.
		node = p.el.stage.Underlying().Call("querySelector", `g[data-task="`+cssEscape(pop.Task)+`"]`)
	}
	stage := p.el.stage.GetBoundingClientRect()
	x, y := -stage.Left(), -stage.Top()
	taskTop, taskBottom := -1.0, -1.0
	if node.Truthy() {
		r := node.Call("getBoundingClientRect")
		x += r.Get("left").Float() + r.Get("width").Float()/2
		taskTop, taskBottom = r.Get("top").Float(), r.Get("bottom").Float()
		y += taskBottom + 6
	} else {
		x += stage.Width() / 2
		y += 40
	}
	// Keep it inside the stage on narrow screens.
	half := 125.0
	x = max(half, min(x, stage.Width()-half))
	style := el.Style()
	style.SetProperty("left", px(x), "")
	style.SetProperty("top", px(y), "")
	hide(el, false)
	if taskBottom >= 0 {
		// Over its task when under it the bottom of the screen, or a
		// phone's timeline stuck there, would cover its buttons.
		limit := js.Global().Get("innerHeight").Float()
		if tl := document.Call("querySelector", ".timeline"); tl.Truthy() && js.Global().Call("getComputedStyle", tl).Get("position").String() == "sticky" {
			if t := tl.Call("getBoundingClientRect").Get("top").Float(); t > taskBottom {
				limit = min(limit, t)
			}
		}
		h := el.GetBoundingClientRect().Height()
		style.SetProperty("top", px(playground.PopoverTop(taskBottom+6, taskTop-6, h, 0, limit)-stage.Top()), "")
	}
	p.fresh = true
	afterFrames(2, func() { p.fresh = false })
	if b := el.Underlying().Call("querySelector", "button"); b.Truthy() {
		b.Call("focus", map[string]any{"preventScroll": true})
	}
}

func cssEscape(s string) string {
	return js.Global().Get("CSS").Call("escape", s).String()
}

// close hides the popover; if it had the focus, the focus goes back to
// its task, not to the page's body.
func (p *popover) close() {
	el := p.el.popover
	inPopover := el.Underlying().Call("contains", document.Get("activeElement")).Bool()
	task := dataOf(el, "task")
	p.hide()
	if inPopover && task != "" {
		p.a.d.focusTask(task)
	}
}

// scrolled closes the popover when the drawing is scrolled, but for a
// scroll that was under way before it opened.
func (p *popover) scrolled() {
	if !p.fresh {
		p.hide()
	}
}

func (p *popover) hide() {
	if !isHidden(p.el.popover) {
		hide(p.el.popover, true)
	}
}

// action does what a popover button says.
func (p *popover) action(action string) {
	task := dataOf(p.el.popover, "task")
	msg := ""
	if in := p.el.popover.Underlying().Call("querySelector", "input"); in.Truthy() {
		msg = (&dom.HTMLInputElement{BasicHTMLElement: htmlElement(in)}).Value()
	}
	p.hide()
	p.a.act(playground.PopoverCommand(action, task, msg))
	// The popover's button had the focus: it goes back to the task, not
	// to the page's body.
	p.a.d.focusTask(task)
}
