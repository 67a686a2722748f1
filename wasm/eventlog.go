//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/session"
)

// eventLog is the event log: its last lines up to the step shown, the
// step's own highlighted, each a button that seeks to its step.
type eventLog struct {
	a  *app
	of *session.Session // the session whose log is listed
	at int              // the step it is listed to

	el struct{ list, more js.Value }
}

func newEventLog(a *app) *eventLog {
	l := &eventLog{a: a}
	byIDs(idField{&l.el.list, "event-log"}, idField{&l.el.more, "log-more"})
	return l
}

// wire makes a line seek to its step, clicked or by its key, and the
// arrow keys move from line to line (playground.LogKeyFor).
func (l *eventLog) wire() {
	a := l.a
	list := l.el.list
	// show shows a line's step; the log is listed afresh, and the focus
	// goes to the line of the step shown, not to the page's body.
	show := func(li js.Value) {
		step := li.Get("dataset").Get("step").String()
		a.tl.pause()
		a.unnotify()
		if a.p.SeekTo(step) {
			a.render(false)
		}
		if again := list.Call("querySelector", `li[data-step="`+step+`"]`); again.Truthy() {
			again.Call("focus", map[string]any{"preventScroll": true})
		}
	}
	on(list, "click", func(ev js.Value) {
		if li := ev.Get("target").Call("closest", "li[data-step]"); li.Truthy() {
			show(li)
		}
	})
	on(list, "keydown", func(ev js.Value) {
		k := playground.LogKeyFor(ev.Get("key").String())
		if k == playground.LogNone {
			return
		}
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
		li := ev.Get("target").Call("closest", "li[data-step]")
		switch {
		case k == playground.LogShow && li.Truthy():
			show(li)
		case k == playground.LogUp && li.Truthy() && li.Get("previousElementSibling").Truthy():
			li.Get("previousElementSibling").Call("focus")
		case k == playground.LogDown && li.Truthy() && li.Get("nextElementSibling").Truthy():
			li.Get("nextElementSibling").Call("focus")
		case !li.Truthy():
			// From the log itself, to the line of the step shown.
			if cur := list.Call("querySelector", "li.current"); cur.Truthy() {
				cur.Call("focus")
			} else if last := list.Get("lastElementChild"); last.Truthy() {
				last.Call("focus")
			}
		}
	})
}

// render lists the events of session s up to the step shown, the newest
// step's highlighted and scrolled into view. Steps forward from the step
// listed (one, or the few that play skips on a slow frame or draws
// without telling) add their lines and drop the earliest, one step back
// the reverse; any other move (or a graph laid out again, relaid) lists
// the log afresh.
func (l *eventLog) render(s *session.Session, relaid bool) {
	a := l.a
	same := a.shown >= 0 && l.of == s && !relaid
	k := s.Cursor()
	from := l.at
	forward, back := same && k > from, same && k == from-1
	l.of, l.at = s, k
	list := l.el.list
	var lines []session.LogEntry
	var more string
	remove := 0
	switch {
	case forward:
		lines, more = a.p.LogSince(from)
		for _, li := range jsList(list.Call("querySelectorAll", "li.current")) {
			removeClass(li, "current")
		}
	case back:
		remove, lines, more = a.p.LogBack(list.Get("children").Length())
	default:
		lines, more = a.p.Log()
	}
	var b strings.Builder
	for _, ln := range lines {
		b.WriteString(`<li class="kind-` + ln.Kind)
		if ln.Step == k {
			b.WriteString(` current`)
		}
		b.WriteString(`" data-step="` + strconv.Itoa(ln.Step) + `" tabindex="-1" title="Show step ` + strconv.Itoa(ln.Step) + `"><span class="line">L` + strconv.Itoa(ln.Line) + `</span>`)
		b.WriteString(xmlEscape(shorten(ln.Text, 240)))
		b.WriteString(`</li>`)
	}
	switch {
	case forward && len(lines) >= playground.LogLimit:
		// The step's lines are the whole log.
		list.Set("innerHTML", b.String())
	case forward:
		list.Call("insertAdjacentHTML", "beforeend", b.String())
		kids := list.Get("children")
		for n := kids.Length(); n > playground.LogLimit; n-- {
			kids.Index(0).Call("remove")
		}
	case back:
		kids := list.Get("children")
		for ; remove > 0; remove-- {
			kids.Index(kids.Length() - 1).Call("remove")
		}
		list.Call("insertAdjacentHTML", "afterbegin", b.String())
		for _, li := range jsList(list.Call("querySelectorAll", `li[data-step="`+strconv.Itoa(k)+`"]`)) {
			addClass(li, "current")
		}
	default:
		list.Set("innerHTML", b.String())
	}
	setText(l.el.more, more)
	setHidden(l.el.more, more == "")
	afterFrames(1, func() { list.Set("scrollTop", list.Get("scrollHeight")) })
}
