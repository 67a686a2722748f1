//go:build js && wasm

package main

import (
	"errors"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
)

// defaultScenario is shown when the address names none.
const defaultScenario = "diamond-redrive"

// Limits of what the side panels list, so that a thousand-task scenario
// stays quick to step through.
const (
	readyShown = 60  // chips of the READY line
	logShown   = 250 // lines of the event log
)

// stagger is the time between the state changes of one step, nearest
// first; a step with many changes is squeezed into waveMax.
const (
	stagger = 80 * time.Millisecond
	waveMax = 1500 * time.Millisecond
	flashes = 2600 * time.Millisecond // how long a cycle or a wave is named
)

// app is the playground: a scenario.Session and the page that shows it.
// Everything is decided by the session (package scenario); the app only
// draws the cursor's step and turns clicks and keys into session calls.
type app struct {
	s        *scenario.Session
	scenario string // the library scenario shown; "" for a script of one's own
	strategy string // strategy chosen in the page or the link; "" for the script's own
	dirty    bool   // the editor holds text that has not run

	g       *graph
	gen     int    // drawing generation; see later
	shown   int    // the step drawn last; -1 before the first drawing
	pending func() // the end of the last step's animation, if still to come
	drawn   bool   // the first drawing is done

	playing bool
	playGen int // counts runs of play; a pause ends the current one
	speed   time.Duration

	library []scenario.Entry

	bannerGen int
	noticeGen int

	el struct {
		body, editor, gutter, mark, editorError, run                js.Value
		picker, strategy, speed, slider, stepLabel, play, pause     js.Value
		first, back, forward, last                                  js.Value
		readyLine, readyMore, dlq, log, logMore, visits, visitsNote js.Value
		caption, command, commandError, notice, banner, popover     js.Value
		stage, boot, title, about, openFull, legend                 js.Value
		share, sharePanel, shareLink, embedSnippet, shareStatus     js.Value
		shareClose, commandForm, scroller                           js.Value
	}
}

func newApp() *app {
	a := &app{shown: -1, speed: 800 * time.Millisecond}
	e := &a.el
	e.body = document.Underlying().Get("body")
	for _, p := range []struct {
		v  *js.Value
		id string
	}{
		{&e.editor, "editor"}, {&e.gutter, "gutter"}, {&e.mark, "editor-mark"}, {&e.editorError, "editor-error"},
		{&e.run, "run"}, {&e.picker, "scenario-picker"}, {&e.strategy, "strategy"}, {&e.speed, "speed"},
		{&e.slider, "step-slider"}, {&e.stepLabel, "step-label"}, {&e.play, "play"}, {&e.pause, "pause"},
		{&e.first, "step-first"}, {&e.back, "step-back"}, {&e.forward, "step-forward"}, {&e.last, "step-last"},
		{&e.readyLine, "ready-line"}, {&e.readyMore, "ready-more"}, {&e.dlq, "dlq"}, {&e.log, "event-log"},
		{&e.logMore, "log-more"}, {&e.visits, "visits"}, {&e.visitsNote, "visits-note"}, {&e.caption, "caption"},
		{&e.command, "command"}, {&e.commandError, "command-error"}, {&e.notice, "notice"}, {&e.banner, "banner"},
		{&e.popover, "popover"}, {&e.stage, "stage"}, {&e.boot, "boot"}, {&e.title, "scenario-title"},
		{&e.about, "scenario-about"}, {&e.openFull, "open-full"}, {&e.legend, "legend"}, {&e.share, "share"},
		{&e.sharePanel, "share-panel"}, {&e.shareLink, "share-link"}, {&e.embedSnippet, "embed-snippet"},
		{&e.shareStatus, "share-status"}, {&e.shareClose, "share-close"}, {&e.commandForm, "command-form"},
		{&e.scroller, "scroller"},
	} {
		*p.v = byID(p.id)
	}
	a.g = newGraph(byID("graph"))
	a.library = scenario.Library()
	return a
}

// lookup returns a library scenario by name.
func (a *app) lookup(name string) (scenario.Entry, bool) {
	for _, e := range a.library {
		if e.Name == name {
			return e, true
		}
	}
	return scenario.Entry{}, false
}

// stateStyles writes the colours of the states, from render.StyleOf, as
// CSS: the drawing, the badges and the legend use the same palette as the
// render package's SVG.
func (a *app) stateStyles() {
	var b strings.Builder
	for _, st := range core.States() {
		s := render.StyleOf(st)
		q := `[data-state="` + string(st) + `"]`
		b.WriteString("#graph g.task" + q + " > rect{fill:" + s.Fill + ";stroke:" + s.Stroke + "}")
		b.WriteString("#graph g.task" + q + " > text{fill:" + s.Text + "}")
		b.WriteString(".badge" + q + ",.chip" + q + "{background:" + s.Fill + ";border-color:" + s.Stroke + ";color:" + s.Text + "}")
	}
	style := create("style", "")
	setText(style, b.String())
	appendTo(document.Underlying().Get("head"), style)

	clear(a.el.legend)
	for _, st := range core.States() {
		s := render.StyleOf(st)
		li := create("li", "badge")
		setData(li, "state", string(st))
		setText(li, s.Icon+" "+s.Label)
		appendTo(a.el.legend, li)
	}
	li := create("li", "badge ghost-badge")
	setText(li, ghostLabel)
	appendTo(a.el.legend, li)
}

// options returns how the session runs.
func (a *app) options() scenario.Options { return scenario.Options{Strategy: a.strategy} }

// loadURL shows what the page's address asks for: a library scenario or a
// shared script, at a step, embedded or not, with a strategy.
func (a *app) loadURL() {
	loc := js.Global().Get("location")
	l, err := scenario.ParseLink(loc.Get("search").String(), loc.Get("hash").String())
	if err != nil {
		a.notify("This link could not be read ("+strings.TrimPrefix(err.Error(), "scenario: link: ")+"), so the "+defaultScenario+" scenario is shown.", true)
		l = scenario.Link{}
	}
	toggleClass(a.el.body, "embed", l.Embed)
	full := l
	full.Embed = false
	a.el.openFull.Set("href", loc.Get("origin").String()+loc.Get("pathname").String()+full.Fragment())
	a.strategy = l.Strategy
	step := 0
	if l.HasStep {
		step = l.Step
	}
	if l.HasScript {
		a.load(l.Script, "", step)
		return
	}
	name := l.Scenario
	if name == "" {
		name = defaultScenario
	}
	e, _ := a.lookup(name)
	a.load(e.Text, name, step)
}

// load makes a session of text and shows it at step. A text that does not
// run (a shared script with a syntax error) is shown in the editor with its
// error, beside an empty drawing.
func (a *app) load(text, name string, step int) {
	a.pause()
	s, err := scenario.NewSession(text, a.options())
	a.setEditor(text)
	if err != nil {
		s, _ = scenario.NewSession("", a.options())
		a.showEditorError(err, text)
		a.dirty = true
	} else {
		a.clearEditorError()
		a.dirty = false
	}
	toggleClass(a.el.run, "primary", a.dirty)
	a.s, a.scenario = s, name
	a.describe()
	s.Seek(step)
	a.showStopped()
	a.render(false)
}

// describe fills the title, the description and the pickers.
func (a *app) describe() {
	removeClass(a.el.about, "open")
	if e, ok := a.lookup(a.scenario); ok {
		setText(a.el.title, e.Title)
		setText(a.el.about, scenario.About(e.Text))
		a.el.picker.Set("value", e.Name)
	} else {
		setText(a.el.title, "Your script")
		setText(a.el.about, "A script of your own: step through it, or act on its tasks to extend it.")
		a.el.picker.Set("value", "")
	}
	a.el.strategy.Set("value", a.s.Strategy())
}

// render draws the session at its cursor. animate, for a single step
// forward, plays the step's changes one after another, nearest first;
// otherwise the page is set at once (colours still fade).
func (a *app) render(animate bool) {
	if a.pending != nil {
		a.pending()
		a.pending = nil
	}
	a.gen++
	s := a.s
	k := s.Cursor()
	animate = animate && k > 0 && a.shown == k-1
	a.hidePopover()

	a.g.setGraph(s.GraphAt(scenario.StepEnd))
	a.fit()
	states := s.States()
	dlq := s.DLQ()
	reasons := make(map[string]string, len(dlq))
	for _, d := range dlq {
		reasons[d.Task] = d.Reason
	}
	var events []core.Event
	if k > 0 {
		events = s.Step(k).Events
	}

	if animate && len(events) > 0 {
		a.animate(events, states, reasons)
	} else {
		a.g.sync(states, reasons)
	}
	if cycle := s.Cycle(k); cycle != nil && (animate || k != a.shown) {
		a.flashCycle(cycle)
	} else if animate {
		a.nameWave(events)
	}
	a.g.markVisited(visitedTasks(s, k))

	a.renderReady(animate, events)
	a.renderDLQ(dlq)
	a.renderLog()
	a.renderVisits()
	a.renderTimeline()
	a.markLine()
	setText(a.el.caption, "")
	if k > 0 {
		where := create("span", "where")
		setText(where, "step "+strconv.Itoa(k)+" · line "+strconv.Itoa(s.Step(k).Command.Line))
		appendTo(a.el.caption, where)
	}
	appendTo(a.el.caption, document.Underlying().Call("createTextNode", s.Explain(k)))
	toggleClass(a.el.caption, "refused", k > 0 && !s.Step(k).OK)

	a.shown = k
	setData(a.el.body, "step", strconv.Itoa(k))
	if !a.drawn {
		a.drawn = true
		setHidden(a.el.boot, true)
		setData(a.el.body, "firstDrawMs", strconv.Itoa(int(now())))
		setData(a.el.body, "ready", "1")
	}
}

// fit sizes the drawing to the stage.
func (a *app) fit() {
	sc := a.el.scroller
	a.g.fit(sc.Get("clientWidth").Float()-16, sc.Get("clientHeight").Float()-50)
}

// animate changes the tasks of one step in event order, about 80 ms apart,
// so that a wave of blocking or unblocking runs down the graph nearest
// first. The tasks the step does not touch are drawn at once.
func (a *app) animate(events []core.Event, states map[string]core.State, reasons map[string]string) {
	touched := make(map[string]bool, len(events))
	for _, e := range events {
		if e.Kind != core.EventRejected {
			touched[e.Task] = true
		}
	}
	for name := range a.g.nodes {
		if !touched[name] {
			a.g.show(name, states[name], reasons[name], false)
		}
	}
	gap := stagger
	if n := time.Duration(len(events)); n*gap > waveMax {
		gap = waveMax / n
	}
	final := func() { a.g.sync(states, reasons) }
	a.pending = final
	// Events due within one frame of each other are drawn together.
	const frame = 16 * time.Millisecond
	var batch []core.Event
	var due time.Duration
	flush := func() {
		if len(batch) == 0 {
			return
		}
		evs := batch
		batch = nil
		a.later(due, func() {
			for _, e := range evs {
				a.applyEvent(e)
			}
		})
	}
	for i, e := range events {
		if e.Kind == core.EventRejected {
			continue
		}
		at := time.Duration(i) * gap
		if at-due >= frame {
			flush()
			due = at
		}
		batch = append(batch, e)
	}
	flush()
	a.later(time.Duration(len(events))*gap+frame, func() {
		final()
		a.pending = nil
	})
}

// applyEvent draws one event: the task's new state, with a pulse that says
// what kind of change it was.
func (a *app) applyEvent(e core.Event) {
	reason := ""
	if e.To == core.Dead || e.To == core.Blocked {
		reason = e.Reason
	}
	a.g.show(e.Task, e.To, reason, true)
	switch e.Kind {
	case core.EventDead:
		a.g.pulse(e.Task, "die")
	case core.EventBlocked, core.EventRerooted:
		a.g.pulse(e.Task, "wave")
	case core.EventUnblocked, core.EventRedriven:
		a.g.pulse(e.Task, "release")
	case core.EventRetried:
		a.g.pulse(e.Task, "retry")
	case core.EventSubmitted:
	default:
		a.g.pulse(e.Task, "pulse")
	}
}

// flashCycle shows a refused cycle: its tasks and edges highlighted and the
// path named, fading after a moment.
func (a *app) flashCycle(path []string) {
	undo := a.g.flashCycle(path)
	a.showBanner("cycle", "cycle: "+strings.Join(path, " -> ")+" — refused, nothing changed")
	afterAll(flashes, undo)
}

// nameWave names the root of a blocking or releasing wave in a banner.
func (a *app) nameWave(events []core.Event) {
	var root string
	var wave []string
	kind := ""
	for _, e := range events {
		switch e.Kind {
		case core.EventDead:
			root, kind = e.Task, "dead"
		case core.EventRedriven:
			root, kind = e.Task, "release"
		case core.EventBlocked:
			if kind == "" {
				root, kind = e.Root, "dead"
			}
			wave = append(wave, e.Task)
		case core.EventUnblocked:
			wave = append(wave, e.Task)
		}
	}
	switch {
	case kind == "dead" && len(wave) > 0:
		a.showBanner("dead", "blocked by "+root+": "+listNames(wave)+" — nearest first")
	case kind == "dead":
		a.showBanner("dead", root+" is DEAD")
	case kind == "release" && len(wave) > 0:
		a.showBanner("release", "redrive "+root+": "+listNames(wave)+" released")
	}
}

// listNames joins a few names, saying how many more there are.
func listNames(names []string) string {
	if len(names) <= 6 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:6], ", ") + " and " + strconv.Itoa(len(names)-6) + " more"
}

// showBanner names what a step did over the drawing, for a moment.
func (a *app) showBanner(kind, text string) {
	a.bannerGen++
	gen := a.bannerGen
	b := a.el.banner
	setText(b, text)
	b.Set("className", "banner "+kind)
	setHidden(b, false)
	afterAll(flashes, func() {
		if a.bannerGen == gen {
			setHidden(b, true)
		}
	})
}

// visitedTasks returns the tasks the cycle check of step k reached, to be
// highlighted beside the visit count, so that strategies can be compared
// on the same scenario.
func visitedTasks(s *scenario.Session, k int) map[string]bool {
	visited := s.Visited(k)
	if len(visited) == 0 {
		return nil
	}
	m := make(map[string]bool, len(visited))
	for _, t := range visited {
		m[t] = true
	}
	return m
}

// renderReady lists the READY line, front first. Stepping forward, the
// chips glide to their new places, and a retried task slides from the
// front, where it was handed out, to the back of the line.
func (a *app) renderReady(animate bool, events []core.Event) {
	list := a.el.readyLine
	type pos struct{ x, y float64 }
	var old map[string]pos
	var front pos
	if animate {
		old = map[string]pos{}
		kids := list.Get("children")
		for i := 0; i < kids.Length(); i++ {
			li := kids.Index(i)
			r := li.Call("getBoundingClientRect")
			p := pos{r.Get("left").Float(), r.Get("top").Float()}
			if i == 0 {
				front = p
			}
			old[li.Get("dataset").Get("task").String()] = p
		}
	}
	retried := map[string]bool{}
	for _, e := range events {
		if e.Kind == core.EventRetried {
			retried[e.Task] = true
		}
	}
	line := a.s.Ready()
	clear(list)
	shown := line[:min(len(line), readyShown)]
	items := make([]js.Value, len(shown))
	for i, t := range shown {
		li := create("li", "chip")
		setData(li, "task", t)
		setData(li, "state", string(core.Ready))
		setAttr(li, "title", t+" — number "+strconv.Itoa(i+1)+" in line")
		if i == 0 {
			addClass(li, "front")
			setAttr(li, "title", t+" — front of the line: next hands it out (click)")
		}
		setText(li, t)
		appendTo(list, li)
		items[i] = li
	}
	if more := len(line) - len(shown); more > 0 {
		setText(a.el.readyMore, "and "+strconv.Itoa(more)+" more behind them")
		setHidden(a.el.readyMore, false)
	} else {
		setHidden(a.el.readyMore, true)
	}
	if !animate {
		return
	}
	// FLIP: put each chip back where it was, then let it glide.
	var moved []js.Value
	for i, li := range items {
		p, was := old[shown[i]]
		if retried[shown[i]] && len(old) > 0 {
			p, was = front, true
			addClass(li, "retried")
		}
		if !was {
			addClass(li, "enter")
			continue
		}
		r := li.Call("getBoundingClientRect")
		dx, dy := p.x-r.Get("left").Float(), p.y-r.Get("top").Float()
		if dx == 0 && dy == 0 {
			continue
		}
		li.Get("style").Set("transform", "translate("+px(dx)+","+px(dy)+")")
		moved = append(moved, li)
	}
	if len(moved) == 0 {
		return
	}
	list.Get("offsetWidth") // lay out the chips where they were
	for _, li := range moved {
		addClass(li, "glide")
		li.Get("style").Set("transform", "")
	}
}

// renderDLQ lists the dead-letter queue: each DEAD task with its reason and
// how many tasks it blocks (and a redrive button), each BLOCKED task with
// its root.
func (a *app) renderDLQ(dlq []scenario.DLQEntry) {
	list := a.el.dlq
	clear(list)
	for _, d := range dlq {
		li := create("li", "")
		setData(li, "task", d.Task)
		setData(li, "state", string(d.State))
		setData(li, "reason", d.Reason)
		setData(li, "blocks", strconv.Itoa(d.Blocks))
		s := render.StyleOf(d.State)
		badge := create("span", "badge")
		setData(badge, "state", string(d.State))
		setText(badge, s.Icon+" "+s.Label)
		name := create("b", "name")
		setText(name, d.Task)
		reason := create("span", "reason")
		setText(reason, d.Reason)
		appendTo(li, badge)
		appendTo(li, name)
		appendTo(li, reason)
		if d.State == core.Dead {
			blocks := create("span", "blocks")
			if d.Blocks == 0 {
				setText(blocks, "blocks nothing")
			} else {
				setText(blocks, "blocks "+plural(d.Blocks, "task"))
			}
			appendTo(li, blocks)
			btn := create("button", "small")
			setAttr(btn, "type", "button")
			setData(btn, "action", "redrive")
			setData(btn, "task", d.Task)
			setText(btn, "Redrive")
			appendTo(li, btn)
		}
		appendTo(list, li)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// renderLog lists the events up to the cursor, the newest step's
// highlighted and scrolled into view.
func (a *app) renderLog() {
	k := a.s.Cursor()
	lines, omitted := a.s.Log(logShown)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(`<li class="kind-` + l.Kind)
		if l.Step == k {
			b.WriteString(` current`)
		}
		b.WriteString(`" data-step="` + strconv.Itoa(l.Step) + `"><span class="line">L` + strconv.Itoa(l.Line) + `</span>`)
		b.WriteString(xmlEscape(shorten(l.Text, 240)))
		b.WriteString(`</li>`)
	}
	list := a.el.log
	list.Set("innerHTML", b.String())
	if omitted > 0 {
		setText(a.el.logMore, plural(omitted, "earlier line")+" not shown")
		setHidden(a.el.logMore, false)
	} else {
		setHidden(a.el.logMore, true)
	}
	list.Set("scrollTop", list.Get("scrollHeight"))
}

// renderVisits shows how many edges the cycle check examined for the
// cursor's submit, and in all so far, so that strategies can be compared.
func (a *app) renderVisits() {
	s := a.s
	k := s.Cursor()
	var total uint64
	for i := 1; i <= k; i++ {
		if v, ok := s.Visits(i); ok {
			total += v
		}
	}
	tail := " · " + strconv.FormatUint(total, 10) + " in all so far with " + s.Strategy()
	if v, ok := s.Visits(k); ok {
		setText(a.el.visits, strconv.FormatUint(v, 10))
		setText(a.el.visitsNote, "edges examined by this submit"+tail)
	} else {
		setText(a.el.visits, "—")
		setText(a.el.visitsNote, "this step is not a submit"+tail)
	}
	setData(a.el.visits, "strategy", s.Strategy())
}

// renderTimeline sets the slider, the step label and the buttons.
func (a *app) renderTimeline() {
	k, n := a.s.Cursor(), a.s.Len()
	a.el.slider.Set("max", n)
	a.el.slider.Set("value", k)
	setText(a.el.stepLabel, "step "+strconv.Itoa(k)+" / "+strconv.Itoa(n))
	a.el.first.Set("disabled", k == 0)
	a.el.back.Set("disabled", k == 0)
	a.el.forward.Set("disabled", k == n)
	a.el.last.Set("disabled", k == n)
	setHidden(a.el.play, a.playing)
	setHidden(a.el.pause, !a.playing)
}

// Editor geometry, as style.css sets it: line height and top padding.
const (
	editorLine = 20.0
	editorPad  = 8.0
)

// setEditor puts text in the editor and numbers its lines.
func (a *app) setEditor(text string) {
	a.el.editor.Set("value", text)
	a.numberLines(text)
}

// numberLines writes the gutter's line numbers.
func (a *app) numberLines(text string) {
	n := strings.Count(text, "\n") + 1
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	setText(a.el.gutter, b.String())
	a.el.gutter.Set("scrollTop", a.el.editor.Get("scrollTop"))
}

// markLine marks the line of the cursor's command in the editor, and
// scrolls it into view unless someone is typing there.
func (a *app) markLine() {
	k := a.s.Cursor()
	if k == 0 || a.dirty {
		setHidden(a.el.mark, true)
		return
	}
	line := float64(a.s.Step(k).Command.Line)
	ed := a.el.editor
	if !document.Underlying().Get("activeElement").Equal(ed) {
		top := editorPad + (line-1)*editorLine
		h := ed.Get("clientHeight").Float()
		st := ed.Get("scrollTop").Float()
		if top < st || top+editorLine > st+h {
			ed.Set("scrollTop", top-h/3)
		}
	}
	a.placeMark()
	setHidden(a.el.mark, false)
}

// placeMark moves the line mark with the editor's scrolling.
func (a *app) placeMark() {
	k := a.s.Cursor()
	if k == 0 {
		return
	}
	line := float64(a.s.Step(k).Command.Line)
	top := editorPad + (line-1)*editorLine - a.el.editor.Get("scrollTop").Float()
	a.el.mark.Get("style").Set("transform", "translateY("+px(top)+")")
	a.el.gutter.Set("scrollTop", a.el.editor.Get("scrollTop"))
}

// showEditorError shows an error of the script at its line and column
// ("L:C: message") and selects that spot in the editor.
func (a *app) showEditorError(err error, text string) {
	setText(a.el.editorError, err.Error())
	setHidden(a.el.editorError, false)
	var line, col int
	var se *scenario.SyntaxError
	var ee *scenario.ExpectError
	switch {
	case errors.As(err, &se):
		line, col = se.Line, se.Col
	case errors.As(err, &ee):
		line, col = ee.Line, ee.Col
	default:
		return
	}
	// Select the word at the spot, or one character.
	start := scenario.EditorOffset(text, line, col)
	end := start + 1
	if lines := strings.Split(text, "\n"); line >= 1 && line <= len(lines) {
		runes := []rune(lines[line-1])
		c := col - 1
		for c >= 0 && c < len(runes) && runes[c] != ' ' && runes[c] != '\t' {
			c++
		}
		if c > col-1 {
			end = scenario.EditorOffset(text, line, c+1)
		}
	}
	ed := a.el.editor
	ed.Call("focus")
	ed.Call("setSelectionRange", start, end)
	top := editorPad + float64(line-1)*editorLine
	ed.Set("scrollTop", top-ed.Get("clientHeight").Float()/3)
}

func (a *app) clearEditorError() {
	setText(a.el.editorError, "")
	setHidden(a.el.editorError, true)
}

// showStopped says so when a failed expect stopped the run.
func (a *app) showStopped() {
	if err := a.s.Stopped(); err != nil {
		setText(a.el.editorError, err.Error()+" — the run stops here; fix the script and Run")
		setHidden(a.el.editorError, false)
	}
}

// notify shows a message above the page for a few seconds; sticky ones
// stay until the next.
func (a *app) notify(msg string, sticky bool) {
	a.noticeGen++
	gen := a.noticeGen
	setText(a.el.notice, msg)
	setHidden(a.el.notice, false)
	if !sticky {
		afterAll(6*time.Second, func() {
			if a.noticeGen == gen {
				setHidden(a.el.notice, true)
			}
		})
	}
}
