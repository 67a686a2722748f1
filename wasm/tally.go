//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"strings"
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
type tally struct {
	a      *app
	markup string // the counts drawn, as markup
	sheet  string // the filter's style sheet written
	el     struct {
		counts, visits, visitsNote *dom.BasicHTMLElement
		filterStyle                js.Value // the filter's style sheet
	}
}

func newTally(a *app) *tally {
	t := &tally{a: a}
	t.el.counts, t.el.visits, t.el.visitsNote = elementByID("counts"), elementByID("visits"), elementByID("visits-note")
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
	var b strings.Builder
	for _, st := range core.States() {
		n, on := 0, slices.Contains(filter, st)
		for _, c := range counts {
			if c.State == st {
				n = c.N
			}
		}
		if n == 0 && !on {
			continue
		}
		sty := render.StyleOf(st)
		cls := "badge"
		if on {
			cls += " on"
		}
		b.WriteString(`<li class="` + cls + `" data-state="` + string(st) + `"><button type="button" class="count-toggle" data-filter="` + string(st) + `" aria-pressed="` + strconv.FormatBool(on) +
			`" title="Show only the ` + sty.Label + ` tasks (click again to show all)">` + sty.Icon + " " + sty.Label + " " + strconv.Itoa(n) + `</button></li>`)
	}
	b.WriteString(`<li class="muted">` + playground.OfAll(all) + `</li>`)
	if note := p.FilterNote(); note != "" {
		b.WriteString(`<li class="filter-note" role="status">` + escape.HTML(note) + ` <button type="button" class="small" data-filter-clear="1">Show all ✕</button></li>`)
	}
	if b.String() != t.markup {
		t.markup = b.String()
		t.el.counts.SetInnerHTML(t.markup)
	}
	t.applyFilter(filter)
}
