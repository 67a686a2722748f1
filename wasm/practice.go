//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/playground"
)

// practice is practice mode's part of the page: a playground.Trainer,
// which decides everything, and the elements that show it. It only draws
// what the trainer says and turns the form into a playground.Answer.
type practice struct {
	t  *playground.Trainer
	el struct {
		watch, practise, panel, level, exercise, random, interviewer  js.Value
		title, goal, status, form, prompt, command, inputs, check     js.Value
		next, restart, result, probe, summary, levelStatus, questionB js.Value
	}
}

// wirePractice finds practice mode's elements and listens to them.
func (a *app) wirePractice() {
	pr := &practice{}
	a.pr = pr
	e := &pr.el
	for _, p := range []struct {
		v  *js.Value
		id string
	}{
		{&e.watch, "mode-watch"}, {&e.practise, "mode-practice"}, {&e.panel, "practice"}, {&e.level, "practice-level"},
		{&e.exercise, "practice-exercise"}, {&e.random, "practice-random"}, {&e.interviewer, "practice-interviewer"},
		{&e.title, "practice-title"}, {&e.goal, "practice-goal"}, {&e.status, "practice-status"}, {&e.form, "practice-form"},
		{&e.prompt, "practice-prompt"}, {&e.command, "practice-command"}, {&e.inputs, "practice-inputs"},
		{&e.check, "practice-check"}, {&e.next, "practice-next"}, {&e.restart, "practice-restart"},
		{&e.result, "practice-result"}, {&e.probe, "practice-probe"}, {&e.summary, "practice-summary"},
		{&e.levelStatus, "practice-level-status"}, {&e.questionB, "practice-question"},
	} {
		*p.v = byID(p.id)
	}
	on(e.watch, "click", func(js.Value) { a.stopPractice() })
	on(e.practise, "click", func(js.Value) {
		if pr.t == nil {
			a.startPractice(playground.PracticeLink{Level: playground.L4})
		}
	})
	on(e.level, "change", func(js.Value) {
		lvl, _ := playground.ParseLevel(e.level.Get("value").String())
		a.startPractice(playground.PracticeLink{Level: lvl, Interviewer: e.interviewer.Get("checked").Bool()})
	})
	on(e.exercise, "change", func(js.Value) {
		l := pr.t.Link()
		a.startPractice(playground.PracticeLink{Level: l.Level, Set: playground.SetBook, Exercise: e.exercise.Get("value").String(), Interviewer: l.Interviewer})
	})
	on(e.random, "click", func(js.Value) {
		l := pr.t.Link()
		a.startPractice(playground.PracticeLink{Level: l.Level, Set: playground.SetRandom, Interviewer: l.Interviewer})
	})
	on(e.interviewer, "change", func(js.Value) {
		l := pr.t.Link()
		l.Interviewer = e.interviewer.Get("checked").Bool()
		a.startPractice(l)
	})
	on(e.restart, "click", func(js.Value) { a.startPractice(pr.t.Link()) })
	on(e.form, "submit", func(ev js.Value) {
		ev.Call("preventDefault")
		a.answerPractice()
	})
	on(e.next, "click", func(js.Value) {
		if pr.t.Practice().Next() {
			a.render(false)
			a.renderPractice()
			focusFirst(e.inputs)
		}
	})
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

// openPractice starts practice mode when the address asks for it, and
// reports whether it did.
func (a *app) openPractice() bool {
	loc := js.Global().Get("location")
	pl, ok := playground.PracticeFrom(loc.Get("search").String(), loc.Get("hash").String())
	if !ok {
		return false
	}
	a.startPractice(pl)
	return true
}

// startPractice shows the exercise a practice link names, with the
// progress stored in the browser.
func (a *app) startPractice(pl playground.PracticeLink) {
	a.pause()
	a.unnotify()
	pr := a.pr
	stored := ""
	if v := js.Global().Get("localStorage").Call("getItem", playground.ProgressKey); v.Truthy() {
		stored = v.String()
	}
	seed := uint64(js.Global().Get("Date").Call("now").Float()) % 1_000_000
	t, err := playground.NewTrainer(pl, seed, stored)
	if err != nil {
		a.notify(err.Error(), false)
		return
	}
	pr.t = t
	a.p.Practise(t.Practice())
	addClass(a.el.body, "practicing")
	setHidden(pr.el.panel, false)
	pr.el.watch.Call("setAttribute", "aria-pressed", "false")
	pr.el.practise.Call("setAttribute", "aria-pressed", "true")
	a.loaded(t.Practice().Exercise().Text, nil)
	a.renderPractice()
}

// stopPractice goes back to watching: the library's default scenario.
func (a *app) stopPractice() {
	pr := a.pr
	if pr.t == nil {
		return
	}
	pr.t = nil
	removeClass(a.el.body, "practicing")
	setHidden(pr.el.panel, true)
	pr.el.watch.Call("setAttribute", "aria-pressed", "true")
	pr.el.practise.Call("setAttribute", "aria-pressed", "false")
	if a.p.Choose(playground.DefaultScenario) {
		a.loaded(a.p.Session().Text(), nil)
	}
}

// pageAddress is what the address bar says: the practice link while
// practising, else what the page says.
func (a *app) pageAddress() string {
	if a.pr != nil && a.pr.t != nil {
		return a.pr.t.Address()
	}
	return a.p.Address()
}

// answerPractice reads the form as an answer and grades it.
func (a *app) answerPractice() {
	pr := a.pr
	q, ok := pr.t.Practice().Current()
	if !ok {
		return
	}
	if _, ok := pr.t.Answer(pr.readAnswer(q)); !ok {
		return
	}
	js.Global().Get("localStorage").Call("setItem", playground.ProgressKey, pr.t.Stored())
	a.render(true)
	a.renderPractice()
	if pr.t.Practice().Done() {
		pr.el.summary.Call("focus")
	} else {
		pr.el.next.Call("focus")
	}
}

// readAnswer turns the question's inputs into an answer.
func (pr *practice) readAnswer(q playground.Question) playground.Answer {
	var a playground.Answer
	in := pr.el.inputs
	picked := func() string {
		if el := in.Call("querySelector", "input[name=choice]:checked"); el.Truthy() {
			return el.Get("value").String()
		}
		return "\x00" // nothing picked: never right
	}
	switch q.Kind {
	case playground.AskNext:
		a.Task = picked()
	case playground.AskReason, playground.AskTimer:
		a.Choice = picked()
	case playground.AskChanges:
		a.Changes = map[string]core.State{}
		for _, sel := range jsList(in.Call("querySelectorAll", "select[data-task]")) {
			if v := sel.Get("value").String(); v != "" {
				a.Changes[sel.Get("dataset").Get("task").String()] = core.State(v)
			}
		}
	case playground.AskCycle:
		a.Refused = picked() == "refused"
		a.Path = playground.ParsePath(in.Call("querySelector", "input[name=path]").Get("value").String())
	case playground.AskRedrive:
		a.Stay = map[string]string{}
		for _, sel := range jsList(in.Call("querySelectorAll", "select[data-task]")) {
			task, v := sel.Get("dataset").Get("task").String(), sel.Get("value").String()
			if v == "" {
				a.Released = append(a.Released, task)
			} else {
				a.Stay[task] = v
			}
		}
	}
	return a
}

// renderPractice draws the practice panel: the exercise, the status, the
// question with its inputs, the result and the summary.
func (a *app) renderPractice() {
	pr := a.pr
	t := pr.t
	e := &pr.el
	p := t.Practice()
	ex := p.Exercise()
	l := t.Link()
	e.level.Set("value", string(l.Level))
	clear(e.exercise)
	random := create("option", "")
	setAttr(random, "value", "")
	random.Set("disabled", true)
	setText(random, "Random exercise")
	appendTo(e.exercise, random)
	for _, c := range t.ExerciseChoices() {
		opt := create("option", "")
		setAttr(opt, "value", c.Value)
		setText(opt, c.Label)
		appendTo(e.exercise, opt)
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
	clear(e.result)
	setHidden(e.result, !graded)
	setHidden(e.probe, !(asking && p.Interviewer()))
	if asking {
		setText(e.prompt, q.Prompt)
		setText(e.command, q.Command)
		setData(e.form, "kind", q.Kind.String())
		if !graded {
			pr.drawInputs(q)
		}
		toggleClass(e.form, "graded", graded)
		e.check.Set("disabled", graded)
		setHidden(e.check, graded)
		setHidden(e.next, !graded)
		if graded {
			verdict := create("p", "verdict")
			if r.Correct {
				addClass(e.result, "right")
				removeClass(e.result, "wrong")
				setText(verdict, "Right.")
			} else {
				addClass(e.result, "wrong")
				removeClass(e.result, "right")
				setText(verdict, "Not quite. The answer: "+playground.FormatAnswer(q, r.Want)+".")
			}
			appendTo(e.result, verdict)
			why := create("p", "why")
			setText(why, r.Why)
			appendTo(e.result, why)
			if p.Index() == p.Len()-1 {
				setText(e.next, "See the summary ▸")
			} else {
				setText(e.next, "Next question ▸")
			}
		}
		if p.Interviewer() {
			clear(e.probe)
			ans := create("p", "")
			setText(ans, "Answer: "+playground.FormatAnswer(q, q.Want)+".")
			appendTo(e.probe, ans)
			probe := create("p", "")
			setText(probe, "Probe next: "+q.Probe)
			appendTo(e.probe, probe)
		}
		return
	}
	pr.drawSummary(p.Summary())
}

// scoreData is the score as the page's data attribute says it, "right/answered".
func scoreData(p *playground.Practice) string {
	right, answered := p.Score()
	return strconv.Itoa(right) + "/" + strconv.Itoa(answered)
}

// drawInputs draws the inputs a question's kind asks for.
func (pr *practice) drawInputs(q playground.Question) {
	in := pr.el.inputs
	clear(in)
	radio := func(value, label string) {
		l := create("label", "choice")
		r := create("input", "")
		setAttr(r, "type", "radio")
		setAttr(r, "name", "choice")
		setAttr(r, "value", value)
		appendTo(l, r)
		appendTo(l, document.Call("createTextNode", " "+label))
		appendTo(in, l)
	}
	row := func(task, note string, options [][2]string) {
		l := create("label", "task-row")
		name := create("span", "task-name")
		setText(name, task)
		appendTo(l, name)
		if note != "" {
			n := create("span", "muted small")
			setText(n, note)
			appendTo(l, n)
		}
		sel := create("select", "")
		setData(sel, "task", task)
		setAttr(sel, "aria-label", task)
		for _, o := range options {
			opt := create("option", "")
			setAttr(opt, "value", o[0])
			setText(opt, o[1])
			appendTo(sel, opt)
		}
		appendTo(l, sel)
		appendTo(in, l)
	}
	switch q.Kind {
	case playground.AskNext:
		for _, c := range q.Choices {
			radio(c, c)
		}
		radio("", "nothing (no task is READY)")
	case playground.AskReason, playground.AskTimer:
		for _, c := range q.Choices {
			radio(c, c)
		}
	case playground.AskChanges:
		for _, t := range q.Tasks {
			was := q.Was(t)
			note := "now " + string(was)
			if was == "" {
				note = "arriving"
			}
			opts := [][2]string{{"", "no change"}}
			for _, s := range q.States {
				if s != was {
					opts = append(opts, [2]string{string(s), "→ " + string(s)})
				}
			}
			row(t, note, opts)
		}
	case playground.AskCycle:
		radio("accepted", "accepted")
		radio("refused", "refused")
		l := create("label", "path")
		setText(l, "The cycle, if any: ")
		p := create("input", "")
		setAttr(p, "name", "path")
		setAttr(p, "type", "text")
		setAttr(p, "placeholder", "e.g. c → a → b → c")
		setAttr(p, "autocomplete", "off")
		setAttr(p, "spellcheck", "false")
		appendTo(l, p)
		appendTo(in, l)
	case playground.AskRedrive:
		for _, t := range q.Tasks {
			opts := [][2]string{{"", "released"}}
			for _, r := range q.Roots {
				opts = append(opts, [2]string{r, "stays blocked by " + r})
			}
			row(t, "", opts)
		}
	}
}

// drawSummary draws the end of an exercise: the score, the topics missed
// most, and links back to the steps missed.
func (pr *practice) drawSummary(s playground.Summary) {
	el := pr.el.summary
	clear(el)
	h := create("h3", "")
	setText(h, s.Title+": "+strconv.Itoa(s.Right)+" of "+strconv.Itoa(s.Total)+" right ("+strconv.Itoa(s.Percent)+"%)")
	appendTo(el, h)
	msg := create("p", "")
	setText(msg, s.Message)
	appendTo(el, msg)
	if len(s.Topics) > 0 {
		p := create("p", "muted")
		text := "Missed most: "
		for i, tc := range s.Topics {
			if i > 0 {
				text += ", "
			}
			text += tc.Name + " (" + strconv.Itoa(tc.Count) + ")"
		}
		setText(p, text)
		appendTo(el, p)
	}
	if len(s.Missed) > 0 {
		ol := create("ol", "missed")
		for _, m := range s.Missed {
			li := create("li", "")
			a := create("a", "")
			setAttr(a, "href", "./"+m.Link)
			setAttr(a, "target", "_blank")
			setAttr(a, "rel", "noopener")
			setText(a, "step "+strconv.Itoa(m.Step)+": "+m.Command)
			appendTo(li, a)
			why := create("p", "why")
			setText(why, m.Topic.Name()+" — "+m.Why)
			appendTo(li, why)
			appendTo(ol, li)
		}
		appendTo(el, ol)
	}
}

// focusFirst focuses the first input of an element.
func focusFirst(el js.Value) {
	if in := el.Call("querySelector", "input, select"); in.Truthy() {
		in.Call("focus")
	}
}
