//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	trainer "github.com/dagq/dagq/internal/practice"
)

// interview is the mock interview's part of the page: a trainer.Interview,
// which decides the clock, the stages, the marks and the summary, and the
// elements that show it. It only draws, ticks once a second, and forwards
// a click on the sheet.
type interview struct {
	a     *app
	iv    trainer.Interview
	on    bool // an interview is shown
	stage int  // the stage drawn; -1 before the first
	el    struct {
		panel, role, clock, ask, probes, sheet, links, keep, summary js.Value
	}
}

func newInterview(a *app) *interview {
	v := &interview{a: a, stage: -1}
	e := &v.el
	for _, p := range []struct {
		v  *js.Value
		id string
	}{
		{&e.panel, "interview"}, {&e.role, "interview-role"}, {&e.clock, "interview-clock"}, {&e.ask, "interview-ask"},
		{&e.probes, "interview-probes"}, {&e.sheet, "interview-sheet"}, {&e.links, "interview-links"},
		{&e.keep, "interview-keep"}, {&e.summary, "interview-summary"},
	} {
		*p.v = byID(p.id)
	}
	on(e.sheet, "click", func(ev js.Value) {
		b := ev.Get("target").Call("closest", "button[data-point]")
		if !b.Truthy() {
			return
		}
		ds := b.Get("dataset")
		if err := v.iv.Toggle(ds.Get("point").String(), ds.Get("mark").String()); err != nil {
			a.notify(err.Error(), false)
			return
		}
		v.address()
		v.drawSheet()
		v.tick()
	})
	return v
}

// nowMs is the wall clock in Unix milliseconds, which both views of an
// interview count from.
func nowMs() int64 { return int64(js.Global().Get("Date").Call("now").Float()) }

// open shows an interview: one that has not begun starts now, and the
// address becomes its link for this view.
func (v *interview) open(iv trainer.Interview) {
	if iv.Start == 0 {
		iv.Start = nowMs()
	}
	wasOn := v.on
	v.iv, v.on, v.stage = iv, true, -1
	interviewer := iv.Role == trainer.Interviewer
	setHidden(v.el.panel, false)
	addClass(v.a.el.body, "interviewing")
	setText(v.el.role, "· "+string(iv.Role)+"'s view")
	for _, el := range []js.Value{v.el.probes, v.el.sheet, v.el.links, v.el.keep} {
		setHidden(el, !interviewer)
	}
	v.address()
	if interviewer {
		v.drawLinks()
	}
	v.tick()
	if !wasOn {
		js.Global().Call("setInterval", js.FuncOf(func(js.Value, []js.Value) any {
			guard("interview clock", v.tick)
			return nil
		}), 1000)
	}
}

// address writes the interview's link for this view in the address bar.
func (v *interview) address() {
	loc := js.Global().Get("location")
	js.Global().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+v.iv.Query(v.iv.Role))
}

// tick redraws the clock, the stage when it changed, and the summary.
func (v *interview) tick() {
	if !v.on {
		return
	}
	now := nowMs()
	c := v.iv.ClockAt(now)
	setText(v.el.clock, c.String())
	if c.Stage != v.stage {
		v.stage = c.Stage
		stages := trainer.InterviewStages()
		st := stages[min(c.Stage, len(stages)-1)]
		setText(v.el.ask, st.Ask)
		clear(v.el.probes)
		for _, p := range st.Probes {
			li := create("li", "")
			setText(li, p)
			appendTo(v.el.probes, li)
		}
		v.drawSheet()
	}
	if v.iv.Role == trainer.Interviewer {
		setText(v.el.summary, v.iv.Summary(now))
	}
}

func (v *interview) drawSheet() {
	if v.iv.Role == trainer.Interviewer {
		v.el.sheet.Set("innerHTML", v.iv.SheetHTML(v.stage))
	}
}

// drawLinks shows the pair's two links: the candidate's, and this one,
// which keeps the marks.
func (v *interview) drawLinks() {
	clear(v.el.links)
	loc := js.Global().Get("location")
	base := loc.Get("origin").String() + loc.Get("pathname").String()
	for _, l := range []struct {
		label string
		role  trainer.Role
		id    string
	}{{"Candidate's link: ", trainer.Candidate, "interview-candidate-link"}, {" · Interviewer's: ", trainer.Interviewer, "interview-interviewer-link"}} {
		appendTo(v.el.links, document.Call("createTextNode", l.label))
		a := create("a", "")
		a.Set("id", l.id)
		href := base + v.iv.Query(l.role)
		if l.role == trainer.Interviewer {
			href = base + strings.SplitN(v.iv.Query(l.role), "&marks=", 2)[0]
			setText(a, "this view (the address keeps the marks)")
		} else {
			setText(a, href)
		}
		a.Set("href", href)
		a.Set("target", "_blank")
		appendTo(v.el.links, a)
	}
}
