//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/escape"
)

// readyLine is the READY line: its chips, front first, which glide to
// their new places as a step moves them, and the toggle that lists more
// than its front few.
type readyLine struct {
	a      *app
	open   bool   // the line lists more than its front few
	markup string // the chips drawn, as markup, while marked is false
	marked bool   // the chips were marked since (a glide, a join): draw them afresh
	toggle string // the toggle's text drawn
	order  string // the heading's order drawn (playground.Page.ReadyOrder)

	el struct{ line, more, order js.Value }
}

func newReadyLine(a *app) *readyLine {
	r := &readyLine{a: a, order: "front first"}
	byIDs(idField{&r.el.line, "ready-line"}, idField{&r.el.more, "ready-more"}, idField{&r.el.order, "ready-order"})
	return r
}

// wire makes a chip act as a click on its task, and the toggle list more
// or fewer.
func (r *readyLine) wire() {
	on(r.el.line, "click", func(ev js.Value) {
		if li := ev.Get("target").Call("closest", "li[data-task]"); li.Truthy() {
			ev.Call("stopPropagation")
			r.a.clickTask(li.Get("dataset").Get("task").String(), js.Null())
		}
	})
	on(r.el.more, "click", func(js.Value) {
		r.open = !r.open
		r.render(nil, nil)
	})
}

// pos is where an element is on the page.
type pos struct{ x, y float64 }

// positions returns where the chips are, by task.
func (r *readyLine) positions() map[string]pos {
	old := map[string]pos{}
	kids := r.el.line.Get("children")
	for i := 0; i < kids.Length(); i++ {
		li := kids.Index(i)
		rect := li.Call("getBoundingClientRect")
		old[li.Get("dataset").Get("task").String()] = pos{rect.Get("left").Float(), rect.Get("top").Float()}
	}
	return old
}

// render lists the READY line, front first. Stepping forward (old holds
// where the chips were), the chips glide to their new places, and a
// retried task slides from the front, where it was handed out, to the
// back of the line.
func (r *readyLine) render(old map[string]pos, events []core.Event) {
	list := r.el.line
	animate := old != nil
	var front pos
	if kids := list.Get("children"); animate && kids.Length() > 0 {
		front = old[kids.Index(0).Get("dataset").Get("task").String()]
	}
	retried := map[string]bool{}
	for _, e := range events {
		if e.Kind == core.EventRetried {
			retried[e.Task] = true
		}
	}
	chips, toggle := r.a.p.ReadyLine(r.open)
	if order := r.a.p.ReadyOrder(); order != r.order {
		r.order = order
		setText(r.el.order, order)
	}
	// One piece of markup, written only when it changed: playing at 16×
	// the line is drawn twenty times a second, and a chip made element
	// by element cost ten calls into JavaScript.
	var b strings.Builder
	for _, c := range chips {
		task := escape.HTML(c.Task)
		b.WriteString(`<li class="chip`)
		if c.Front {
			b.WriteString(` front`)
		}
		b.WriteString(`" data-task="` + task + `" data-state="` + string(core.Ready) + `" title="` + escape.HTML(c.Title) +
			`" tabindex="0" role="button">` + task + `</li>`)
	}
	if markup := b.String(); markup != r.markup || r.marked || animate {
		r.markup = markup
		list.Set("innerHTML", markup)
	}
	// The glide marks the chips: drawn afresh next time, even when the
	// line is empty then.
	r.marked = animate
	if toggle != r.toggle {
		r.toggle = toggle
		setText(r.el.more, toggle)
		setHidden(r.el.more, toggle == "")
	}
	if !animate {
		return
	}
	items := jsList(list.Get("children"))
	// FLIP, in the next frame, when the page is laid out anyway: put each
	// chip back where it was, then let it glide.
	afterFrames(1, func() {
		// Read every chip's place first, then write: a read after a
		// write would lay the page out again, once per chip.
		type move struct {
			li     js.Value
			dx, dy float64
		}
		var moves []move
		var entered, retriedLis []js.Value
		for i, li := range items {
			p, was := old[chips[i].Task]
			if retried[chips[i].Task] && len(old) > 0 {
				p, was = front, true
				retriedLis = append(retriedLis, li)
			}
			if !was {
				entered = append(entered, li)
				continue
			}
			rect := li.Call("getBoundingClientRect")
			if dx, dy := p.x-rect.Get("left").Float(), p.y-rect.Get("top").Float(); dx != 0 || dy != 0 {
				moves = append(moves, move{li, dx, dy})
			}
		}
		for _, li := range entered {
			addClass(li, "enter")
		}
		for _, li := range retriedLis {
			addClass(li, "retried")
		}
		if len(moves) == 0 {
			return
		}
		for _, m := range moves {
			m.li.Get("style").Set("transform", "translate("+px(m.dx)+","+px(m.dy)+")")
		}
		list.Get("offsetWidth") // lay out the chips where they were
		for _, m := range moves {
			addClass(m.li, "glide")
			m.li.Get("style").Set("transform", "")
		}
	})
}
