//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"time"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/internal/playground"
)

// wire fills the pickers and connects every control of the page. Every
// handler only reads the event, asks the playground.Page what to do, and
// draws the answer.
func (a *app) wire() {
	e := &a.el
	a.wireClock()
	a.wireConsole()
	addOption(e.picker, "", "Your script").Set("disabled", true)
	for _, entry := range scenario.Library() {
		addOption(e.picker, entry.Name, entry.Title)
	}
	for _, name := range incremental.Names() {
		text := name
		if name == incremental.Default {
			text += " (default)"
		}
		addOption(e.strategy, name, text)
	}

	on(e.picker, "change", func(js.Value) {
		a.pause()
		a.unnotify()
		if a.p.Choose(e.picker.Get("value").String()) {
			a.loaded(a.p.Session().Text(), nil)
		}
	})
	on(e.strategy, "change", func(js.Value) {
		a.unnotify()
		if err := a.p.SetStrategy(e.strategy.Get("value").String()); err != nil {
			a.notify(err.Error(), false)
			return
		}
		a.render(false)
	})

	on(e.about, "click", func(js.Value) { addClass(e.about, "open") })

	// The timeline.
	on(e.first, "click", func(js.Value) { a.seek(0) })
	on(e.back, "click", func(js.Value) { a.step(-1) })
	on(e.forward, "click", func(js.Value) { a.step(+1) })
	on(e.last, "click", func(js.Value) { a.seek(scenario.StepEnd) })
	on(e.play, "click", func(js.Value) { a.play() })
	on(e.pause, "click", func(js.Value) { a.pause() })
	on(e.undo, "click", func(js.Value) { a.undo() })
	on(e.slider, "input", func(js.Value) {
		// A range input's value is a string, "0" to max.
		a.pause()
		a.unnotify()
		if a.p.SeekTo(e.slider.Get("value").String()) {
			a.render(false)
		}
	})
	on(e.speed, "change", func(js.Value) {
		if ms, err := strconv.Atoi(e.speed.Get("value").String()); err == nil {
			a.speed = time.Duration(ms) * time.Millisecond
			if a.playing {
				// Play on at the new pace, from the step shown.
				a.playGen++
				a.tick(a.playGen)
			}
		}
	})
	on(e.follow, "change", func(js.Value) { a.follow = e.follow.Get("checked").Bool() })
	on(document, "keydown", a.keydown)

	// The editor.
	on(e.run, "click", func(js.Value) { a.runEditor() })
	on(e.editor, "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Enter" && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) {
			ev.Call("preventDefault")
			a.runEditor()
		}
	})
	on(e.editor, "input", func(js.Value) {
		text := e.editor.Get("value").String()
		a.dirty = a.p.Dirty(text)
		toggleClass(e.run, "primary", a.dirty)
		if a.dirty {
			setHidden(e.mark, true)
		}
		a.numberLines(text)
	})
	on(e.editor, "scroll", func(js.Value) { a.placeMark() })
	// The view of a long script scrolls as the editor does, and becomes
	// the editor when clicked (the caret on the line clicked) or focused.
	on(e.view, "scroll", func(js.Value) { a.placeMark() })
	on(e.view, "mousedown", func(ev js.Value) {
		ev.Call("preventDefault")
		r := e.view.Call("getBoundingClientRect")
		y := ev.Get("clientY").Float() - r.Get("top").Float() + e.view.Get("scrollTop").Float() - editorPad
		a.edit(int(y/editorLine) + 1)
	})
	on(e.view, "focus", func(js.Value) {
		a.edit(int(max(0, e.view.Get("scrollTop").Float()-editorPad)/editorLine) + 1)
	})
	on(e.scroller, "scroll", func(js.Value) { a.hidePopover() })

	// Acting.
	on(e.commandForm, "submit", func(ev js.Value) {
		ev.Call("preventDefault")
		if a.act(e.command.Get("value").String()) {
			e.command.Set("value", "")
		}
	})
	on(e.command, "input", func(js.Value) { setHidden(e.commandError, true) })
	on(byID("graph"), "click", func(ev js.Value) {
		if g := ev.Get("target").Call("closest", "g[data-task]"); g.Truthy() {
			ev.Call("stopPropagation")
			a.clickTask(g.Get("dataset").Get("task").String(), g)
		}
	})
	on(e.readyLine, "click", func(ev js.Value) {
		if li := ev.Get("target").Call("closest", "li[data-task]"); li.Truthy() {
			ev.Call("stopPropagation")
			a.clickTask(li.Get("dataset").Get("task").String(), js.Null())
		}
	})
	on(e.dlq, "click", func(ev js.Value) {
		if b := ev.Get("target").Call("closest", "button[data-action]"); b.Truthy() {
			ds := b.Get("dataset")
			a.act(playground.PopoverCommand(ds.Get("action").String(), ds.Get("task").String(), ""))
		}
	})
	on(e.log, "click", func(ev js.Value) {
		if li := ev.Get("target").Call("closest", "li[data-step]"); li.Truthy() {
			a.pause()
			a.unnotify()
			if a.p.SeekTo(li.Get("dataset").Get("step").String()) {
				a.render(false)
			}
		}
	})
	on(e.log, "keydown", func(ev js.Value) {
		k := playground.LogKeyFor(ev.Get("key").String())
		if k == playground.LogNone {
			return
		}
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
		li := ev.Get("target").Call("closest", "li[data-step]")
		switch {
		case k == playground.LogShow && li.Truthy():
			step := li.Get("dataset").Get("step").String()
			a.pause()
			a.unnotify()
			if a.p.SeekTo(step) {
				a.render(false)
			}
			// The log is listed afresh: the focus goes to the line of
			// the step shown, not to the page's body.
			if again := e.log.Call("querySelector", `li[data-step="`+step+`"]`); again.Truthy() {
				again.Call("focus")
			}
		case k == playground.LogUp && li.Truthy() && li.Get("previousElementSibling").Truthy():
			li.Get("previousElementSibling").Call("focus")
		case k == playground.LogDown && li.Truthy() && li.Get("nextElementSibling").Truthy():
			li.Get("nextElementSibling").Call("focus")
		case !li.Truthy():
			// From the log itself, to the line of the step shown.
			if cur := e.log.Call("querySelector", "li.current"); cur.Truthy() {
				cur.Call("focus")
			} else if last := e.log.Get("lastElementChild"); last.Truthy() {
				last.Call("focus")
			}
		}
	})
	on(e.popover, "click", func(ev js.Value) {
		ev.Call("stopPropagation")
		if b := ev.Get("target").Call("closest", "button[data-action]"); b.Truthy() {
			a.popoverAction(b.Get("dataset").Get("action").String())
		}
	})
	on(e.popover, "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Enter" && ev.Get("target").Get("tagName").String() == "INPUT" {
			ev.Call("preventDefault")
			a.popoverAction("fail")
		}
	})
	on(document, "click", func(js.Value) { a.hidePopover() })
	on(e.noticeClose, "click", func(js.Value) { a.noticeGen++; setHidden(e.notice, true) })
	on(e.crashClose, "click", func(js.Value) { setHidden(e.crash, true) })

	// Sharing.
	on(e.share, "click", func(js.Value) { a.share() })
	on(e.shareClose, "click", func(js.Value) { setHidden(e.sharePanel, true) })
	on(e.shareLink, "focus", func(js.Value) { e.shareLink.Call("select") })
	for _, id := range []string{"share-image", "share-animation"} {
		field := byID(id)
		on(field, "focus", func(js.Value) { field.Call("select") })
	}
	on(e.embedSnippet, "focus", func(js.Value) { e.embedSnippet.Call("select") })

	on(js.Global(), "hashchange", func(js.Value) { a.loadURL() })
	on(js.Global(), "resize", func(js.Value) { a.fitFor = [3]float64{}; a.fit() })

	// Tests (and only tests, which define dagqTestHooks before the page
	// loads) can make a handler panic, to see that the page survives it.
	if js.Global().Get("dagqTestHooks").Truthy() {
		on(document, "dagq-test-panic", func(js.Value) { panic("a panic on purpose, from a test") })
	}
}

// target says where a key was pressed, for playground.KeyFor.
func target(el js.Value) playground.Target {
	if !el.Truthy() || el.Get("tagName").IsUndefined() {
		return playground.OnPage
	}
	switch el.Get("tagName").String() {
	case "TEXTAREA":
		return playground.OnText
	case "INPUT":
		switch el.Get("type").String() {
		case "range", "checkbox":
			return playground.OnControl
		}
		return playground.OnText
	case "SELECT":
		return playground.OnControl
	case "BUTTON", "A", "SUMMARY":
		return playground.OnButton
	}
	if el.Call("closest", taskSelector).Truthy() {
		return playground.OnTask
	}
	return playground.OnPage
}

// taskSelector finds the tasks a key can act on: in the drawing and the
// READY line.
const taskSelector = "#graph g[data-task], #ready-line li[data-task]"

// keydown does what playground.KeyFor says a key does.
func (a *app) keydown(ev js.Value) {
	k := ev
	el := ev.Get("target")
	key := playground.KeyFor(k.Get("key").String(), k.Get("ctrlKey").Bool() || k.Get("metaKey").Bool(), k.Get("altKey").Bool(), target(el))
	if a.pr != nil && a.pr.t != nil {
		key = playground.PracticeKey(key, a.pr.t.Practice())
	}
	switch key {
	case playground.KeyNextQuestion:
		a.nextQuestion()
	case playground.KeyClose:
		inPopover := a.el.popover.Call("contains", document.Get("activeElement")).Bool()
		task := a.el.popover.Get("dataset").Get("task")
		a.hidePopover()
		if inPopover && task.Truthy() {
			a.focusTask(task.String())
		}
		setHidden(a.el.sharePanel, true)
		return
	case playground.KeyBack:
		a.step(-1)
	case playground.KeyForward:
		a.step(+1)
	case playground.KeyFirst:
		a.seek(0)
	case playground.KeyLast:
		a.seek(scenario.StepEnd)
	case playground.KeyPlayPause:
		if a.playing {
			a.pause()
		} else {
			a.play()
		}
	case playground.KeyActTask:
		ev.Call("stopPropagation")
		node := el.Call("closest", taskSelector)
		if el.Call("closest", "#graph").Truthy() {
			a.clickTask(node.Get("dataset").Get("task").String(), node)
		} else {
			a.clickTask(node.Get("dataset").Get("task").String(), js.Null())
		}
	case playground.KeyUndo:
		a.undo()
	case playground.KeyZoomIn:
		a.zoomTo(a.g.scale*playground.ZoomFactor, -1, -1)
	case playground.KeyZoomOut:
		a.zoomTo(a.g.scale/playground.ZoomFactor, -1, -1)
	case playground.KeyZoomFit:
		a.zoomFit()
	case playground.KeyZoomActual:
		a.zoomTo(1, -1, -1)
	default:
		return
	}
	ev.Call("preventDefault")
}

// step moves one step; forward is animated.
func (a *app) step(d int) {
	a.pause()
	a.unnotify()
	s := a.p.Session()
	if d > 0 {
		if s.Forward() {
			a.render(true)
		}
		return
	}
	if s.Back() {
		a.render(false)
	}
}

// seek jumps to step k.
func (a *app) seek(k int) {
	a.pause()
	a.unnotify()
	if a.p.Seek(k) != a.shown {
		a.render(false)
	}
}

// play steps forward at the chosen speed until the end; from the end it
// starts again at step 0.
func (a *app) play() {
	if a.playing {
		return
	}
	a.unnotify()
	if a.p.StartPlay() {
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
	s := a.p.Session()
	pace := playground.Pace{Start: clock(), From: s.Cursor(), Interval: a.speed}
	var frame func()
	frame = func() {
		if !a.playing || gen != a.playGen {
			return
		}
		// One drawing a frame, of the step due now: a slow frame skips
		// steps rather than slowing play down.
		k := pace.Due(clock(), s.Len())
		if k != s.Cursor() {
			animate := pace.Animated() && k == s.Cursor()+1
			a.p.Seek(k)
			a.render(animate)
		}
		if k == s.Len() {
			a.pause()
			return
		}
		afterFrames(1, frame)
	}
	afterFrames(1, frame)
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
	a.unnotify()
	text := a.editorText()
	if err := a.p.Run(text); err != nil {
		a.showEditorError(err, text)
		return
	}
	a.loaded(text, nil)
}

// undo takes back the last change of the script.
func (a *app) undo() {
	a.pause()
	a.unnotify()
	if a.dirty {
		a.commandError("The script has edits that have not run: press Run first (undoing would drop them).")
		return
	}
	if a.p.Undo() {
		a.loaded(a.p.Session().Text(), nil)
	}
}

// act runs a command at the step shown (branching there if it is an
// earlier one) and shows what it did. It reports whether the command was
// taken.
func (a *app) act(cmd string) bool {
	a.pause()
	a.unnotify()
	setHidden(a.el.commandError, true)
	if a.dirty {
		a.commandError("The script has edits that have not run: press Run first (acting would drop them).")
		return false
	}
	out, err := a.p.Act(cmd)
	if err != nil {
		a.commandError(err.Error())
		return false
	}
	text := a.p.Session().Text()
	a.setEditor(text)
	a.describe()
	ed := a.textBox()
	ed.Set("scrollTop", ed.Get("scrollHeight"))
	if out.Notice != "" {
		a.notify(out.Notice, false)
	}
	a.render(true)
	return true
}

func (a *app) commandError(msg string) {
	setText(a.el.commandError, msg)
	setHidden(a.el.commandError, false)
}

// clickTask does what the page says a click on a task does.
func (a *app) clickTask(name string, node js.Value) {
	a.unnotify()
	act := a.p.ClickTask(name)
	switch act.Do {
	case playground.DoCommand:
		a.act(act.Command)
	case playground.DoPopover:
		a.showPopover(act.Popover, node)
	case playground.DoNotice:
		a.notify(act.Notice, false)
	}
}

// showPopover shows a popover's buttons beside its task.
func (a *app) showPopover(pop playground.Popover, node js.Value) {
	p := a.el.popover
	clear(p)
	setData(p, "task", pop.Task)
	title := create("p", "pop-title")
	setText(title, pop.Title)
	appendTo(p, title)
	if pop.Note != "" {
		r := create("p", "pop-note")
		setText(r, pop.Note)
		appendTo(p, r)
	}
	for _, b := range pop.Buttons {
		row := create("div", "pop-row")
		if b.Action == "fail" && pop.ErrorText {
			in := create("input", "")
			setAttr(in, "type", "text")
			setAttr(in, "id", "pop-error")
			setAttr(in, "placeholder", "error, e.g. timeout")
			setAttr(in, "aria-label", "Error text of the failure")
			appendTo(row, in)
		}
		btn := create("button", b.Class)
		setAttr(btn, "type", "button")
		setData(btn, "action", b.Action)
		setText(btn, b.Label)
		appendTo(row, btn)
		appendTo(p, row)
	}
	if !node.Truthy() {
		node = a.el.stage.Call("querySelector", `g[data-task="`+cssEscape(pop.Task)+`"]`)
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
	// Keep it inside the stage on narrow screens.
	half := 125.0
	x = max(half, min(x, stage.Get("width").Float()-half))
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
	msg := ""
	if in := a.el.popover.Call("querySelector", "input"); in.Truthy() {
		msg = in.Get("value").String()
	}
	a.hidePopover()
	a.act(playground.PopoverCommand(action, task, msg))
	// The popover's button had the focus: it goes back to the task, not
	// to the page's body.
	a.focusTask(task)
}

// focusTask gives the focus to a task of the drawing, if it is drawn.
func (a *app) focusTask(task string) {
	if nd := a.g.nodes[task]; nd != nil && nd.drawn {
		nd.g.Call("focus", map[string]any{"preventScroll": true})
	}
}

// share fills the link to this step and the embed snippet, and copies the
// link.
func (a *app) share() {
	loc := js.Global().Get("location")
	sh := a.p.Share(loc.Get("origin").String() + loc.Get("pathname").String())
	a.el.shareLink.Set("value", sh.Link)
	a.el.embedSnippet.Set("value", sh.Embed)
	byID("share-image").Set("value", sh.ImageMarkdown)
	byID("share-animation").Set("value", sh.AnimationMarkdown)
	setAttr(byID("share-image-open"), "href", sh.Image)
	setAttr(byID("share-animation-open"), "href", sh.Animation)
	setHidden(a.el.sharePanel, false)
	status := a.el.shareStatus
	setText(status, sh.Status)
	clip := js.Global().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		guard("clipboard", func() { setText(status, "Link copied. "+sh.Status) })
		release()
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		release()
		return nil
	})
	clip.Call("writeText", sh.Link).Call("then", ok, fail)
}
