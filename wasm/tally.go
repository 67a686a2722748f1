//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/playground"
)

// tally is what is counted at the step: the tasks in each state, and the
// edges the cycle check examined.
type tally struct {
	a  *app
	el struct{ counts, visits, visitsNote js.Value }
}

func newTally(a *app) *tally {
	t := &tally{a: a}
	byIDs(idField{&t.el.counts, "counts"}, idField{&t.el.visits, "visits"}, idField{&t.el.visitsNote, "visits-note"})
	return t
}

// render shows the counts and the visits.
func (t *tally) render() {
	p := t.a.p
	v := p.Visits()
	setText(t.el.visits, v.Count)
	setText(t.el.visitsNote, v.Note)
	setData(t.el.visits, "strategy", p.Strategy())

	counts, all := p.Counts()
	var b strings.Builder
	for _, c := range counts {
		st := render.StyleOf(c.State)
		b.WriteString(`<li class="badge" data-state="` + string(c.State) + `">` + st.Icon + " " + st.Label + " " + strconv.Itoa(c.N) + `</li>`)
	}
	b.WriteString(`<li class="muted">` + playground.OfAll(all) + `</li>`)
	t.el.counts.Set("innerHTML", b.String())
}
