//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/escape"
	"github.com/dagq/dagq/internal/playground"
	"honnef.co/go/js/dom/v2"
)

// detailPanel is a task's detail (playground.TaskDetail): opened by a
// click on a task, beside the popover that offers what can be done to it,
// and drawn again at every step while open. On a wide screen it heads the
// side column; on a phone it is a sheet at the bottom of the screen,
// closed by its ✕.
type detailPanel struct {
	a    *app
	task string // the task shown; "" while closed
	note string // what the click on it said, until the next step
	el   struct{ panel, title, body, close *dom.BasicHTMLElement }
}

func newDetailPanel(a *app) *detailPanel {
	d := &detailPanel{a: a}
	d.el.panel, d.el.title = elementByID("task-panel"), elementByID("task-panel-title")
	d.el.body, d.el.close = elementByID("task-panel-body"), elementByID("task-panel-close")
	return d
}

// wire makes the ✕ close the panel and a task named in it select that
// task.
func (d *detailPanel) wire() {
	listen(d.el.close, "click", func(ev *dom.BasicEvent) {
		ev.StopPropagation()
		d.close()
	})
	listen(d.el.body, "click", func(ev *dom.BasicEvent) {
		if b, ok := closest(ev, "button[data-task]"); ok {
			ev.StopPropagation()
			task := dataOf(b, "task")
			d.a.d.show(task)
			d.open(task, "")
		}
	})
}

// shows reports whether the page shows the panel at all: not in an
// embed, which shows only the drawing, nor in practice, where it would
// give the answers away.
func (d *detailPanel) shows() bool {
	return !d.a.p.Embedded() && d.a.practice.practice() == nil
}

// open shows a task's detail, with note, what a click on it said ("" for
// nothing).
func (d *detailPanel) open(task, note string) {
	if task == "" || !d.shows() {
		return
	}
	d.task, d.note = task, note
	d.render()
	d.place()
}

// place puts the panel, on a phone, where it covers neither its task in
// the drawing nor the task's popover (playground.PlaceSheet); on a wide
// screen it stays in the side column.
func (d *detailPanel) place() {
	style := d.el.panel.Style()
	phone := js.Global().Call("matchMedia", "(max-width: 760px)").Get("matches").Bool()
	if !phone {
		style.RemoveProperty("max-height")
		removeClass(d.el.panel.Underlying(), "at-top")
		return
	}
	top, bottom := -1.0, -1.0
	band := func(el js.Value) {
		if !el.Truthy() {
			return
		}
		r := el.Call("getBoundingClientRect")
		t, b := r.Get("top").Float(), r.Get("bottom").Float()
		if top < 0 || t < top {
			top = t
		}
		bottom = max(bottom, b)
	}
	band(document.Call("querySelector", `#graph g[data-task="`+cssString(d.task)+`"]`))
	if !isHidden(d.a.pop.el.popover) {
		band(d.a.pop.el.popover.Underlying())
	}
	screen := js.Global().Get("innerHeight").Float()
	if top < 0 {
		top, bottom = screen, screen
	}
	sh := playground.PlaceSheet(screen, top, bottom)
	style.SetProperty("max-height", px(sh.MaxHeight), "")
	toggleClass(d.el.panel.Underlying(), "at-top", sh.Top)
}

// close hides the panel.
func (d *detailPanel) close() {
	if d.task == "" {
		return
	}
	task := d.task
	inPanel := d.el.panel.Underlying().Call("contains", document.Get("activeElement")).Bool()
	d.task, d.note = "", ""
	d.mark("")
	hide(d.el.panel, true)
	removeClass(d.a.el.body, "detail-open")
	// The focus, if it was in the panel, goes back to the task rather
	// than to the page's body; anywhere else, it stays.
	if inPanel {
		d.a.d.focusTask(task)
	}
}

// step draws the panel at a new step: the click's note is stale there.
func (d *detailPanel) step() {
	d.note = ""
	d.render()
}

// render draws the task's detail at the step shown, if the panel is open.
func (d *detailPanel) render() {
	if d.task == "" {
		return
	}
	if !d.shows() {
		d.close()
		return
	}
	t := d.a.p.TaskDetail(d.task)
	if d.a.p.Live() != "" {
		// A live task's detail is the server's records: until they
		// come, the script's fold stands in.
		if live, ok := d.a.live.detail(d.task); ok {
			t = live
		}
	}
	title := `<span class="detail-name">` + escape.HTML(t.Task) + `</span> `
	if t.State != "" {
		st := render.StyleOf(t.State)
		title += `<span class="badge" data-state="` + string(t.State) + `">` + st.Icon + " " + st.Label + `</span>`
	} else {
		title += `<span class="muted">not submitted</span>`
	}
	d.el.title.SetInnerHTML(title)

	var b strings.Builder
	if d.note != "" {
		b.WriteString(`<p class="detail-note">` + escape.HTML(d.note) + `</p>`)
	}
	if fs := t.Facts(); len(fs) > 0 || t.Root != "" {
		b.WriteString(`<dl class="detail-facts">`)
		for _, f := range fs {
			b.WriteString(`<dt>` + escape.HTML(f.Label) + `</dt><dd>` + escape.HTML(f.Value) + `</dd>`)
		}
		if t.Root != "" {
			b.WriteString(`<dt>Root</dt><dd>`)
			neighbour(&b, playground.Neighbour{Task: t.Root, State: d.a.p.Session().State(t.Root)})
			b.WriteString(`</dd>`)
		}
		b.WriteString(`</dl>`)
	}
	if len(t.Attempts) > 0 {
		b.WriteString(`<h3>Attempts</h3><ol class="detail-attempts">`)
		for _, at := range t.Attempts {
			b.WriteString(`<li data-outcome="` + string(at.Outcome) + `"><b>` + escape.HTML(at.Label()) + `</b> ` + escape.HTML(at.Summary(t.Now, t.Timed)) + `</li>`)
		}
		b.WriteString(`</ol>`)
	} else if t.State != "" {
		b.WriteString(`<p class="muted detail-none">Not handed out yet.</p>`)
	}
	neighbours(&b, "Waits on", "detail-waits", t.WaitsOn)
	neighbours(&b, "Waited on by", "detail-waited", t.WaitedOnBy)
	for _, kv := range [][2]string{{"Arguments", t.Args}, {"Result", t.Result}} {
		if kv[1] != "" {
			b.WriteString(`<h3>` + kv[0] + `</h3><pre class="detail-data">` + escape.HTML(kv[1]) + `</pre>`)
		}
	}
	d.el.body.SetInnerHTML(b.String())
	setDataset(d.el.panel, "task", t.Task)
	setDataset(d.el.panel, "state", string(t.State))
	setDataset(d.el.panel, "attempts", strconv.Itoa(len(t.Attempts)))
	d.mark(t.Task)
	if isHidden(d.el.panel) {
		hide(d.el.panel, false)
		addClass(d.a.el.body, "detail-open")
	}
}

// neighbours writes a list of tasks next to the one shown, each a button
// that selects it; nothing for none.
func neighbours(b *strings.Builder, heading, class string, ns []playground.Neighbour) {
	if len(ns) == 0 {
		return
	}
	b.WriteString(`<h3>` + heading + ` <small>` + strconv.Itoa(len(ns)) + `</small></h3><ul class="detail-tasks ` + class + `">`)
	for i, n := range ns {
		if i == maxNeighbours {
			b.WriteString(`<li class="muted">and ` + strconv.Itoa(len(ns)-i) + ` more</li>`)
			break
		}
		b.WriteString(`<li>`)
		neighbour(b, n)
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ul>`)
}

// maxNeighbours is the most tasks listed on either side: a task that
// 1,000 tasks wait on lists the first of them and counts the rest.
const maxNeighbours = 50

// neighbour writes a button that selects a task, in its state's colours.
func neighbour(b *strings.Builder, n playground.Neighbour) {
	label := "not submitted"
	if n.State != "" {
		label = render.StyleOf(n.State).Label
	}
	b.WriteString(`<button type="button" class="chip" data-task="` + escape.HTML(n.Task) + `" data-state="` + string(n.State) + `" title="` + escape.HTML(n.Task) + ` is ` + label + `: show its detail">` +
		escape.HTML(n.Task) + ` <small>` + label + `</small></button>`)
}

// mark outlines the task shown in the drawing (none for "").
func (d *detailPanel) mark(task string) {
	for _, g := range nodeList(document.Call("querySelectorAll", "#graph g.task.picked")) {
		if g.Get("dataset").Get("task").String() != task {
			g.Get("classList").Call("remove", "picked")
		}
	}
	if task == "" {
		return
	}
	if g := document.Call("querySelector", `#graph g[data-task="`+cssString(task)+`"]`); g.Truthy() {
		addClass(g, "picked")
	}
}
