//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// app is the page: a playground.Page, which decides everything, and the
// elements that show it. The app only draws the page's step and turns
// clicks and keys into calls of the page.
type app struct {
	p     *playground.Page
	dirty bool // the editor holds text that has not run

	scrolls []scrollWrite // scroll positions to set in the next frame (scrollLater)

	g           *graph
	gen         int               // drawing generation; see later
	shown       int               // the step drawn last; -1 before the first drawing
	pending     func()            // the end of the last step's animation, if still to come
	drawn       bool              // the first drawing is done
	follow      bool              // bring the tasks a step changes into view
	zoom        float64           // the zoom chosen; 0 until one is, when the drawing fits itself
	readyOpen   bool              // the READY line lists more than its front few
	dlqOpen     bool              // the dead-letter queue lists more than its first few
	traced      string            // the task whose lineage is highlighted; "" for none
	hover       pointerAt         // where the pointer is over the drawing, if it is
	logOf       *scenario.Session // the session whose log is listed
	namesListed bool              // the find box suggests the tasks of the graph drawn
	editorTop   float64           // the editor's scrollTop and height, read as a drawing starts
	editorH     float64
	gutter      playground.Gutter // the line numbers drawn
	lines       int               // the editor's lines
	starts      []int             // where they start, in the script
	script      string            // the script in the editor
	viewing     bool              // the script is shown as a view of the lines in sight, until edited (playground.ViewAbove)
	address     string            // the address last written
	addrGen     int               // counts drawings; the address is written once they pause
	fitFor      [3]float64        // the layout's size and the zoom svgX, svgY were read at
	svgX        float64           // where the drawing is in the scroller's content
	svgY        float64

	graphOf  *scenario.Session // the session and graph size drawn
	graphLen int
	nodes    []render.Node // the graph drawn

	playing bool
	playGen int // counts runs of play; a pause ends the current one
	speed   time.Duration

	bannerGen int
	noticeGen int

	consoleGroup int // the root-cause group selected in the console, from 1; 0 for none

	pr *practice // practice mode (see practice.go)

	el struct {
		body, editor, gutter, mark, editorError, run                         js.Value
		picker, strategy, speed, slider, stepLabel, play, pause              js.Value
		first, back, forward, last, undo, follow                             js.Value
		readyLine, readyMore, dlq, dlqMore, log, logMore, visits, visitsNote js.Value
		caption, command, commandError, notice, noticeText, banner           js.Value
		popover, stage, boot, title, about, openFull, legend                 js.Value
		share, sharePanel, shareLink, embedSnippet, shareStatus              js.Value
		shareClose, commandForm, scroller, counts, noticeClose               js.Value
		crash, crashText, crashDetail, crashClose                            js.Value
		zoomIn, zoomOut, zoomFit, zoomLabel, find, names                     js.Value
		timeRow, clock, advance, console, view                               js.Value
		gutterLines, viewLines                                               js.Value
	}
}

func newApp() *app {
	a := &app{p: playground.New(), shown: -1, speed: 800 * time.Millisecond, follow: true}
	e := &a.el
	e.body = document.Get("body")
	for _, p := range []struct {
		v  *js.Value
		id string
	}{
		{&e.editor, "editor"}, {&e.view, "editor-view"}, {&e.gutter, "gutter"}, {&e.mark, "editor-mark"}, {&e.editorError, "editor-error"},
		{&e.run, "run"}, {&e.picker, "scenario-picker"}, {&e.strategy, "strategy"}, {&e.speed, "speed"},
		{&e.slider, "step-slider"}, {&e.stepLabel, "step-label"}, {&e.play, "play"}, {&e.pause, "pause"},
		{&e.first, "step-first"}, {&e.back, "step-back"}, {&e.forward, "step-forward"}, {&e.last, "step-last"},
		{&e.undo, "undo"}, {&e.follow, "follow"},
		{&e.readyLine, "ready-line"}, {&e.readyMore, "ready-more"}, {&e.dlq, "dlq"}, {&e.dlqMore, "dlq-more"}, {&e.log, "event-log"},
		{&e.logMore, "log-more"}, {&e.visits, "visits"}, {&e.visitsNote, "visits-note"}, {&e.caption, "caption"},
		{&e.command, "command"}, {&e.commandError, "command-error"}, {&e.notice, "notice"}, {&e.noticeText, "notice-text"},
		{&e.noticeClose, "notice-close"}, {&e.banner, "banner"},
		{&e.popover, "popover"}, {&e.stage, "stage"}, {&e.boot, "boot"}, {&e.title, "scenario-title"},
		{&e.about, "scenario-about"}, {&e.openFull, "open-full"}, {&e.legend, "legend"}, {&e.share, "share"},
		{&e.sharePanel, "share-panel"}, {&e.shareLink, "share-link"}, {&e.embedSnippet, "embed-snippet"},
		{&e.shareStatus, "share-status"}, {&e.shareClose, "share-close"}, {&e.commandForm, "command-form"},
		{&e.scroller, "scroller"}, {&e.counts, "counts"},
		{&e.zoomIn, "zoom-in"}, {&e.zoomOut, "zoom-out"}, {&e.zoomFit, "zoom-fit"}, {&e.zoomLabel, "zoom-label"},
		{&e.find, "find"}, {&e.names, "task-names"}, {&e.timeRow, "time-row"}, {&e.console, "dlq-console"}, {&e.clock, "clock"}, {&e.advance, "advance"},
		{&e.crash, "crash"}, {&e.crashText, "crash-text"}, {&e.crashDetail, "crash-detail"}, {&e.crashClose, "crash-close"},
	} {
		*p.v = byID(p.id)
	}
	for _, p := range []struct{ in, lines *js.Value }{{&e.gutter, &e.gutterLines}, {&e.view, &e.viewLines}} {
		*p.lines = create("span", "lines")
		appendTo(*p.in, *p.lines)
	}
	a.g = newGraph(byID("graph"))
	crashed = a.crash
	return a
}

// crash shows a panic recovered in a handler, so that it can be reported;
// the page keeps working.
func (a *app) crash(c playground.Crash) {
	println(c.Detail) // for whoever has the console open
	setText(a.el.crashText, c.Message)
	setText(a.el.crashDetail, c.Detail)
	setHidden(a.el.crash, false)
	setData(a.el.body, "crashes", strconv.Itoa(a.crashes()+1))
}

func (a *app) crashes() int {
	n, _ := strconv.Atoi(a.el.body.Get("dataset").Get("crashes").String())
	return n
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
	appendTo(document.Get("head"), style)

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

// loadURL shows what the page's address asks for; a parameter that cannot
// be read is said in a notice and left out.
func (a *app) loadURL() {
	a.pause()
	loc := js.Global().Get("location")
	addr := playground.ReadAddress(loc.Get("search").String(), loc.Get("hash").String())
	if addr.Link.Practice.On() {
		a.openPractice(addr.Link.Practice, true)
		return
	}
	text, notices, err := a.p.OpenAddress(addr)
	toggleClass(a.el.body, "embed", a.p.Embedded())
	setData(a.el.body, "panels", strings.Join(a.p.Panels(), " "))
	a.loaded(text, err)
	if len(notices) > 0 {
		a.notify(strings.Join(notices, " "), true)
	}
}

// loaded shows a script just loaded: in the editor, with its error if it
// does not run. The drawing is redone whole: the steps drawn before may
// not be this script's.
func (a *app) loaded(text string, err error) {
	a.shown = -1
	a.setEditor(text)
	a.dirty = err != nil
	if err != nil {
		a.showEditorError(err, text)
	} else {
		a.clearEditorError()
	}
	toggleClass(a.el.run, "primary", a.dirty)
	a.describe()
	a.showStopped()
	a.render(false)
	afterPaint(a.runAhead)
}

// runAheadChunk is how many commands runAhead runs at a time: a few
// milliseconds in the browser.
const runAheadChunk = 250

// runAhead runs the commands of the script shown that have not run yet
// (scenario.NewSession leaves those after the last submit for later), a
// chunk at a time between the page's own work, so that a jump to a late
// step finds them run.
func (a *app) runAhead() {
	if a.p.Session().RunAhead(runAheadChunk) > 0 {
		time.AfterFunc(0, func() { guard("run ahead", a.runAhead) })
	}
}

// describe fills the title, the description and the pickers.
func (a *app) describe() {
	removeClass(a.el.about, "open")
	setText(a.el.title, a.p.Title())
	setText(a.el.about, a.p.Description())
	a.el.picker.Set("value", a.p.Scenario())
	a.el.strategy.Set("value", a.p.Strategy())
}

// render draws the page at its step. animate, for a single step forward,
// plays the step's changes one after another, nearest first; otherwise the
// page is set at once (colours still fade). Only the tasks the step
// changed are restyled, unless the graph was laid out again.
func (a *app) render(animate bool) {
	start := now()
	a.flushScrolls()
	p := a.p
	s := p.Session()
	k := s.Cursor()
	animate = animate && k > 0 && a.shown == k-1
	// Read what the page looks like before changing it, so that the
	// reads cost no layout of their own.
	view := a.view()
	box := a.textBox()
	a.editorTop, a.editorH = box.Get("scrollTop").Float(), box.Get("clientHeight").Float()
	var chips map[string]pos
	if animate {
		chips = a.chipPositions()
	}
	if a.pending != nil {
		a.pending()
		a.pending = nil
	}
	a.gen++
	a.hidePopover()

	// The graph changes only when the script submits more tasks, or is
	// another script.
	all := s.GraphAt(scenario.StepEnd)
	relaid := false
	if s != a.graphOf || len(all) != a.graphLen {
		a.graphOf, a.graphLen = s, len(all)
		nodes, key := playground.GraphNodes(all)
		a.nodes = nodes
		relaid = a.g.setGraph(nodes, key)
	}
	nodes := a.nodes
	if relaid {
		a.trace("")
		a.namesListed = false
	}
	a.fit()
	if a.follow && k != a.shown {
		view = a.followAction(view, p.Focus(k))
	}
	a.g.setTabStops(p.TabStops(k))
	a.drawWindow(view)
	if relaid {
		a.retrace()
	}
	var tasks []string
	if relaid || a.shown < 0 {
		for _, n := range nodes {
			tasks = append(tasks, n.Name)
		}
	} else {
		tasks = p.Changed(a.shown, k)
	}
	reasons := p.Reasons()
	views := make([]playground.TaskView, len(tasks))
	for i, t := range tasks {
		views[i] = p.Task(t, reasons[t])
	}
	var events []core.Event
	if k > 0 {
		events = s.Step(k).Events
	}
	if animate && len(events) > 0 {
		a.animate(events, views)
	} else {
		for _, v := range views {
			a.g.show(v)
		}
	}
	if b := p.Banner(k, animate); b.Kind == "cycle" && (animate || k != a.shown) {
		a.flashCycle(b)
	} else if b.Kind != "" {
		a.showBanner(b.Kind, b.Text)
	}
	a.g.markVisited(p.Visited(k))

	a.renderReady(chips, events)
	a.renderDLQ()
	a.renderConsole()
	same := a.shown >= 0 && a.logOf == s && !relaid
	a.renderLog(same && k == a.shown+1, same && k == a.shown-1)
	a.logOf = s
	a.renderVisits()
	a.renderCounts()
	a.renderTimeline()
	a.renderClock()
	a.markLine()
	c := p.Caption()
	setText(a.el.caption, "")
	if c.Where != "" {
		where := create("span", "where")
		setText(where, c.Where)
		appendTo(a.el.caption, where)
	}
	appendTo(a.el.caption, document.Call("createTextNode", c.Text))
	toggleClass(a.el.caption, "refused", c.Refused)

	a.shown = k
	setData(a.el.body, "step", strconv.Itoa(k))
	setData(a.el.body, "renderMs", strconv.FormatFloat(now()-start, 'f', 1, 64))
	a.setAddress()
	if !a.drawn {
		a.drawn = true
		setHidden(a.el.boot, true)
		afterPaint(func() {
			// firstDrawMs is when the first drawing was on screen, from
			// the start of navigation.
			setData(a.el.body, "firstDrawMs", strconv.Itoa(int(now())))
			setData(a.el.body, "ready", "1")
		})
	}
}

// setAddress makes the address bar say what is shown (step, strategy,
// script), without loading, so that a reload shows the same. It writes
// once the steps pause for a moment (addressPause): a shared script's
// address can be tens of kilobytes, and writing it costs the browser as
// much as a step.
func (a *app) setAddress() {
	loc := js.Global().Get("location")
	if a.p.Embedded() {
		// The embed's link to the full page follows every step at once.
		a.el.openFull.Set("href", loc.Get("origin").String()+loc.Get("pathname").String()+a.p.FullAddress())
	}
	a.addrGen++
	gen := a.addrGen
	afterAll(addressPause, func() {
		if gen != a.addrGen {
			return
		}
		if addr := a.pageAddress(); addr != a.address {
			a.address = addr
			js.Global().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+addr)
		}
	})
}

// addressPause is how long the steps must pause before the address is
// written.
const addressPause = 250 * time.Millisecond

// fit sizes the drawing: at the zoom chosen, or, until one is, as
// playground.AutoZoom says for the stage. When the size changes, it
// notes where the drawing sits in the scroller (it is centred when
// smaller), which costs a layout.
func (a *app) fit() {
	z := a.zoom
	l := a.g.layout
	sc := a.el.scroller
	if z == 0 {
		z = playground.AutoZoom(l.Width, l.Height, sc.Get("clientWidth").Float()-16, sc.Get("clientHeight").Float()-50)
	}
	if a.g.setScale(z) || a.fitFor != [3]float64{l.Width, l.Height, z} {
		a.fitFor = [3]float64{l.Width, l.Height, z}
		gr, sr := a.g.svg.Call("getBoundingClientRect"), sc.Call("getBoundingClientRect")
		a.svgX = gr.Get("left").Float() - sr.Get("left").Float() + sc.Get("scrollLeft").Float()
		a.svgY = gr.Get("top").Float() - sr.Get("top").Float() + sc.Get("scrollTop").Float()
	}
	setText(a.el.zoomLabel, strconv.Itoa(int(z*100+0.5))+"%")
}

// view returns where the drawing's scroller is scrolled.
func (a *app) view() playground.Scroll {
	sc := a.el.scroller
	return playground.Scroll{Left: sc.Get("scrollLeft").Float(), Top: sc.Get("scrollTop").Float(),
		Width: sc.Get("clientWidth").Float(), Height: sc.Get("clientHeight").Float()}
}

// inContent returns where a task is in the scroller's content, in pixels.
func (a *app) inContent(task string) (x, y float64, ok bool) {
	x, y, ok = a.g.at(task)
	return x + a.svgX, y + a.svgY, ok
}

// followAction scrolls the drawing so that the first task a step changed
// is in view, if it is not (playground.Follow); view is where the scroller
// was before the step. It returns where the scroller is now.
func (a *app) followAction(view playground.Scroll, tasks []string) playground.Scroll {
	if len(tasks) == 0 {
		return view
	}
	x, y, ok := a.inContent(tasks[0])
	if !ok {
		return view
	}
	if left, top, move := playground.Follow(view, x, y, 60); move {
		a.scrollLater(a.el.scroller, left, top, true)
		view.Left, view.Top = left, top
	}
	return view
}

// drawWindow draws the part of a big graph around the view.
func (a *app) drawWindow(view playground.Scroll) {
	a.g.setWindow(playground.Seen(view, a.svgX, a.svgY, a.g.scale), playground.Window(view, a.svgX, a.svgY, a.g.scale))
}

// animate changes the tasks of one step in event order, so that a wave of
// blocking or unblocking runs down the graph nearest first, as
// playground.Schedule times it; then every task the step changed is drawn
// as the step ends.
func (a *app) animate(events []core.Event, final []playground.TaskView) {
	batches, done := playground.Schedule(events)
	end := func() {
		for _, v := range final {
			a.g.show(v)
		}
	}
	a.pending = end
	pulses := playground.Pulses(events)
	for _, b := range batches {
		evs := b.Events
		a.later(b.At, func() { a.applyEvents(evs, pulses) })
	}
	a.later(done, func() {
		end()
		a.pending = nil
	})
}

// applyEvents draws events drawn together: each task's new state, with
// a pulse that says what kind of change it was when pulses is set.
func (a *app) applyEvents(evs []core.Event, pulses bool) {
	var fs []flash
	for _, e := range evs {
		reason := ""
		if e.To == core.Dead || e.To == core.Blocked {
			reason = e.Reason
		}
		if a.g.show(a.p.TaskAs(e.Task, e.To, reason)) {
			fs = append(fs, flash{e.Task, "arrive"})
		}
		if c := playground.Pulse(e); c != "" && pulses {
			fs = append(fs, flash{e.Task, c})
		}
	}
	a.g.pulse(fs...)
}

// flashCycle shows a refused cycle: its tasks and edges highlighted and the
// path named, fading after a moment.
func (a *app) flashCycle(b playground.Banner) {
	undo := a.g.flashCycle(b.Cycle)
	a.showBanner(b.Kind, b.Text)
	afterAll(playground.Flash, undo)
}

// showBanner names what a step did over the drawing, for a moment.
func (a *app) showBanner(kind, text string) {
	a.bannerGen++
	gen := a.bannerGen
	b := a.el.banner
	setText(b, text)
	b.Set("className", "banner "+kind)
	setHidden(b, false)
	afterAll(playground.Flash, func() {
		if a.bannerGen == gen {
			setHidden(b, true)
		}
	})
}

// pos is where an element is on the page.
type pos struct{ x, y float64 }

// chipPositions returns where the READY line's chips are, by task.
func (a *app) chipPositions() map[string]pos {
	old := map[string]pos{}
	kids := a.el.readyLine.Get("children")
	for i := 0; i < kids.Length(); i++ {
		li := kids.Index(i)
		r := li.Call("getBoundingClientRect")
		old[li.Get("dataset").Get("task").String()] = pos{r.Get("left").Float(), r.Get("top").Float()}
	}
	return old
}

// renderReady lists the READY line, front first. Stepping forward (old
// holds where the chips were), the chips glide to their new places, and a
// retried task slides from the front, where it was handed out, to the
// back of the line.
func (a *app) renderReady(old map[string]pos, events []core.Event) {
	list := a.el.readyLine
	animate := old != nil
	var front pos
	if kids := list.Get("children"); animate && kids.Length() > 0 {
		front = old[kids.Index(0).Get("dataset").Get("task").String()]
	}
	retried := map[string]bool{}
	for _, e := range events {
		if e.Kind == core.EventRetried {
			retried[e.Task] = true
		}
	}
	chips, toggle := a.p.ReadyLine(a.readyOpen)
	clear(list)
	items := make([]js.Value, len(chips))
	for i, c := range chips {
		li := create("li", "chip")
		setData(li, "task", c.Task)
		setData(li, "state", string(core.Ready))
		setAttr(li, "title", c.Title)
		setAttr(li, "tabindex", "0")
		setAttr(li, "role", "button")
		if c.Front {
			addClass(li, "front")
		}
		setText(li, c.Task)
		appendTo(list, li)
		items[i] = li
	}
	setText(a.el.readyMore, toggle)
	setHidden(a.el.readyMore, toggle == "")
	if !animate {
		return
	}
	// FLIP, in the next frame, when the page is laid out anyway: put each
	// chip back where it was, then let it glide.
	afterFrames(1, func() {
		// Read every chip's place first, then write: a read after a
		// write would lay the page out again, once per chip.
		type move struct {
			li     js.Value
			dx, dy float64
		}
		var moves []move
		var entered, retriedLis []js.Value
		for i, li := range items {
			p, was := old[chips[i].Task]
			if retried[chips[i].Task] && len(old) > 0 {
				p, was = front, true
				retriedLis = append(retriedLis, li)
			}
			if !was {
				entered = append(entered, li)
				continue
			}
			r := li.Call("getBoundingClientRect")
			if dx, dy := p.x-r.Get("left").Float(), p.y-r.Get("top").Float(); dx != 0 || dy != 0 {
				moves = append(moves, move{li, dx, dy})
			}
		}
		for _, li := range entered {
			addClass(li, "enter")
		}
		for _, li := range retriedLis {
			addClass(li, "retried")
		}
		if len(moves) == 0 {
			return
		}
		for _, m := range moves {
			m.li.Get("style").Set("transform", "translate("+px(m.dx)+","+px(m.dy)+")")
		}
		list.Get("offsetWidth") // lay out the chips where they were
		for _, m := range moves {
			addClass(m.li, "glide")
			m.li.Get("style").Set("transform", "")
		}
	})
}

// renderDLQ lists the dead-letter queue as the page says.
func (a *app) renderDLQ() {
	list := a.el.dlq
	clear(list)
	rows, toggle := a.p.DLQ(a.dlqOpen)
	setText(a.el.dlqMore, toggle)
	setHidden(a.el.dlqMore, toggle == "")
	for _, d := range rows {
		li := create("li", "")
		setData(li, "task", d.Task)
		setData(li, "state", string(d.State))
		setData(li, "reason", d.Reason)
		setData(li, "blocks", strconv.Itoa(d.Blocks))
		badge := create("span", "badge")
		setData(badge, "state", string(d.State))
		setText(badge, d.Badge)
		name := create("b", "name")
		setText(name, d.Task)
		reason := create("span", "reason")
		setText(reason, d.Reason)
		appendTo(li, badge)
		appendTo(li, name)
		appendTo(li, reason)
		if d.BlocksText != "" {
			blocks := create("span", "blocks")
			setText(blocks, d.BlocksText)
			appendTo(li, blocks)
		}
		if b := d.Button; b != nil {
			btn := create("button", b.Class)
			setAttr(btn, "type", "button")
			setData(btn, "action", b.Action)
			setData(btn, "task", d.Task)
			setText(btn, b.Label)
			appendTo(li, btn)
		}
		appendTo(list, li)
	}
}

// renderLog lists the events up to the step shown, the newest step's
// highlighted and scrolled into view; a line is a button that seeks to its
// step. One step forward adds that step's lines and drops the earliest;
// any other move lists the log afresh.
func (a *app) renderLog(forward, back bool) {
	k := a.p.Session().Cursor()
	list := a.el.log
	var lines []scenario.LogEntry
	var more string
	remove := 0
	switch {
	case forward:
		lines, more = a.p.LogStep()
		for _, li := range jsList(list.Call("querySelectorAll", "li.current")) {
			removeClass(li, "current")
		}
	case back:
		remove, lines, more = a.p.LogBack(list.Get("children").Length())
	default:
		lines, more = a.p.Log()
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(`<li class="kind-` + l.Kind)
		if l.Step == k {
			b.WriteString(` current`)
		}
		b.WriteString(`" data-step="` + strconv.Itoa(l.Step) + `" tabindex="-1" title="Show step ` + strconv.Itoa(l.Step) + `"><span class="line">L` + strconv.Itoa(l.Line) + `</span>`)
		b.WriteString(xmlEscape(shorten(l.Text, 240)))
		b.WriteString(`</li>`)
	}
	switch {
	case forward && len(lines) >= playground.LogLimit:
		// The step's lines are the whole log.
		list.Set("innerHTML", b.String())
	case forward:
		list.Call("insertAdjacentHTML", "beforeend", b.String())
		kids := list.Get("children")
		for n := kids.Length(); n > playground.LogLimit; n-- {
			kids.Index(0).Call("remove")
		}
	case back:
		kids := list.Get("children")
		for ; remove > 0; remove-- {
			kids.Index(kids.Length() - 1).Call("remove")
		}
		list.Call("insertAdjacentHTML", "afterbegin", b.String())
		for _, li := range jsList(list.Call("querySelectorAll", `li[data-step="`+strconv.Itoa(k)+`"]`)) {
			addClass(li, "current")
		}
	default:
		list.Set("innerHTML", b.String())
	}
	setText(a.el.logMore, more)
	setHidden(a.el.logMore, more == "")
	afterFrames(1, func() { list.Set("scrollTop", list.Get("scrollHeight")) })
}

// renderVisits shows how many edges the cycle check examined.
func (a *app) renderVisits() {
	v := a.p.Visits()
	setText(a.el.visits, v.Count)
	setText(a.el.visitsNote, v.Note)
	setData(a.el.visits, "strategy", a.p.Strategy())
}

// renderCounts shows how many tasks are in each state.
func (a *app) renderCounts() {
	counts, all := a.p.Counts()
	var b strings.Builder
	for _, c := range counts {
		st := render.StyleOf(c.State)
		b.WriteString(`<li class="badge" data-state="` + string(c.State) + `">` + st.Icon + " " + st.Label + " " + strconv.Itoa(c.N) + `</li>`)
	}
	b.WriteString(`<li class="muted">` + playground.OfAll(all) + `</li>`)
	a.el.counts.Set("innerHTML", b.String())
}

// renderTimeline sets the slider, the step label and the buttons.
func (a *app) renderTimeline() {
	t := a.p.Timeline()
	a.el.slider.Set("max", t.SliderMax)
	a.el.slider.Set("value", t.SliderValue)
	setText(a.el.stepLabel, t.Label)
	a.el.first.Set("disabled", !t.CanBack)
	a.el.back.Set("disabled", !t.CanBack)
	a.el.forward.Set("disabled", !t.CanForward)
	a.el.last.Set("disabled", !t.CanForward)
	a.el.undo.Set("disabled", !t.CanUndo)
	setHidden(a.el.play, a.playing)
	setHidden(a.el.pause, !a.playing)
}

// Editor geometry, as style.css sets it: line height and top padding.
const (
	editorLine = 20.0
	editorPad  = 8.0
)

// setEditor puts text in the editor and numbers its lines. A long script
// is shown as a view of the lines in sight until someone edits it (see
// edit).
func (a *app) setEditor(text string) {
	a.script, a.starts = text, playground.LineStarts(text)
	a.lines = len(a.starts)
	a.viewing = a.lines >= playground.ViewAbove && !document.Get("activeElement").Equal(a.el.editor)
	// A long script shown as a view reaches the editor only when it is
	// edited: handing the browser hundreds of kilobytes of text costs as
	// much as drawing the graph.
	if a.viewing {
		a.el.editor.Set("value", "")
	} else {
		a.el.editor.Set("value", text)
	}
	setHidden(a.el.editor, a.viewing)
	setHidden(a.el.view, !a.viewing)
	a.gutter = playground.Gutter{}
	a.drawGutter(a.editorTop)
}

// editorText is the script the editor holds, or the view shows.
func (a *app) editorText() string {
	if a.viewing {
		return a.script
	}
	return a.el.editor.Get("value").String()
}

// textBox is what shows the script: the editor, or the view of a long
// script.
func (a *app) textBox() js.Value {
	if a.viewing {
		return a.el.view
	}
	return a.el.editor
}

// edit turns the view of a long script into the editor, scrolled alike,
// with the caret at the start of line (1-based).
func (a *app) edit(line int) {
	if !a.viewing {
		return
	}
	top := a.el.view.Get("scrollTop")
	a.viewing = false
	setHidden(a.el.view, true)
	ed := a.el.editor
	ed.Set("value", a.script)
	setHidden(ed, false)
	ed.Call("focus")
	ed.Set("scrollTop", top)
	off := playground.EditorOffset(a.script, max(line, 1), 1)
	ed.Call("setSelectionRange", off, off)
}

// numberLines numbers the lines of text in the gutter, as far as the
// editor shows them (playground.GutterFor).
func (a *app) numberLines(text string) {
	a.lines = strings.Count(text, "\n") + 1
	a.drawGutter(a.editorTop)
}

// drawGutter numbers the lines around the editor scrolled to scrollTop,
// if the ones drawn do not cover them, and scrolls the gutter with it.
func (a *app) drawGutter(scrollTop float64) {
	h := a.editorH
	if h <= 0 {
		h = 800
	}
	g, redraw := playground.GutterFor(a.lines, max(0, scrollTop-editorPad), h, editorLine, a.gutter)
	gu := a.el.gutter
	if redraw {
		a.gutter = g
		// The lines drawn sit in a block as tall as the whole text: the
		// space above and below them is the block's padding.
		setText(a.el.gutterLines, g.Text())
		place := func(el js.Value) {
			st := el.Get("style")
			st.Set("paddingTop", px(g.Above))
			st.Set("paddingBottom", px(g.Below))
		}
		place(a.el.gutterLines)
		gu.Get("style").Set("minWidth", strconv.Itoa(max(5, g.Digits()+1))+"ch")
		if a.viewing {
			setText(a.el.viewLines, g.Lines(a.script, a.starts))
			place(a.el.viewLines)
		}
	}
	// The gutter follows the text by a transform, which lays nothing out:
	// setting its scrollTop would lay the page out there and then.
	a.el.gutterLines.Get("style").Set("transform", "translateY("+px(-scrollTop)+")")
}

// markLine marks the line of the step's command in the editor, and
// scrolls it into view unless someone is typing there.
func (a *app) markLine() {
	s := a.p.Session()
	k := s.Cursor()
	if k == 0 || a.dirty {
		setHidden(a.el.mark, true)
		return
	}
	line := float64(s.Step(k).Command.Line)
	ed := a.textBox()
	st := a.editorTop
	if !document.Get("activeElement").Equal(ed) {
		top := editorPad + (line-1)*editorLine
		if h := a.editorH; top < st || top+editorLine > st+h {
			st = max(0, top-h/3)
			a.scrollLater(ed, 0, st, false)
		}
	}
	a.placeMarkAt(st)
	setHidden(a.el.mark, false)
}

// placeMark moves the line mark and the gutter with the editor's
// scrolling.
func (a *app) placeMark() { a.placeMarkAt(a.textBox().Get("scrollTop").Float()) }

// placeMarkAt places the line mark for the editor scrolled to scrollTop.
func (a *app) placeMarkAt(scrollTop float64) {
	a.drawGutter(scrollTop)
	s := a.p.Session()
	k := s.Cursor()
	if k == 0 {
		return
	}
	line := float64(s.Step(k).Command.Line)
	top := editorPad + (line-1)*editorLine - scrollTop
	a.el.mark.Get("style").Set("transform", "translateY("+px(top)+")")
}

// showEditorError shows an error of the script ("L:C: message") and
// selects the spot it points at in the editor.
func (a *app) showEditorError(err error, text string) {
	setText(a.el.editorError, err.Error())
	setHidden(a.el.editorError, false)
	sel, ok := playground.ErrorSelection(text, err)
	if !ok {
		return
	}
	a.edit(sel.Line)
	ed := a.el.editor
	ed.Call("focus")
	ed.Call("setSelectionRange", sel.Start, sel.End)
	top := editorPad + float64(sel.Line-1)*editorLine
	ed.Set("scrollTop", top-ed.Get("clientHeight").Float()/3)
}

func (a *app) clearEditorError() {
	setText(a.el.editorError, "")
	setHidden(a.el.editorError, true)
}

// showStopped says so when a failed expect stopped the run.
func (a *app) showStopped() {
	if msg := a.p.Stopped(); msg != "" {
		setText(a.el.editorError, msg)
		setHidden(a.el.editorError, false)
	}
}

// notify shows a message above the page; a plain one goes after 6 s or
// at the next action, a sticky one (a link that could not be read) stays
// until closed.
func (a *app) notify(msg string, sticky bool) {
	a.noticeGen++
	gen := a.noticeGen
	setText(a.el.noticeText, msg)
	setData(a.el.notice, "sticky", strconv.FormatBool(sticky))
	setHidden(a.el.notice, false)
	if !sticky {
		afterAll(6*time.Second, func() {
			if a.noticeGen == gen {
				setHidden(a.el.notice, true)
			}
		})
	}
}

// unnotify takes away a plain notice: a later action makes it stale.
func (a *app) unnotify() {
	if a.el.notice.Get("dataset").Get("sticky").String() != "true" {
		a.noticeGen++
		setHidden(a.el.notice, true)
	}
}

// scrollWrite is a scroll position to set on an element: its scrollTop,
// and its scrollLeft when left is set.
type scrollWrite struct {
	el        js.Value
	left, top float64
	setLeft   bool
}

// scrollLater sets el's scroll position in the next animation frame, with
// the frame's own layout: setting it now would lay the page out there and
// then, and again for every change made after it. A render before that
// frame sets it first (flushScrolls), so that it reads what it wrote.
func (a *app) scrollLater(el js.Value, left, top float64, setLeft bool) {
	if len(a.scrolls) == 0 {
		afterFrames(1, a.flushScrolls)
	}
	a.scrolls = append(a.scrolls, scrollWrite{el, left, top, setLeft})
}

// flushScrolls sets the scroll positions scrollLater holds.
func (a *app) flushScrolls() {
	for _, w := range a.scrolls {
		if w.setLeft {
			w.el.Set("scrollLeft", w.left)
		}
		w.el.Set("scrollTop", w.top)
	}
	a.scrolls = a.scrolls[:0]
}
