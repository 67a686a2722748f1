//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
)

// wire fills the pickers and connects every control of the page.
func (a *app) wire() {
	e := &a.el
	own := create("option", "")
	setAttr(own, "value", "")
	own.Set("disabled", true)
	setText(own, "Your script")
	appendTo(e.picker, own)
	for _, entry := range a.library {
		opt := create("option", "")
		setAttr(opt, "value", entry.Name)
		setText(opt, entry.Title)
		appendTo(e.picker, opt)
	}
	for _, name := range incremental.Names() {
		opt := create("option", "")
		setAttr(opt, "value", name)
		text := name
		if name == incremental.Default {
			text += " (default)"
		}
		setText(opt, text)
		appendTo(e.strategy, opt)
	}

	on(e.picker, "change", func(dom.Event) {
		name := e.picker.Get("value").String()
		entry, ok := a.lookup(name)
		if !ok {
			return
		}
		a.load(entry.Text, name, 0)
		a.setAddress("?scenario=" + name)
	})
	on(e.strategy, "change", func(dom.Event) {
		name := e.strategy.Get("value").String()
		if err := a.s.SetStrategy(name); err != nil {
			a.notify(err.Error(), false)
			return
		}
		a.strategy = name
		a.render(false)
	})

	on(e.about, "click", func(dom.Event) { addClass(e.about, "open") })

	// The timeline.
	on(e.first, "click", func(dom.Event) { a.seek(0) })
	on(e.back, "click", func(dom.Event) { a.step(-1) })
	on(e.forward, "click", func(dom.Event) { a.step(+1) })
	on(e.last, "click", func(dom.Event) { a.seek(scenario.StepEnd) })
	on(e.play, "click", func(dom.Event) { a.play() })
	on(e.pause, "click", func(dom.Event) { a.pause() })
	on(e.slider, "input", func(dom.Event) { a.seek(e.slider.Get("value").Int()) })
	on(e.speed, "change", func(dom.Event) {
		if ms, err := strconv.Atoi(e.speed.Get("value").String()); err == nil {
			a.speed = time.Duration(ms) * time.Millisecond
		}
	})
	on(document.Underlying(), "keydown", a.keydown)

	// The editor.
	on(e.run, "click", func(dom.Event) { a.runEditor() })
	on(e.editor, "keydown", func(ev dom.Event) {
		k := ev.(*dom.KeyboardEvent)
		if k.Key() == "Enter" && (k.CtrlKey() || k.MetaKey()) {
			ev.PreventDefault()
			a.runEditor()
		}
	})
	on(e.editor, "input", func(dom.Event) {
		text := e.editor.Get("value").String()
		a.dirty = text != a.s.Text()
		toggleClass(e.run, "primary", a.dirty)
		if a.dirty {
			setHidden(e.mark, true)
		}
		a.numberLines(text)
	})
	on(e.editor, "scroll", func(dom.Event) { a.placeMark() })
	on(e.scroller, "scroll", func(dom.Event) { a.hidePopover() })

	// Acting.
	on(e.commandForm, "submit", func(ev dom.Event) {
		ev.PreventDefault()
		cmd := strings.TrimSpace(e.command.Get("value").String())
		if cmd == "" {
			return
		}
		if a.act(cmd) {
			e.command.Set("value", "")
		}
	})
	on(e.command, "input", func(dom.Event) { setHidden(e.commandError, true) })
	on(byID("graph"), "click", func(ev dom.Event) {
		if g := ev.Target().Underlying().Call("closest", "g[data-task]"); g.Truthy() {
			ev.StopPropagation()
			a.clickTask(g.Get("dataset").Get("task").String(), g)
		}
	})
	on(e.readyLine, "click", func(ev dom.Event) {
		if li := ev.Target().Underlying().Call("closest", "li[data-task]"); li.Truthy() {
			ev.StopPropagation()
			a.clickTask(li.Get("dataset").Get("task").String(), js.Null())
		}
	})
	on(e.dlq, "click", func(ev dom.Event) {
		if b := ev.Target().Underlying().Call("closest", "button[data-action]"); b.Truthy() {
			a.fromHere("redrive " + b.Get("dataset").Get("task").String())
		}
	})
	on(e.popover, "click", func(ev dom.Event) {
		ev.StopPropagation()
		if b := ev.Target().Underlying().Call("closest", "button[data-action]"); b.Truthy() {
			a.popoverAction(b.Get("dataset").Get("action").String())
		}
	})
	on(e.popover, "keydown", func(ev dom.Event) {
		k := ev.(*dom.KeyboardEvent)
		if k.Key() == "Enter" && ev.Target().Underlying().Get("tagName").String() == "INPUT" {
			ev.PreventDefault()
			a.popoverAction("fail")
		}
	})
	on(document.Underlying(), "click", func(dom.Event) { a.hidePopover() })

	// Sharing.
	on(e.share, "click", func(dom.Event) { a.share() })
	on(e.shareClose, "click", func(dom.Event) { setHidden(e.sharePanel, true) })
	on(e.shareLink, "focus", func(dom.Event) { e.shareLink.Call("select") })
	on(e.embedSnippet, "focus", func(dom.Event) { e.embedSnippet.Call("select") })

	window.AddEventListener("hashchange", false, func(dom.Event) { a.loadURL() })
	window.AddEventListener("resize", false, func(dom.Event) { a.fit() })
}

// keydown: ← and → step, space plays or pauses, Home and End jump, Escape
// closes the popover; keys typed into a field are left alone.
func (a *app) keydown(ev dom.Event) {
	k := ev.(*dom.KeyboardEvent)
	if k.Key() == "Escape" {
		a.hidePopover()
		return
	}
	switch ev.Target().Underlying().Get("tagName").String() {
	case "INPUT", "TEXTAREA", "SELECT":
		return
	}
	if k.CtrlKey() || k.MetaKey() || k.AltKey() {
		return
	}
	switch k.Key() {
	case "ArrowLeft":
		a.step(-1)
	case "ArrowRight":
		a.step(+1)
	case " ", "Spacebar":
		if a.playing {
			a.pause()
		} else {
			a.play()
		}
	case "Home":
		a.seek(0)
	case "End":
		a.seek(scenario.StepEnd)
	default:
		return
	}
	ev.PreventDefault()
}

// step moves one step; forward is animated.
func (a *app) step(d int) {
	a.pause()
	if d > 0 {
		if a.s.Forward() {
			a.render(true)
		}
		return
	}
	if a.s.Back() {
		a.render(false)
	}
}

// seek jumps to step k.
func (a *app) seek(k int) {
	a.pause()
	if a.s.Seek(k) != a.shown {
		a.render(false)
	}
}

// play steps forward at the chosen speed until the end; from the end it
// starts again at step 0.
func (a *app) play() {
	if a.playing {
		return
	}
	if a.s.Cursor() == a.s.Len() {
		a.s.Seek(0)
		a.render(false)
	}
	a.playing = true
	a.playGen++
	a.renderTimeline()
	a.tick(a.playGen)
}

// tick steps forward after a while, unless play was paused since the run
// of play gen began.
func (a *app) tick(gen int) {
	time.AfterFunc(a.speed, func() {
		if !a.playing || gen != a.playGen {
			return
		}
		if !a.s.Forward() {
			a.pause()
			return
		}
		a.render(true)
		if a.s.Cursor() == a.s.Len() {
			a.pause()
			return
		}
		a.tick(gen)
	})
}

func (a *app) pause() {
	if !a.playing {
		return
	}
	a.playing = false
	a.playGen++
	a.renderTimeline()
}

// runEditor runs the editor's script. A syntax error is shown at its line
// and column and changes nothing else.
func (a *app) runEditor() {
	a.pause()
	text := a.el.editor.Get("value").String()
	s, err := scenario.NewSession(text, a.options())
	if err != nil {
		a.showEditorError(err, text)
		return
	}
	a.clearEditorError()
	a.s, a.dirty = s, false
	toggleClass(a.el.run, "primary", false)
	a.scenario = ""
	for _, e := range a.library {
		if e.Text == text {
			a.scenario = e.Name
		}
	}
	a.describe()
	a.numberLines(text)
	s.Seek(scenario.StepEnd)
	a.showStopped()
	a.render(false)
}

// act adds a command at the end of the script and shows what it did. It
// reports whether the command was taken.
func (a *app) act(cmd string) bool {
	a.pause()
	setHidden(a.el.commandError, true)
	if a.dirty {
		a.commandError("The script has edits that have not run: press Run first (acting would drop them).")
		return false
	}
	earlier := a.s.Cursor() != a.s.Len()
	if err := a.s.Append(cmd); err != nil {
		var ee *scenario.ExpectError
		if errors.As(err, &ee) {
			a.commandError("expect " + ee.Task + " " + string(ee.Want) + ": it is " + stateOrNone(ee.Got) + " (not added)")
		} else {
			a.commandError(strings.TrimPrefix(err.Error(), "scenario: "))
		}
		return false
	}
	text := a.s.Text()
	a.setEditor(text)
	ed := a.el.editor
	ed.Set("scrollTop", ed.Get("scrollHeight"))
	switch k := a.s.Len(); {
	case !a.s.Step(k).OK:
		a.notify(a.s.Explain(k), false)
	case earlier:
		a.notify("Added at the end of the script, as step "+strconv.Itoa(k)+".", false)
	}
	a.render(true)
	return true
}

func stateOrNone(s core.State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}

func (a *app) commandError(msg string) {
	setText(a.el.commandError, msg)
	setHidden(a.el.commandError, false)
}

// fromHere acts at the end of the script; shown at an earlier step, the
// page first jumps to the end and asks again, so that nobody acts on a
// state they are not looking at.
func (a *app) fromHere(cmd string) {
	if a.s.Cursor() != a.s.Len() {
		a.seek(scenario.StepEnd)
		a.notify("This is the last step: actions add commands at the end of the script. Click again to act.", false)
		return
	}
	a.act(cmd)
}

// clickTask acts on a task clicked in the drawing or the READY line: the
// front READY task is handed out, a RUNNING one offers complete and fail,
// a DEAD one redrive; the others say why nothing can be done.
func (a *app) clickTask(name string, node js.Value) {
	s := a.s
	if s.Cursor() != s.Len() {
		a.fromHere("")
		return
	}
	switch st := s.State(name); st {
	case core.Ready:
		line := s.Ready()
		if len(line) > 0 && line[0] == name {
			a.act("next")
			return
		}
		pos := 0
		for i, t := range line {
			if t == name {
				pos = i + 1
			}
		}
		a.notify("Only the front of the READY line can be handed out: next gives "+line[0]+" first; "+name+" is number "+strconv.Itoa(pos)+" in line.", false)
	case core.Running, core.Dead:
		a.showPopover(name, st, node)
	case core.Pending:
		var waits []string
		for _, n := range s.Graph() {
			if n.Task == name {
				for _, d := range n.Deps {
					if s.State(d) != core.Succeeded {
						waits = append(waits, d)
					}
				}
			}
		}
		a.notify(name+" is PENDING: it waits on "+listNames(waits)+".", false)
	case core.Blocked:
		root := ""
		for _, d := range s.DLQ() {
			if d.Task == name {
				root = d.Root
			}
		}
		a.notify(name+" is BLOCKED by "+root+", which is DEAD: redrive "+root+" to release it.", false)
	case core.Succeeded:
		a.notify(name+" has SUCCEEDED: nothing is left to do with it.", false)
	default:
		a.notify(name+" has not been submitted: type submit "+name+" … in the command box.", false)
	}
}

// showPopover offers what can be done to a RUNNING task (complete, or fail
// with an error text) or a DEAD one (redrive), beside it.
func (a *app) showPopover(name string, st core.State, node js.Value) {
	p := a.el.popover
	clear(p)
	setData(p, "task", name)
	title := create("p", "pop-title")
	setText(title, name+" is "+string(st))
	appendTo(p, title)
	button := func(action, label, class string) js.Value {
		b := create("button", class)
		setAttr(b, "type", "button")
		setData(b, "action", action)
		setText(b, label)
		return b
	}
	switch st {
	case core.Running:
		row := create("div", "pop-row")
		appendTo(row, button("complete", "✓ Complete", "primary"))
		appendTo(p, row)
		row = create("div", "pop-row")
		in := create("input", "")
		setAttr(in, "type", "text")
		setAttr(in, "id", "pop-error")
		setAttr(in, "placeholder", "error, e.g. timeout")
		setAttr(in, "aria-label", "Error text of the failure")
		appendTo(row, in)
		appendTo(row, button("fail", "✗ Fail", "danger"))
		appendTo(p, row)
	case core.Dead:
		for _, d := range a.s.DLQ() {
			if d.Task == name {
				r := create("p", "pop-note")
				setText(r, d.Reason+"; blocks "+plural(d.Blocks, "task")+".")
				appendTo(p, r)
			}
		}
		appendTo(p, button("redrive", "↻ Redrive", "primary"))
	}
	if !node.Truthy() {
		node = a.el.stage.Call("querySelector", `g[data-task="`+cssEscape(name)+`"]`)
	}
	stage := a.el.stage.Call("getBoundingClientRect")
	x, y := -stage.Get("left").Float(), -stage.Get("top").Float()
	if node.Truthy() {
		r := node.Call("getBoundingClientRect")
		x += r.Get("left").Float() + r.Get("width").Float()/2
		y += r.Get("bottom").Float() + 6
	} else {
		x += stage.Get("width").Float() / 2
		y += 40
	}
	style := p.Get("style")
	style.Set("left", px(x))
	style.Set("top", px(y))
	setHidden(p, false)
	p.Call("querySelector", "button").Call("focus", map[string]any{"preventScroll": true})
}

func cssEscape(s string) string {
	return js.Global().Get("CSS").Call("escape", s).String()
}

func (a *app) hidePopover() {
	if !a.el.popover.Get("hidden").Bool() {
		setHidden(a.el.popover, true)
	}
}

// popoverAction does what a popover button says.
func (a *app) popoverAction(action string) {
	task := a.el.popover.Get("dataset").Get("task").String()
	cmd := action + " " + task
	if action == "fail" {
		msg := ""
		if in := a.el.popover.Call("querySelector", "input"); in.Truthy() {
			msg = in.Get("value").String()
		}
		// A # would start a comment: the error text ends before it.
		msg, _, _ = strings.Cut(msg, "#")
		if msg = strings.Join(strings.Fields(msg), " "); msg != "" {
			cmd += " " + msg
		}
	}
	a.hidePopover()
	a.act(cmd)
}

// share fills the link to this step and the embed snippet, and copies the
// link.
func (a *app) share() {
	loc := js.Global().Get("location")
	base := loc.Get("origin").String() + loc.Get("pathname").String()
	l := scenario.Link{Script: a.s.Text(), HasScript: true, Step: a.s.Cursor(), HasStep: true, Strategy: a.strategy}
	link := base + l.Fragment()
	l.Embed = true
	embed := base + l.Fragment()
	a.el.shareLink.Set("value", link)
	a.el.embedSnippet.Set("value", `<iframe src="`+htmlAttr(embed)+`" title="dagq scenario" width="760" height="520" style="border:0" loading="lazy"></iframe>`)
	setHidden(a.el.sharePanel, false)
	status := a.el.shareStatus
	setText(status, "Anyone opening the link sees this script at step "+strconv.Itoa(a.s.Cursor())+".")
	clip := js.Global().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		setText(status, "Link copied. Anyone opening it sees this script at step "+strconv.Itoa(a.s.Cursor())+".")
		release()
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		release()
		return nil
	})
	clip.Call("writeText", link).Call("then", ok, fail)
}

// htmlAttr escapes a value for an HTML attribute in double quotes.
func htmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// setAddress changes the address bar without loading.
func (a *app) setAddress(url string) {
	js.Global().Get("history").Call("replaceState", nil, "", url)
	a.el.openFull.Set("href", url)
}
