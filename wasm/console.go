//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/internal/escape"
	"honnef.co/go/js/dom/v2"
)

// console is the operator's console above the dead-letter queue
// (playground.Console): the growth alert while it is raised, a card per
// root cause with its count, a bar of what it holds up and its buttons,
// and the tasks that need a person.
type console struct {
	a      *app
	group  int          // the root-cause group selected, from 1; 0 for none
	markup string       // the console drawn: its markup, and whether and why its buttons are disabled
	marked []markedTask // the tasks of the drawing marked, to unmark at the next drawing
	el     struct{ console *dom.BasicHTMLElement }
}

// markedTask is a task of the drawing the console marked with a class.
type markedTask struct {
	el    js.Value
	class string
}

func newConsole(a *app) *console {
	c := &console{a: a}
	c.el.console = elementByID("dlq-console")
	return c
}

// render draws the console; it marks in the drawing the selected group's
// tasks and, at a preview step, what the redrive would move.
func (con *console) render() {
	a := con.a
	c := a.p.Console()
	var b strings.Builder
	if c.Alert != "" {
		b.WriteString(`<p class="dlq-alert" role="alert">` + escape.HTML(c.Alert) + `</p>`)
	}
	if pr := c.Paced; pr != nil {
		b.WriteString(`<div class="paced" role="status"><span class="paced-progress">` + escape.HTML(pr.Label) + `</span>`)
		if pr.Next != "" {
			b.WriteString(`<button type="button" data-command="` + escape.HTML(pr.Next) + `" title="` + escape.HTML(pr.Next) + `">Next batch ▸</button>`)
		}
		b.WriteString(`<button type="button" data-command="` + escape.HTML(pr.Cancel) + `" title="` + escape.HTML(pr.Cancel) + `">Cancel</button>`)
		b.WriteString(`<span class="refused-why">Redrive is disabled meanwhile. ` + escape.HTML(pr.Why) + `</span></div>`)
	}
	if con.group > len(c.Groups) {
		con.group = 0
	}
	for _, g := range c.Groups {
		n := strconv.Itoa(g.Number)
		selected := ""
		if g.Number == con.group {
			selected = " selected"
		}
		b.WriteString(`<div class="dlq-group` + selected + `" data-group="` + n + `">`)
		b.WriteString(`<button type="button" class="plain group-head" data-select="` + n + `" aria-pressed="` + strconv.FormatBool(selected != "") + `" title="Show its tasks in the drawing">`)
		b.WriteString(`<b>#` + n + `</b> <code>` + escape.HTML(g.Fingerprint) + `</code></button>`)
		b.WriteString(`<span class="group-count">` + strconv.Itoa(g.Count) + ` dead · blocks ` + strconv.Itoa(g.BlastRadius) + `</span>`)
		b.WriteString(`<span class="blast" aria-hidden="true"><span style="width:` + strconv.FormatFloat(100*g.Bar, 'f', 1, 64) + `%"></span></span>`)
		b.WriteString(`<span class="group-actions">`)
		b.WriteString(`<button type="button" data-preview="` + escape.HTML(g.Preview) + `" title="` + escape.HTML(g.Preview) + `: marks what would move, changes nothing">Preview</button>`)
		for _, btn := range [][2]string{{g.Redrive, "Redrive"}, {g.RedriveAtRate, g.RateLabel}} {
			if g.Refused != "" {
				b.WriteString(`<button type="button" disabled title="` + escape.HTML(g.Refused) + `">` + escape.HTML(btn[1]) + `</button>`)
				continue
			}
			b.WriteString(`<button type="button" data-command="` + escape.HTML(btn[0]) + `" title="` + escape.HTML(btn[0]) + `">` + escape.HTML(btn[1]) + `</button>`)
		}
		b.WriteString(`</span></div>`)
	}
	if len(c.Poisoned) > 0 {
		b.WriteString(`<div class="needs-human"><b>Needs a human</b> (redriven too often; bulk redrive skips them): `)
		for i, t := range c.Poisoned {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`<button type="button" class="small" data-command="` + escape.HTML(c.Force[i]) + `" title="Force a redrive: ` + escape.HTML(c.Force[i]) + `">↻ ` + escape.HTML(t) + `</button>`)
		}
		b.WriteString(`</div>`)
	}
	disable := a.p.Live() != "" && !a.live.canAct
	if key := b.String() + "\x00" + strconv.FormatBool(disable) + a.live.why; key != con.markup {
		con.markup = key
		rewrite(con.el.console.Underlying(), b.String())
		if disable {
			// A page that may not act says why on each button that would.
			for _, btn := range nodeList(con.el.console.Underlying().Call("querySelectorAll", "button[data-command]")) {
				btn.Set("disabled", true)
				btn.Set("title", a.live.why)
			}
		}
	}

	for _, m := range con.marked {
		removeClass(m.el, m.class)
	}
	con.marked = con.marked[:0]
	mark := func(tasks []string, cls string) {
		for _, t := range tasks {
			if g, ok := a.d.g.drawnTask(t); ok {
				addClass(g, cls)
				con.marked = append(con.marked, markedTask{g, cls})
			}
		}
	}
	if con.group > 0 {
		g := c.Groups[con.group-1]
		mark(g.Tasks, "selected")
		mark(g.Blocked, "selected")
	}
	redrive, release := a.p.PreviewMarks()
	mark(redrive, "would-redrive")
	mark(release, "would-release")
}

// markPreview marks in the drawing what a live preview would redrive and
// release, until the next drawing.
func (con *console) markPreview(redrive, release []string) {
	for _, l := range []struct {
		tasks []string
		cls   string
	}{{redrive, "would-redrive"}, {release, "would-release"}} {
		for _, t := range l.tasks {
			if g, ok := con.a.d.g.drawnTask(t); ok {
				addClass(g, l.cls)
				con.marked = append(con.marked, markedTask{g, l.cls})
			}
		}
	}
}

// wire makes the console's buttons act: a command runs at the step
// shown; a group's head selects it (again: unselects).
func (con *console) wire() {
	a := con.a
	listen(con.el.console, "click", func(ev *dom.BasicEvent) {
		if a.p.Live() != "" {
			// A live DAG's console asks its server.
			if btn, ok := closest(ev, "button[data-preview]"); ok {
				a.live.request(dataOf(btn, "preview"))
				return
			}
			if btn, ok := closest(ev, "button[data-command]"); ok {
				a.live.request(dataOf(btn, "command"))
				return
			}
		}
		if btn, ok := closest(ev, "button[data-preview]"); ok {
			// A preview changes nothing: not the script, not its later steps.
			a.unnotify()
			setHidden(a.el.commandError, true)
			if err := a.p.Preview(dataOf(btn, "preview")); err != nil {
				a.commandError(err.Error())
				return
			}
			a.render(false)
			return
		}
		if btn, ok := closest(ev, "button[data-command]"); ok {
			a.act(dataOf(btn, "command"))
			return
		}
		if head, ok := closest(ev, "button[data-select]"); ok {
			n, _ := strconv.Atoi(dataOf(head, "select"))
			if con.group == n {
				n = 0
			}
			con.group = n
			con.render()
		}
	})
}
