//go:build js && wasm

package main

import (
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/playground"
	"honnef.co/go/js/dom/v2"
	"strconv"
	"strings"
)

// tally is what is counted at the step: the tasks in each state, and the
// edges the cycle check examined.
type tally struct {
	a  *app
	el struct{ counts, visits, visitsNote *dom.BasicHTMLElement }
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
	var b strings.Builder
	for _, c := range counts {
		st := render.StyleOf(c.State)
		b.WriteString(`<li class="badge" data-state="` + string(c.State) + `">` + st.Icon + " " + st.Label + " " + strconv.Itoa(c.N) + `</li>`)
	}
	b.WriteString(`<li class="muted">` + playground.OfAll(all) + `</li>`)
	t.el.counts.SetInnerHTML(b.String())
}
