//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// dlqList is the dead-letter queue: a row per entry, with its badge,
// reason, what it blocks and its button, and the toggle that lists more
// than its first few.
type dlqList struct {
	a    *app
	open bool // the queue lists more than its first few

	el struct{ list, more js.Value }
}

func newDLQList(a *app) *dlqList {
	l := &dlqList{a: a}
	byIDs(idField{&l.el.list, "dlq"}, idField{&l.el.more, "dlq-more"})
	return l
}

// wire makes an entry's button act, and the toggle list more or fewer.
func (l *dlqList) wire() {
	on(l.el.list, "click", func(ev js.Value) {
		if b := ev.Get("target").Call("closest", "button[data-action]"); b.Truthy() {
			ds := b.Get("dataset")
			l.a.act(playground.PopoverCommand(ds.Get("action").String(), ds.Get("task").String(), ""))
		}
	})
	on(l.el.more, "click", func(js.Value) {
		l.open = !l.open
		l.render()
	})
}

// render lists the dead-letter queue as the page says.
func (l *dlqList) render() {
	list := l.el.list
	clear(list)
	rows, toggle := l.a.p.DLQ(l.open)
	setText(l.el.more, toggle)
	setHidden(l.el.more, toggle == "")
	for _, d := range rows {
		li := create("li", "")
		setData(li, "task", d.Task)
		setData(li, "state", string(d.State))
		setData(li, "reason", d.Reason)
		setData(li, "blocks", strconv.Itoa(d.Blocks))
		badge := create("span", "badge")
		setData(badge, "state", string(d.State))
		setText(badge, d.Badge)
		name := create("b", "name")
		setText(name, d.Task)
		reason := create("span", "reason")
		setText(reason, d.Reason)
		appendTo(li, badge)
		appendTo(li, name)
		appendTo(li, reason)
		if d.BlocksText != "" {
			blocks := create("span", "blocks")
			setText(blocks, d.BlocksText)
			appendTo(li, blocks)
		}
		if b := d.Button; b != nil {
			btn := create("button", b.Class)
			setAttr(btn, "type", "button")
			setData(btn, "action", b.Action)
			setData(btn, "task", d.Task)
			setText(btn, b.Label)
			appendTo(li, btn)
		}
		appendTo(list, li)
	}
}
