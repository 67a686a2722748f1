//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"github.com/dagq/dagq/internal/escape"
	"github.com/dagq/dagq/internal/playground"
	"honnef.co/go/js/dom/v2"
)

// dlqList is the dead-letter queue: a row per entry, with its badge,
// reason, what it blocks and its button, and the toggle that lists more
// than its first few.
type dlqList struct {
	a      *app
	open   bool   // the queue lists more than its first few
	markup string // the list drawn: its markup, and whether and why its buttons are disabled

	el struct {
		list *dom.BasicHTMLElement
		more *dom.HTMLButtonElement
	}
}

func newDLQList(a *app) *dlqList {
	l := &dlqList{a: a}
	l.el.list = elementByID("dlq")
	l.el.more = buttonByID("dlq-more")
	return l
}

// wire makes an entry's button act, and the toggle list more or fewer.
func (l *dlqList) wire() {
	listen(l.el.list, "click", func(ev *dom.BasicEvent) {
		if b, ok := closest(ev, "button[data-action]"); ok {
			if l.a.p.Live() != "" {
				l.a.live.request(playground.PopoverCommand(dataOf(b, "action"), dataOf(b, "task"), ""))
				return
			}
			l.a.act(playground.PopoverCommand(dataOf(b, "action"), dataOf(b, "task"), ""))
		}
	})
	listen(l.el.more, "click", func(*dom.BasicEvent) {
		l.open = !l.open
		l.render()
	})
}

// render lists the dead-letter queue as the page says, as one piece of
// markup: it is drawn again at every step, and making its rows one
// element at a time would wrap each in the binding.
func (l *dlqList) render() {
	rows, toggle := l.a.p.DLQ(l.open)
	l.el.more.SetTextContent(toggle)
	hide(l.el.more, toggle == "")
	var b strings.Builder
	for _, d := range rows {
		task, state := escape.HTML(d.Task), escape.HTML(string(d.State))
		b.WriteString(`<li data-task="` + task + `" data-state="` + state + `" data-reason="` + escape.HTML(d.Reason) +
			`" data-blocks="` + strconv.Itoa(d.Blocks) + `"><span class="badge" data-state="` + state + `">` + escape.HTML(d.Badge) +
			`</span><b class="name">` + task + `</b><span class="reason">` + escape.HTML(d.Reason) + `</span>`)
		if d.BlocksText != "" {
			b.WriteString(`<span class="blocks">` + escape.HTML(d.BlocksText) + `</span>`)
		}
		if btn := d.Button; btn != nil {
			b.WriteString(`<button type="button" class="` + escape.HTML(btn.Class) + `" data-action="` + escape.HTML(btn.Action) +
				`" data-task="` + task + `">` + escape.HTML(btn.Label) + `</button>`)
		}
		b.WriteString(`</li>`)
	}
	disable := l.a.p.Live() != "" && !l.a.live.canAct
	key := b.String() + "\x00" + strconv.FormatBool(disable) + l.a.live.why
	if key == l.markup {
		return // drawn as it is
	}
	l.markup = key
	rewrite(l.el.list.Underlying(), b.String())
	if disable {
		for _, btn := range nodeList(l.el.list.Underlying().Call("querySelectorAll", "button[data-action]")) {
			btn.Set("disabled", true)
			btn.Set("title", l.a.live.why)
		}
	}
}
