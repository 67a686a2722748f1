//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// clockPanel is what the page says of time (playground.Clock): the clock
// beside the step label and the buttons that move it.
type clockPanel struct {
	a        *app
	timers   []js.Value // the timers drawn on tasks
	advances string     // the advance buttons drawn, as markup
	el       struct {
		timeRow        *dom.BasicHTMLElement
		clock, advance *dom.BasicHTMLElement
	}
}

func newClockPanel(a *app) *clockPanel {
	c := &clockPanel{a: a}
	c.el.timeRow = elementByID("time-row")
	c.el.clock, c.el.advance = elementByID("clock"), elementByID("advance")
	return c
}

// render draws the clock and its buttons, a bar that shrinks to each
// RUNNING task's lease deadline and each DELAYED task's due time with its
// countdown, an expiry flashed on its task with what followed, and the
// tasks that joined the READY line by the clock marked there.
func (cp *clockPanel) render() {
	a := cp.a
	c := a.p.Clock()
	hide(cp.el.timeRow, !c.Shown)
	for _, old := range cp.timers {
		old.Call("remove")
	}
	cp.timers = cp.timers[:0]
	if !c.Shown {
		return
	}
	cp.el.clock.SetTextContent(c.Label)
	var b strings.Builder
	for _, adv := range c.Advances {
		b.WriteString(`<button type="button" data-command="` + adv.Command + `" title="` + adv.Command + `">` + adv.Label + `</button>`)
	}
	if b.String() != cp.advances {
		cp.advances = b.String()
		cp.el.advance.SetInnerHTML(cp.advances)
	}

	for _, t := range c.Timers {
		w, cell, ok := a.d.g.drawnBox(t.Task)
		if !ok {
			continue // not drawn: outside the view of a big graph
		}
		// Drawn about the box's centre; the graph puts it at the task.
		timer := createSVG("g", "timer "+t.Kind)
		// The bar runs between the box's rounded corners.
		bar := createSVG("rect", "bar")
		inset := min(8, w/4)
		setAttr(bar, "x", num(-w/2+inset))
		setAttr(bar, "y", "17")
		setAttr(bar, "height", "3")
		setAttr(bar, "width", strconv.FormatFloat((w-2*inset)*t.Fraction, 'f', 1, 64))
		appendTo(timer, bar)
		if !cell {
			// A cell of a compact grid has its bar alone: the
			// countdown is in its tooltip and its detail.
			label := createSVG("text", "countdown")
			setAttr(label, "y", "-27")
			setAttr(label, "text-anchor", "middle")
			setText(label, t.Text)
			appendTo(timer, label)
		}
		a.d.g.addTimer(t.Task, timer)
		cp.timers = append(cp.timers, timer)
	}

	for _, x := range a.p.Expiries() {
		if g, ok := a.d.g.drawnTask(x.Task); ok {
			g.Get("classList").Call("remove", "expired")
			afterFrames(1, func() { addClass(g, "expired") })
		}
		a.showBanner("expired", x.Reason)
	}
	for _, task := range a.p.JoinedReady() {
		if li := a.ready.el.line.Call("querySelector", `li[data-task="`+cssString(task)+`"]`); li.Truthy() {
			addClass(li, "joined")
			a.ready.marked = true // drawn afresh next time
			setAttr(li, "title", li.Call("getAttribute", "title").String()+" — joined the line at "+c.Label)
		}
	}
}

// wire makes the advance buttons act: each runs its command at the step
// shown, as a typed command would.
func (cp *clockPanel) wire() {
	a := cp.a
	listen(cp.el.advance, "click", func(ev *dom.BasicEvent) {
		if btn, ok := closest(ev, "button[data-command]"); ok {
			a.act(dataOf(btn, "command"))
		}
	})
}

// nodeList returns the elements of a NodeList.
func nodeList(l js.Value) []js.Value {
	out := make([]js.Value, l.Length())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

// cssString escapes a task name for a quoted CSS attribute selector.
func cssString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
