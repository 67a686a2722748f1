//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"syscall/js"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/escape"
	"github.com/dagq/dagq/internal/playground"
	"honnef.co/go/js/dom/v2"
)

// tally is what is counted at the step: the tasks in each state, and the
// edges the cycle check examined. A state's count is a button that filters
// the drawing by it (filter.go).
//
// Each state's count is an element made once and changed in place, hidden
// while no task is in the state: a step at 16× changes a count twenty
// times a second, and counts written afresh as markup laid out and painted
// the whole row each time.
type tally struct {
	a      *app
	badges map[core.State]*badge
	ofAll  string   // the "of N tasks" drawn
	note   string   // the filter's note drawn
	noteEl js.Value // its element, while there is one
	sheet  string   // the filter's style sheet written
	el     struct {
		counts, visits, visitsNote *dom.BasicHTMLElement
		ofAll                      js.Value
		filterStyle                js.Value // the filter's style sheet
	}
}

// badge is a state's count as drawn.
type badge struct {
	li, button js.Value
	text       string
	shown, on  bool
}

func newTally(a *app) *tally {
	t := &tally{a: a, badges: map[core.State]*badge{}}
	t.el.counts, t.el.visits, t.el.visitsNote = elementByID("counts"), elementByID("visits"), elementByID("visits-note")
	counts := t.el.counts.Underlying()
	for _, st := range core.States() {
		sty := render.StyleOf(st)
		b := &badge{li: create("li", "badge"), button: create("button", "count-toggle")}
		setData(b.li, "state", string(st))
		setAttr(b.button, "type", "button")
		setData(b.button, "filter", string(st))
		setAttr(b.button, "aria-pressed", "false")
		setAttr(b.button, "title", "Show only the "+sty.Label+" tasks (click again to show all)")
		setHidden(b.li, true)
		appendTo(b.li, b.button)
		appendTo(counts, b.li)
		t.badges[st] = b
	}
	t.el.ofAll = create("li", "muted")
	appendTo(counts, t.el.ofAll)
	return t
}

// render shows the counts and the visits.
func (t *tally) render() {
	p := t.a.p
	v := p.Visits()
	t.el.visits.SetTextContent(v.Count)
	t.el.visitsNote.SetTextContent(v.Note)
	setDataset(t.el.visits, "strategy", p.Strategy())

	counts, all := p.Counts()
	filter := p.Filter()
	for _, st := range core.States() {
		n, on := 0, slices.Contains(filter, st)
		for _, c := range counts {
			if c.State == st {
				n = c.N
			}
		}
		b := t.badges[st]
		if shown := n > 0 || on; shown != b.shown {
			b.shown = shown
			setHidden(b.li, !shown)
		}
		sty := render.StyleOf(st)
		if text := sty.Icon + " " + sty.Label + " " + strconv.Itoa(n); text != b.text {
			b.text = text
			setText(b.button, text)
		}
		if on != b.on {
			b.on = on
			toggleClass(b.li, "on", on)
			setAttr(b.button, "aria-pressed", strconv.FormatBool(on))
		}
	}
	if of := playground.OfAll(all); of != t.ofAll {
		t.ofAll = of
		setText(t.el.ofAll, of)
	}
	if note := p.FilterNote(); note != t.note {
		t.note = note
		if t.noteEl.Truthy() {
			t.noteEl.Call("remove")
			t.noteEl = js.Undefined()
		}
		if note != "" {
			t.noteEl = create("li", "filter-note")
			setAttr(t.noteEl, "role", "status")
			t.noteEl.Set("innerHTML", escape.HTML(note)+` <button type="button" class="small" data-filter-clear="1">Show all ✕</button>`)
			appendTo(t.el.counts.Underlying(), t.noteEl)
		}
	}
	t.applyFilter(filter)
}
