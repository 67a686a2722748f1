//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
	trainer "github.com/dagq/dagq/internal/practice"
)

// practice is practice mode's part of the page: a trainer.Trainer,
// which decides everything, and the elements that show it. It only draws
// what the trainer says and turns the form into a trainer.Answer.
type practice struct {
	a  *app
	t  *trainer.Trainer // nil while not practising
	el struct {
		modeWatch, modePractice, panel, level, exercise, random, interviewer js.Value
		title, goal, status, form, prompt, command, inputs, check            js.Value
		next, restart, result, probe, summary, levelStatus, questionB        js.Value
		done, nextExercise, again                                            js.Value
	}
}

func newPractice(a *app) *practice {
	pr := &practice{a: a}
	e := &pr.el
	for _, p := range []struct {
		v  *js.Value
		id string
	}{
		{&e.modeWatch, "mode-watch"}, {&e.modePractice, "mode-practice"}, {&e.panel, "practice"}, {&e.level, "practice-level"},
		{&e.exercise, "practice-exercise"}, {&e.random, "practice-random"}, {&e.interviewer, "practice-interviewer"},
		{&e.title, "practice-title"}, {&e.goal, "practice-goal"}, {&e.status, "practice-status"}, {&e.form, "practice-form"},
		{&e.prompt, "practice-prompt"}, {&e.command, "practice-command"}, {&e.inputs, "practice-inputs"},
		{&e.check, "practice-check"}, {&e.next, "practice-next"}, {&e.restart, "practice-restart"},
		{&e.result, "practice-result"}, {&e.probe, "practice-probe"}, {&e.summary, "practice-summary"},
		{&e.levelStatus, "practice-level-status"}, {&e.questionB, "practice-question"},
		{&e.done, "practice-done"}, {&e.nextExercise, "practice-next-exercise"}, {&e.again, "practice-again"},
	} {
		*p.v = byID(p.id)
	}
	return pr
}

// wire listens to practice mode's controls, and, while practising, keeps
// the rest of the page from moving the script on.
func (pr *practice) wire() {
	e := &pr.el
	on(e.modeWatch, "click", func(js.Value) { pr.stop() })
	on(e.modePractice, "click", func(js.Value) {
		if pr.t != nil {
			return
		}
		// Back to the exercise practised last, where the learner was in
		// it, as a reload does; else the first of L4.
		if pl, ok := trainer.ResumeLink(pr.stored()); ok {
			pr.open(pl, true)
			return
		}
		pr.start(playground.PracticeLink{Level: playground.L4})
	})
	on(e.level, "change", func(js.Value) {
		lvl, _ := playground.ParseLevel(e.level.Get("value").String())
		pr.start(playground.PracticeLink{Level: lvl, Interviewer: e.interviewer.Get("checked").Bool()})
	})
	on(e.exercise, "change", func(js.Value) {
		l := pr.t.Link()
		pr.start(playground.PracticeLink{Level: l.Level, Set: playground.SetBook, Exercise: e.exercise.Get("value").String(), Interviewer: l.Interviewer})
	})
	on(e.random, "click", func(js.Value) {
		l := pr.t.Link()
		pr.start(playground.PracticeLink{Level: l.Level, Set: playground.SetRandom, Interviewer: l.Interviewer})
	})
	on(e.interviewer, "change", func(js.Value) {
		l := pr.t.Link()
		l.Interviewer = e.interviewer.Get("checked").Bool()
		pr.start(l)
	})
	on(e.restart, "click", func(js.Value) { pr.startHere(pr.t.Link()) })
	on(e.again, "click", func(js.Value) { pr.startHere(pr.t.Link()) })
	on(e.nextExercise, "click", func(js.Value) { pr.startHere(pr.t.NextLink()) })
	on(e.form, "submit", func(ev js.Value) {
		ev.Call("preventDefault")
		pr.answer()
	})
	on(e.next, "click", func(js.Value) { pr.nextQuestion() })
	// While practising, the drawing, the side panels and the keys must not
	// move the script on: that would give the answers away, or change them.
	window := js.Global()
	block := func(ev js.Value) {
		if pr.t == nil {
			return
		}
		el := ev.Get("target")
		if el.Call("closest", "#practice, header, #crash, #notice").Truthy() {
			return
		}
		if ev.Get("type").String() == "keydown" && ev.Get("key").String() == "Tab" {
			return
		}
		if ev.Get("type").String() == "click" {
			// A click on a task picks its row in a question about states.
			if node := el.Call("closest", "[data-task]"); node.Truthy() {
				task := node.Get("dataset").Get("task").String()
				if row := pr.el.inputs.Call("querySelector", `[data-task="`+cssEscape(task)+`"]`); row.Truthy() {
					row.Call("focus")
				}
			}
			if el.Call("closest", ".stage-tools").Truthy() {
				return // zoom and find only move the view
			}
		}
		ev.Call("stopImmediatePropagation")
		ev.Call("preventDefault")
	}
	for _, typ := range []string{"keydown", "click", "dblclick"} {
		typ := typ
		window.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
			guard("practice "+typ, func() { block(args[0]) })
			return nil
		}), true)
	}
}

// start shows the exercise a practice link names, with the progress
// stored in the browser, from its first question.
func (pr *practice) start(pl playground.PracticeLink) { pr.open(pl, false) }

// startHere is start for a button that starts an exercise, which it
// hides or draws afresh: the focus goes to the first question.
func (pr *practice) startHere(pl playground.PracticeLink) {
	pr.start(pl)
	if pr.t != nil {
		pr.focusAnswer()
	}
}

// open shows the exercise a practice link names, with the
// progress stored in the browser; with resume (a reload), at the question
// the stored progress says the learner was on in it.
func (pr *practice) open(pl playground.PracticeLink, resume bool) {
	a := pr.a
	a.tl.pause()
	a.unnotify()
	stored := pr.stored()
	seed := uint64(js.Global().Get("Date").Call("now").Float()) % 1_000_000
	t, err := trainer.NewTrainer(pl, seed, stored)
	if err != nil {
		a.notify(err.Error(), false)
		return
	}
	pr.t = t
	if resume {
		t.Resume()
	}
	pr.store()
	a.p.ShowPractice(t.Practice().Session())
	addClass(a.el.body, "practicing")
	setHidden(pr.el.panel, false)
	pr.el.modeWatch.Call("setAttribute", "aria-pressed", "false")
	pr.el.modePractice.Call("setAttribute", "aria-pressed", "true")
	a.loaded(t.Practice().Exercise().Text, nil)
	pr.render()
}

// stop goes back to watching what was shown before practice
// began (playground.Page.Watch).
func (pr *practice) stop() {
	a := pr.a
	if pr.t == nil {
		return
	}
	pr.t = nil
	pointAt(nil)
	removeClass(a.el.body, "practicing")
	setHidden(pr.el.panel, true)
	pr.el.modeWatch.Call("setAttribute", "aria-pressed", "true")
	pr.el.modePractice.Call("setAttribute", "aria-pressed", "false")
	a.loaded(a.p.Watch(), nil)
}

// address is the practice link, while practising.
func (pr *practice) address() (string, bool) {
	if pr.t == nil {
		return "", false
	}
	return pr.t.Address(), true
}

// practice is the practice shown, nil while not practising.
func (pr *practice) practice() *trainer.Practice {
	if pr.t == nil {
		return nil
	}
	return pr.t.Practice()
}

// answer hands the form to the trainer: it grades the answer, or
// says what the answer lacks, which is shown in place of a result.
func (pr *practice) answer() {
	a := pr.a
	if _, ok := pr.t.Practice().Current(); !ok {
		return
	}
	if need := pr.t.Check(formFields(pr.el.form)); need != "" {
		toggleClass(pr.el.result, "right", false)
		toggleClass(pr.el.result, "wrong", false)
		toggleClass(pr.el.result, "need", true)
		setText(pr.el.result, need)
		setHidden(pr.el.result, false)
		return
	}
	pr.store()
	if _, graded := pr.t.Practice().Graded(); !graded {
		pr.render() // a "why" shows its points to tick
		focusFirst(pr.el.inputs)
		return
	}
	a.render(true)
	pr.render()
	if pr.t.Practice().Done() {
		pr.el.summary.Call("focus")
	} else {
		pr.el.next.Call("focus")
	}
}

// nextQuestion goes on from an answered question to the next one.
func (pr *practice) nextQuestion() {
	a := pr.a
	if pr.t.Next() {
		pr.store()
		a.render(false)
		pr.render()
		pr.focusAnswer()
	}
}

// stored returns the progress kept in the browser, "" if none.
func (pr *practice) stored() string {
	if v := js.Global().Get("localStorage").Call("getItem", trainer.ProgressKey); v.Truthy() {
		return v.String()
	}
	return ""
}

// store keeps the progress, and where the learner is, in the browser.
func (pr *practice) store() {
	js.Global().Get("localStorage").Call("setItem", trainer.ProgressKey, pr.t.Stored())
}

// formFields returns the practice form's named values, as FormData
// gives them: the checked radios and boxes, every select, the text.
func formFields(form js.Value) []trainer.Field {
	entries := js.Global().Get("Array").Call("from", js.Global().Get("FormData").New(form))
	out := make([]trainer.Field, 0, entries.Length())
	for i := 0; i < entries.Length(); i++ {
		e := entries.Index(i)
		out = append(out, trainer.Field{Name: e.Index(0).String(), Value: e.Index(1).String()})
	}
	return out
}

// render draws the practice panel: the exercise, the status, the
// question with its inputs, the result and the summary.
func (pr *practice) render() {
	a := pr.a
	t := pr.t
	e := &pr.el
	p := t.Practice()
	ex := p.Exercise()
	l := t.Link()
	e.level.Set("value", string(l.Level))
	clear(e.exercise)
	addOption(e.exercise, "", "Random exercise").Set("disabled", true)
	for _, c := range t.ExerciseChoices() {
		addOption(e.exercise, c.Value, c.Label)
	}
	if l.Set == playground.SetRandom {
		e.exercise.Set("value", "")
		setText(e.title, ex.Title)
	} else {
		e.exercise.Set("value", l.Exercise)
		setText(e.title, ex.Title)
	}
	e.interviewer.Set("checked", l.Interviewer)
	setText(e.goal, ex.Goal)
	setText(e.status, t.Status())
	setText(e.levelStatus, t.LevelStatus())
	setData(a.el.body, "practiceScore", scoreData(p))

	q, asking := p.Current()
	r, graded := p.Graded()
	setHidden(e.questionB, !asking)
	setHidden(e.summary, asking)
	setHidden(e.done, asking)
	setHidden(e.result, !graded)
	setHidden(e.probe, !(asking && p.Interviewer()))
	if asking {
		setText(e.prompt, q.Prompt)
		setText(e.command, q.Command)
		setData(e.form, "kind", q.Kind.String())
		if !graded {
			e.inputs.Set("innerHTML", p.InputsHTML())
		}
		// Graded, the answer given stays as it was given.
		for _, in := range jsList(e.inputs.Call("querySelectorAll", "input, select, textarea")) {
			in.Set("disabled", graded)
		}
		toggleClass(e.result, "need", false)
		setText(e.check, p.CheckLabel())
		toggleClass(e.form, "graded", graded)
		e.check.Set("disabled", graded)
		setHidden(e.check, graded)
		setHidden(e.next, !graded)
		pointAt(r.Point) // none until graded
		if graded {
			toggleClass(e.result, "right", r.Correct)
			toggleClass(e.result, "wrong", !r.Correct)
			e.result.Set("innerHTML", q.ResultHTML(r))
			if p.Index() == p.Len()-1 {
				setText(e.next, "See the summary ▸")
			} else {
				setText(e.next, "Next question ▸")
			}
		}
		if p.Interviewer() {
			e.probe.Set("innerHTML", q.ProbeHTML())
		}
		return
	}
	pointAt(nil)
	e.summary.Set("innerHTML", p.Summary().HTML())
}

// pointAt marks the drawn tasks a wrong answer's feedback is about
// (trainer.Result.Point), and unmarks the others.
func pointAt(tasks []string) {
	for _, g := range jsList(document.Call("querySelectorAll", "#graph g.task.pointed")) {
		removeClass(g, "pointed")
	}
	for _, t := range tasks {
		if g := document.Call("querySelector", `#graph g[data-task="`+cssString(t)+`"]`); g.Truthy() {
			addClass(g, "pointed")
		}
	}
}

// scoreData is the score as the page's data attribute says it, "right/answered".
func scoreData(p *trainer.Practice) string {
	right, answered := p.Score()
	return strconv.Itoa(right) + "/" + strconv.Itoa(answered)
}

// focusFirst focuses the first field of an element.
func focusFirst(el js.Value) {
	if in := el.Call("querySelector", "input, select, textarea"); in.Truthy() {
		in.Call("focus")
	}
}

// focusAnswer puts the focus where the learner goes on: the first field
// of the question asked, or the summary of a finished exercise.
func (pr *practice) focusAnswer() {
	if _, asking := pr.t.Practice().Current(); asking {
		focusFirst(pr.el.inputs)
		return
	}
	pr.el.summary.Call("focus")
}
