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
	"github.com/dagq/dagq/internal/playground"
	trainer "github.com/dagq/dagq/internal/practice"
)

// app is the page: a playground.Page, which decides everything, and its
// panels, each a type with the elements it shows and the little it keeps
// of what it drew. The app draws the page's step by asking each panel to
// draw its part, and turns clicks and keys into calls of the page; what
// is not any one panel's (the caption, the notices, the address) is the
// app's own.
//
// Panels that act on the page (a step, a command) do it through the app:
// each holds it as a.
type app struct {
	p *playground.Page

	ed        *editor      // the script and its line numbers
	tl        *timeline    // the step controls and play
	d         *drawing     // the graph, its zoom, pan, find and follow
	ready     *readyLine   // the READY line
	dlq       *dlqList     // the dead-letter queue
	con       *console     // the operator's console above the DLQ
	log       *eventLog    // the event log
	tally     *tally       // the counts of states and the cycle check's visits
	clk       *clockPanel  // the clock and its timers
	share     *sharePanel  // the share panel
	pop       *popover     // a task's actions
	detail    *detailPanel // a task's detail
	practice  *practice    // practice mode
	interview *interview   // a mock interview
	live      *liveView    // the live DAG's view (wq serve --db)

	scrolls []scrollWrite // scroll positions to set in the next frame (scrollLater)
	steady  *steady       // what keeps its height while play runs

	gen     int    // drawing generation; see later
	shown   int    // the step drawn last; -1 before the first drawing
	pending func() // the end of the last step's animation, if still to come
	untold  bool   // the step drawn now is not told in the page's text (playground.Pace.Tells)
	tellAt  int    // the part of the step tellNext tells next
	told    bool   // the step drawn last is told in the page's text
	drawn   bool   // the first drawing is done
	address string // the address last written
	addrGen int    // counts drawings; the address is written once they pause

	bannerGen int
	noticeGen int

	el struct {
		body, boot, caption, banner, legend       js.Value
		picker, strategy, title, about, openFull  js.Value
		command, commandError, commandForm        js.Value
		notice, noticeText, noticeClose           js.Value
		crash, crashText, crashDetail, crashClose js.Value
	}
}

// idField is an element a panel keeps, and its id in index.html.
type idField struct {
	v  *js.Value
	id string
}

// byIDs finds the elements of a panel.
func byIDs(fields ...idField) {
	for _, f := range fields {
		*f.v = byID(f.id)
	}
}

func newApp() *app {
	a := &app{p: playground.New(), shown: -1}
	e := &a.el
	e.body = document.Get("body")
	byIDs(
		idField{&e.boot, "boot"}, idField{&e.caption, "caption"}, idField{&e.banner, "banner"}, idField{&e.legend, "legend"},
		idField{&e.picker, "scenario-picker"}, idField{&e.strategy, "strategy"}, idField{&e.title, "scenario-title"},
		idField{&e.about, "scenario-about"}, idField{&e.openFull, "open-full"},
		idField{&e.command, "command"}, idField{&e.commandError, "command-error"}, idField{&e.commandForm, "command-form"},
		idField{&e.notice, "notice"}, idField{&e.noticeText, "notice-text"}, idField{&e.noticeClose, "notice-close"},
		idField{&e.crash, "crash"}, idField{&e.crashText, "crash-text"}, idField{&e.crashDetail, "crash-detail"},
		idField{&e.crashClose, "crash-close"},
	)
	a.ed = newEditor(a)
	a.tl = newTimeline(a)
	a.d = newDrawing(a)
	a.ready = newReadyLine(a)
	a.dlq = newDLQList(a)
	a.con = newConsole(a)
	a.log = newEventLog(a)
	a.tally = newTally(a)
	a.clk = newClockPanel(a)
	a.share = newSharePanel(a)
	a.pop = newPopover(a)
	a.detail = newDetailPanel(a)
	a.practice = newPractice(a)
	a.interview = newInterview(a)
	a.live = newLiveView(a)
	a.steady = newSteady()
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
	a.tl.pause()
	loc := js.Global().Get("location")
	addr := playground.ReadAddress(loc.Get("search").String(), loc.Get("hash").String())
	if iv, ok, errs := trainer.ParseInterview(loc.Get("search").String(), loc.Get("hash").String()); ok {
		a.interview.open(iv) // beside the page, which shows what the rest of the address says
		defer func() {
			if len(errs) > 0 {
				a.notify(errors.Join(errs...).Error(), true)
			}
		}()
	}
	if addr.Link.Practice.On() {
		// The exercise checked: a link to one that is not is said, not
		// opened as the first without a word.
		pl, err := trainer.CheckLink(addr.Link.Practice)
		errs := addr.Errs
		if err != nil {
			errs = append(errs, err)
		}
		a.practice.open(pl, true)
		if notices := playground.LinkNotices(errs); len(notices) > 0 {
			a.notify(strings.Join(notices, " "), true)
		}
		return
	}
	if addr.Link.Live != "" {
		a.live.open(addr.Link.Live)
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
	a.ed.set(text)
	a.ed.setDirty(err != nil)
	if err != nil {
		a.ed.showError(err, text)
	} else {
		a.ed.clearError()
	}
	a.describe()
	a.ed.showStopped()
	a.render(false)
	afterPaint(a.runAhead)
}

// runAheadChunk is how many commands runAhead runs at a time: a few
// milliseconds in the browser.
const runAheadChunk = 250

// runAhead runs the commands of the script shown that have not run yet
// (session.New leaves those after the last submit for later), a
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
// changed are restyled, unless the graph was laid out again. The step is
// told in the page's text too (tell), unless play too fast to read draws
// it without (untold; the pause tells it).
func (a *app) render(animate bool) {
	start := now()
	a.flushScrolls()
	p := a.p
	s := p.Session()
	k := s.Cursor()
	animate = animate && k > 0 && a.shown == k-1
	// Read what the page looks like before changing it, so that the
	// reads cost no layout of their own.
	view := a.d.view()
	a.ed.readBox()
	var chips map[string]pos
	if animate {
		chips = a.ready.positions()
	}
	if a.pending != nil {
		a.pending()
		a.pending = nil
	}
	a.gen++
	a.pop.hide()

	relaid := a.d.draw(view, k, animate)
	if b := p.Banner(k, animate); b.Kind == "cycle" && (animate || k != a.shown) {
		a.d.flashCycle(b)
	} else if b.Kind != "" {
		a.showBanner(b.Kind, b.Text)
	}

	if a.untold && !relaid {
		a.told = false
	} else {
		a.tell(relaid, chips)
	}
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

// tell tells the step shown in the page's text, all of it (tellPart).
// chips are where the READY line's chips were before the step, when it is
// animated; relaid, that the graph was laid out again.
func (a *app) tell(relaid bool, chips map[string]pos) {
	for i := range tellParts {
		a.tellPart(i, relaid, chips)
	}
	a.told, a.tellAt = true, 0
}

// tellParts is how many parts telling a step is in: the READY line; the
// event log; the counts, the timeline and the clock; the dead-letter queue
// and its console, a task's detail, the editor's line and the caption.
// Each costs the browser about as much as the others.
const tellParts = 4

// tellPart tells part i of the step shown (see tellParts), and while play
// runs holds the height of what it changed (steady).
func (a *app) tellPart(i int, relaid bool, chips map[string]pos) {
	p := a.p
	s := p.Session()
	switch i {
	case 0:
		var events []core.Event
		if k := s.Cursor(); k > 0 {
			events = s.Step(k).Events
		}
		a.ready.render(chips, events)
	case 1:
		a.log.render(s, relaid)
	case 2:
		a.tally.render()
		a.tl.render()
		a.clk.render()
	case 3:
		a.dlq.render()
		a.con.render()
		a.detail.step()
		a.ed.markLine()
		c := p.Caption()
		setText(a.el.caption, "")
		if c.Where != "" {
			where := create("span", "where")
			setText(where, c.Where)
			appendTo(a.el.caption, where)
		}
		appendTo(a.el.caption, document.Call("createTextNode", c.Text))
		toggleClass(a.el.caption, "refused", c.Refused)
	}
	if a.tl.playing {
		a.steady.hold()
	}
}

// tellNext tells the next part of the step shown (tellParts, one a frame:
// playground.JobTell) and reports whether it was the last. Play draws no
// step while a tell is under way (playground.Frames), so that its parts
// tell one step; a pause tells the step it stops at whole (tellLate).
func (a *app) tellNext() bool {
	a.tellPart(a.tellAt, false, nil)
	a.tellAt = (a.tellAt + 1) % tellParts
	return a.tellAt == 0
}

// tellLate tells the step shown in the page's text if play drew it
// without (playground.Pace.Tells): when play pauses.
func (a *app) tellLate() {
	if !a.told {
		a.tell(false, nil)
	}
}

// setAddress makes the address bar say what is shown (step, strategy,
// script), without loading, so that a reload shows the same. It writes
// once the steps pause for a moment (addressPause), and not while play
// runs (the pause writes it): a shared script's address can be tens of
// kilobytes, and writing it costs the browser as much as a step.
func (a *app) setAddress() {
	loc := js.Global().Get("location")
	if a.p.Embedded() {
		// The embed's link to the full page follows every step at once.
		a.el.openFull.Set("href", loc.Get("origin").String()+loc.Get("pathname").String()+a.p.FullAddress())
	}
	a.addrGen++
	if a.tl.playing {
		return
	}
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

// pageAddress is what the address bar says: the practice link while
// practising, else what the page says.
func (a *app) pageAddress() string {
	if a.interview.on {
		return a.interview.iv.Query(a.interview.iv.Role)
	}
	if addr, ok := a.practice.address(); ok {
		return addr
	}
	return a.p.Address()
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

// runEditor runs the editor's script. A syntax error is shown at its line
// and column and changes nothing else.
func (a *app) runEditor() {
	a.tl.pause()
	a.unnotify()
	text := a.ed.text()
	if err := a.p.Run(text); err != nil {
		a.ed.showError(err, text)
		return
	}
	a.loaded(text, nil)
}

// undo takes back the last change of the script.
func (a *app) undo() {
	a.tl.pause()
	a.unnotify()
	if a.ed.dirty {
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
	a.tl.pause()
	a.unnotify()
	setHidden(a.el.commandError, true)
	if a.ed.dirty {
		a.commandError("The script has edits that have not run: press Run first (acting would drop them).")
		return false
	}
	out, err := a.p.Act(cmd)
	if err != nil {
		a.commandError(err.Error())
		return false
	}
	stageTop := a.d.el.scroller.Call("getBoundingClientRect").Get("top").Float()
	a.ed.set(a.p.Session().Text())
	a.describe()
	a.ed.scrollToEnd()
	a.render(true)
	a.keepStage(stageTop)
	if out.Notice != "" {
		a.notify(out.Notice, false)
	}
	return true
}

// keepStage scrolls the page by as much as an action moved the stage on
// the screen from top, where it was: a count or a caption that wraps to
// another line above it would move the task under a finger that acted on
// it. The read costs a layout, once an action.
func (a *app) keepStage(top float64) {
	if dy := a.d.el.scroller.Call("getBoundingClientRect").Get("top").Float() - top; dy != 0 {
		js.Global().Call("scrollBy", 0, dy)
	}
}

func (a *app) commandError(msg string) {
	setText(a.el.commandError, msg)
	setHidden(a.el.commandError, false)
}

// clickTask does what the page says a click on a task does, and shows
// the task's detail: what the click says when nothing can be done to the
// task goes in the detail panel, not in a notice over the page, where it
// could cover the drawing.
func (a *app) clickTask(name string, node js.Value) {
	a.unnotify()
	act := a.p.ClickTask(name)
	switch act.Do {
	case playground.DoCommand:
		a.act(act.Command)
		a.detail.open(name, "")
	case playground.DoPopover:
		a.pop.show(act.Popover, node)
		a.detail.open(name, "")
	case playground.DoNotice:
		if a.detail.shows() {
			a.detail.open(name, act.Notice)
		} else {
			a.notify(act.Notice, false)
		}
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
	a.placeNotice()
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
