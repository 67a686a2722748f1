//go:build js && wasm

package main

import (
	"strings"

	"github.com/dagq/dagq/core"
	"honnef.co/go/js/dom/v2"
)

// The state filter (playground.Page.Filter): a click on a state's count
// shows only the tasks in the states chosen, the others faded, by a style
// sheet of the page's own that names the states; "Show all" or a second
// click clears it.

// wireFilter makes the counts' buttons toggle the filter.
func (t *tally) wireFilter() {
	t.el.filterStyle = create("style", "")
	setAttr(t.el.filterStyle, "id", "filter-style")
	appendTo(document.Get("head"), t.el.filterStyle)
	listen(t.el.counts, "click", func(ev *dom.BasicEvent) {
		if b, ok := closest(ev, "button[data-filter]"); ok {
			t.a.p.ToggleFilter(core.State(dataOf(b, "filter")))
		} else if _, ok := closest(ev, "button[data-filter-clear]"); ok {
			t.a.p.ClearFilter()
		} else {
			return
		}
		t.render()
		t.a.setAddress()
	})
}

// applyFilter writes the style sheet that fades the tasks of the states
// not chosen, and their edges.
func (t *tally) applyFilter(filter []core.State) {
	var b strings.Builder
	if len(filter) > 0 {
		b.WriteString("#graph g[data-task]")
		for _, st := range filter {
			b.WriteString(`:not([data-state="` + string(st) + `"])`)
		}
		b.WriteString("{opacity:0.14}#graph .edges,#graph .bundles{opacity:0.3}")
	}
	// Written only when it changes: each write restyles every task.
	if b.String() != t.sheet {
		t.sheet = b.String()
		setText(t.el.filterStyle, t.sheet)
	}
	toggleClass(t.el.counts.Underlying(), "filtering", len(filter) > 0)
}
