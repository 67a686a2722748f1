package playground

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/session"

	"github.com/dagq/dagq/internal/wording"
)

// Caption is the sentence under the drawing: where the step is in the
// script ("step 4 · line 7"; "" at step 0) and what it did ([Explain]).
type Caption struct {
	Where, Text string
	Refused     bool // the step's command was refused
}

// Caption returns the caption of the step shown.
func (p *Page) Caption() Caption {
	s := p.s
	k := s.Cursor()
	c := Caption{Text: Explain(s, k)}
	if k > 0 {
		st := s.Step(k)
		c.Where = "step " + strconv.Itoa(k) + " · line " + strconv.Itoa(st.Command.Line)
		c.Refused = !st.OK
	}
	if v := p.shownPreview(); v != nil {
		c.Text, c.Refused = v.text, false
	}
	return c
}

// Timeline is what the timeline shows: the step, how many there are, the
// label, and which buttons can be pressed.
type Timeline struct {
	Step, Len int
	Label     string // "step 4 / 16"
	// LabelWidth is the label's length in characters at its widest, at
	// the last step: room kept for it, the timeline's controls do not
	// move as the step's number grows.
	LabelWidth             int
	CanBack, CanForward    bool
	SliderMax, SliderValue string // the range input's max and value
	CanUndo                bool
}

// Timeline returns the timeline at the step shown.
func (p *Page) Timeline() Timeline {
	k, n := p.s.Cursor(), p.s.Len()
	return Timeline{
		Step: k, Len: n,
		Label:      "step " + strconv.Itoa(k) + " / " + strconv.Itoa(n),
		LabelWidth: len("step  / ") + 2*len(strconv.Itoa(n)),
		CanBack:    k > 0, CanForward: k < n,
		SliderMax: strconv.Itoa(n), SliderValue: strconv.Itoa(k),
		CanUndo: p.CanUndo(),
	}
}

// Visits says how many edges the cycle check examined: for the submit of
// the step shown, and in all up to it.
type Visits struct {
	Count string // the count of this step's submit, or "—"
	Note  string // "edges examined by this submit · 12 in all so far with twoway" ("edge" under a 1)
	Total uint64
}

// visitsKey is the run whose visit counts the page keeps: a session is
// run again in place when its strategy changes, or its script.
type visitsKey struct {
	s              *session.Session
	text, strategy string
}

// Visits returns the cycle check's counts at the step shown. The totals
// are kept per run (session, script and strategy) up to the furthest step
// shown, so that it costs O(1) a step once computed, and asks nothing of
// the steps after it.
func (p *Page) Visits() Visits {
	s := p.s
	k := s.Cursor()
	if key := (visitsKey{s, s.Text(), s.Strategy()}); p.visitsFor != key || len(p.visits) > s.Len()+1 {
		p.visits, p.visitsFor = []uint64{0}, key
	}
	for j := len(p.visits); j <= k; j++ {
		v, _ := s.Visits(j)
		p.visits = append(p.visits, p.visits[j-1]+v)
	}
	total := p.visits[k]
	tail := " · " + strconv.FormatUint(total, 10) + " in all so far with " + s.Strategy()
	if v, ok := s.Visits(k); ok {
		// The count is drawn above the note: "1" over "edge examined".
		edges := "edges"
		if v == 1 {
			edges = "edge"
		}
		return Visits{Count: strconv.FormatUint(v, 10), Note: edges + " examined by this submit" + tail, Total: total}
	}
	return Visits{Count: "—", Note: "this step is not a submit" + tail, Total: total}
}

// Chip is a task of the READY line as shown.
type Chip struct {
	Task, Title string
	Front       bool
}

// ReadyLine returns the READY line at the step shown, front first:
// collapsed, its first [ReadyCollapsed] chips and a toggle that says how
// many more wait ("+57 more"); open, up to [ReadyOpen] chips and a toggle
// to collapse it ("show fewer"). The toggle is "" when there is nothing to
// open or collapse. While practising ([Page.ShowPractice]) the line's
// tasks are listed by name, none marked as its front: a question may ask
// which task next hands out, and the order would answer it
// ([Page.ReadyOrder] says which order is shown).
func (p *Page) ReadyLine(open bool) (chips []Chip, toggle string) {
	line := p.s.Ready()
	if p.practising {
		line = slices.Sorted(slices.Values(line))
	}
	limit := ReadyCollapsed
	if open {
		limit = ReadyOpen
	}
	shown := line[:min(len(line), limit)]
	chips = make([]Chip, len(shown))
	for i, t := range shown {
		switch {
		case p.practising:
			chips[i] = Chip{Task: t, Title: t + " — READY"}
		case i == 0:
			chips[i] = Chip{Task: t, Front: true, Title: t + " — front of the line: next hands it out (click)"}
		default:
			chips[i] = Chip{Task: t, Title: t + " — number " + strconv.Itoa(i+1) + " in line"}
		}
	}
	return chips, collapseToggle(open, len(line), len(shown), ReadyCollapsed)
}

// ReadyOrder says in which order [Page.ReadyLine] lists the READY tasks,
// for the line's heading: front first, or by name while practising.
func (p *Page) ReadyOrder() string {
	if p.practising {
		return "by name while you practise"
	}
	return "front first"
}

// collapseToggle is the toggle of a list of total entries that lists shown
// of them, collapsed listing collapsed: "+N more" to open it, "show fewer"
// to collapse it (saying how many are still not listed), "" when there is
// nothing to open or collapse.
func collapseToggle(open bool, total, shown, collapsed int) string {
	switch n := total - shown; {
	case !open && n > 0:
		return "+" + strconv.Itoa(n) + " more"
	case open && total > collapsed:
		if n > 0 {
			return "show fewer (" + strconv.Itoa(n) + " more not listed)"
		}
		return "show fewer"
	}
	return ""
}

// DLQRow is an entry of the dead-letter queue as shown.
type DLQRow struct {
	session.DLQEntry
	Badge      string // the state's icon and label
	BlocksText string // a DEAD task's "blocks 3 tasks" or "blocks nothing"; "" for BLOCKED
	Button     *Button
}

// DLQ returns the dead-letter queue at the step shown, in order of entry;
// each DEAD entry has a redrive button, a forced one for a poisoned task. Like the READY line, collapsed it
// lists its first [DLQCollapsed] entries and a toggle that says how many
// more there are ("+432 more"), so that an outage of hundreds does not
// push the rest of the page thousands of pixels down; open, up to
// [DLQOpen] and a toggle to collapse it ("show fewer"). The toggle is ""
// when there is nothing to open or collapse.
//
// The cost is O(entries listed).
func (p *Page) DLQ(open bool) (rows []DLQRow, toggle string) {
	dlq := p.s.DLQ()
	limit := DLQCollapsed
	if open {
		limit = DLQOpen
	}
	shown := dlq[:min(len(dlq), limit)]
	rows = make([]DLQRow, len(shown))
	var poisoned map[string]bool
	for _, d := range shown {
		if d.State == core.Dead {
			poisoned = p.poisoned()
			break
		}
	}
	for i, d := range shown {
		st := render.StyleOf(d.State)
		rows[i] = DLQRow{DLQEntry: d, Badge: st.Icon + " " + st.Label}
		if d.State == core.Dead {
			rows[i].BlocksText = "blocks nothing"
			if d.Blocks > 0 {
				rows[i].BlocksText = "blocks " + wording.Plural(d.Blocks, "task")
			}
			b := redriveButton(poisoned[d.Task], "small")
			b.Label = strings.TrimPrefix(b.Label, "↻ ")
			rows[i].Button = &b
		}
	}
	return rows, collapseToggle(open, len(dlq), len(shown), DLQCollapsed)
}

// Count is how many tasks are in a state.
type Count struct {
	State core.State
	N     int
}

// Counts returns how many tasks are in each state at the step shown, in
// the order of [core.States], states with none left out, and how many
// tasks the whole script submits.
//
// The cost is O(states).
func (p *Page) Counts() (counts []Count, all int) {
	for _, st := range core.States() {
		if n := p.s.Count(st); n > 0 {
			counts = append(counts, Count{st, n})
		}
	}
	return counts, len(p.s.GraphAt(StepEnd))
}

// OfAll says how many tasks the whole script submits, after the counts
// of the states: "of 1 task", "of 444 tasks".
func OfAll(all int) string { return "of " + wording.Plural(all, "task") }

// GhostLabel is the label of a task not submitted at the step shown.
const GhostLabel = "◌ NOT SUBMITTED"

// TaskView is how a task is drawn: its state ("" for a ghost), the label
// under its name, its tooltip and its accessible name.
type TaskView struct {
	Name  string
	State core.State
	Label string // "✗ DEAD", "⛔ BLOCKED by a"
	Tip   string // "b: BLOCKED (blocked by a)"
	Aria  string // the tooltip and what a click does
}

// Task returns how a task is drawn at the step shown; reason is its DLQ
// reason ("" if none), from [Page.Reasons].
func (p *Page) Task(name string, reason string) TaskView {
	return p.TaskAs(name, p.s.State(name), reason)
}

// TaskAs returns how a task is drawn in a state, as an animation shows it
// on its way through a step. The cost is O(1) once the READY line's front
// is known at the step shown.
func (p *Page) TaskAs(name string, st core.State, reason string) TaskView {
	v := TaskView{Name: name, State: st}
	if st == "" {
		v.Label = GhostLabel
		v.Tip = name + ": not submitted"
		v.Aria = v.Tip
		return v
	}
	style := render.StyleOf(st)
	v.Label = style.Icon + " " + style.Label
	if root, ok := strings.CutPrefix(reason, "blocked by "); ok && st == core.Blocked && len(root) <= 8 {
		v.Label += " by " + root
	}
	v.Tip = name + ": " + string(st)
	if reason != "" {
		v.Tip += " (" + reason + ")"
	}
	v.Aria = v.Tip
	switch st {
	case core.Ready:
		if !p.practising && p.frontOfLine() == name {
			v.Aria += "; press Enter to hand it out"
		}
	case core.Running:
		v.Aria += "; press Enter to complete or fail it"
	case core.Dead:
		v.Aria += "; press Enter to redrive it"
	}
	return v
}

// frontOfLine returns the front of the READY line at the step shown,
// read once a step.
func (p *Page) frontOfLine() string {
	if p.frontFor != p.s || p.frontAt != p.s.Cursor() {
		p.frontFor, p.frontAt, p.front = p.s, p.s.Cursor(), ""
		if line := p.s.Ready(); len(line) > 0 {
			p.front = line[0]
		}
	}
	return p.front
}

// Reasons returns the DLQ reason of every task in the dead-letter queue at
// the step shown.
func (p *Page) Reasons() map[string]string {
	dl := p.s.DLQ()
	m := make(map[string]string, len(dl))
	for _, d := range dl {
		m[d.Task] = d.Reason
	}
	return m
}

// Changed returns the tasks whose drawing may differ between step from
// and step to (either order): the tasks of the events of the steps in
// between, each once, in the order of those events. Only they need
// restyling; the rest of the drawing stays.
//
// The cost is O(events between the steps).
func (p *Page) Changed(from, to int) []string {
	s := p.s
	from, to = clamp(from, s.Len()), clamp(to, s.Len())
	if from > to {
		from, to = to, from
	}
	seen := map[string]bool{}
	var out []string
	for k := from + 1; k <= to; k++ {
		for _, e := range s.Step(k).Events {
			if e.Kind == core.EventRejected || seen[e.Task] {
				continue
			}
			seen[e.Task] = true
			out = append(out, e.Task)
		}
	}
	return out
}

func clamp(k, n int) int {
	if k == StepEnd || k > n {
		return n
	}
	return max(k, 0)
}

// Focus returns the tasks to bring into view when following the action
// at step k: those the step changed, or the tasks of a refused cycle, or
// the task its command names. A step about no task (a next with nothing
// READY, a setting) focuses on the latest step before it that is about
// one; nil if none is.
//
// The cost is O(events of the steps looked at).
func (p *Page) Focus(k int) []string {
	s := p.s
	for k = min(k, s.Len()); k >= 1; k-- {
		if c := s.Cycle(k); c != nil {
			return slices.Compact(slices.Clone(c))
		}
		if t := p.Changed(k-1, k); len(t) > 0 {
			return t
		}
		if t := s.Step(k).Command.Task; t != "" {
			return []string{t}
		}
	}
	return nil
}

// Visited returns the tasks the cycle check of step k reached, to be
// highlighted beside the visit count; nil if step k is not a submit.
func (p *Page) Visited(k int) map[string]bool {
	visited := p.s.Visited(k)
	if len(visited) == 0 {
		return nil
	}
	m := make(map[string]bool, len(visited))
	for _, t := range visited {
		m[t] = true
	}
	return m
}

// Banner is what to name over the drawing for a moment: a refused cycle, or
// the root of a blocking or releasing wave.
type Banner struct {
	Kind  string   // "cycle", "dead" or "release"; "" for nothing
	Text  string   // e.g. "blocked by a: b, c, d — nearest first"
	Cycle []string // the cycle, for a refused submit
}

// Banner returns what to name over the drawing for step k: a refused
// cycle; or, when stepped onto (wave), the death or redrive and the tasks
// it blocked or released.
func (p *Page) Banner(k int, wave bool) Banner {
	s := p.s
	if cycle := s.Cycle(k); cycle != nil {
		return Banner{Kind: "cycle", Text: "cycle: " + strings.Join(cycle, " -> ") + " — refused, nothing changed", Cycle: cycle}
	}
	if !wave || k < 1 || k > s.Len() {
		return Banner{}
	}
	// A step may kill or redrive several tasks (a batch of a paced
	// redrive, leases that expire together): the banner names them all,
	// not the last as the cause of every task released.
	var kind string
	var dead, redriven, blockers, tasks []string
	for _, e := range s.Step(k).Events {
		switch e.Kind {
		case core.EventDead:
			dead, kind = append(dead, e.Task), "dead"
		case core.EventRedriven:
			redriven, kind = append(redriven, e.Task), "release"
		case core.EventBlocked:
			if !slices.Contains(blockers, e.Root) {
				blockers = append(blockers, e.Root)
			}
			tasks = append(tasks, e.Task)
		case core.EventUnblocked:
			tasks = append(tasks, e.Task)
		}
	}
	if kind == "" && len(blockers) > 0 {
		dead, kind = blockers, "dead"
	}
	switch {
	case kind == "dead" && len(tasks) > 0:
		return Banner{Kind: "dead", Text: "blocked by " + wording.Names(dead, 3) + ": " + wording.Names(tasks, 6) + " — nearest first"}
	case kind == "dead":
		return Banner{Kind: "dead", Text: wording.Names(dead, 3) + " " + wording.IsAre(len(dead)) + " DEAD"}
	case kind == "release" && len(tasks) > 0:
		return Banner{Kind: "release", Text: "redrive " + wording.Names(redriven, 3) + ": " + wording.Names(tasks, 6) + " released"}
	}
	return Banner{}
}

// LogLimit is how many lines of the event log the page lists: some pages
// of the panel's fifteen lines to scroll back through (the timeline reaches
// the rest). Each listed line is laid out at a step that brings as many
// (wide-1000's release of its shards lists the last LogLimit of its 1,000
// lines), so the limit bounds that step's layout.
const LogLimit = 100

// Log returns the event log up to the step shown, the last [LogLimit]
// lines, and what to say of the lines left out ("" for none).
func (p *Page) Log() (lines []session.LogEntry, more string) {
	lines, omitted := p.s.Log(LogLimit)
	if omitted > 0 {
		more = wording.Plural(omitted, "earlier line") + " not shown"
	}
	return lines, more
}

// LogSince returns the log lines of the steps after from up to the one
// shown, to be added at the end of the log drawn for step from, and what
// to say then of the lines left out of the whole log (as [Page.Log] says
// it). Steps of more than [LogLimit] lines in all give their last
// LogLimit: the whole log then. Play that skips steps, on a slow frame,
// adds the lines of all it skipped. A from at or after the step shown gives
// no lines.
//
// The cost is O(steps up to the one shown + min(their lines, LogLimit)).
func (p *Page) LogSince(from int) (lines []session.LogEntry, more string) {
	s := p.s
	k := s.Cursor()
	if k == 0 || from >= k {
		return nil, ""
	}
	n := 0
	for j := k; j > max(from, 0) && n < LogLimit; j-- {
		n += max(1, len(s.Step(j).Events))
	}
	lines, omitted := s.Log(min(LogLimit, n))
	if total := omitted + len(lines); total > LogLimit {
		more = wording.Plural(total-LogLimit, "earlier line") + " not shown"
	}
	return lines, more
}

// LogBack returns how to turn the log drawn for the step after the one
// shown (drawn lines, as [Page.Log] gave them there) into the log of the
// step shown, when stepping back by one: remove the last remove lines (the
// step undone), then put prepend before the rest (the earlier lines that
// come back into the last [LogLimit]); more is what Log says of the lines
// left out. It spares the page drawing the whole log again.
//
// The cost is O(LogLimit).
func (p *Page) LogBack(drawn int) (remove int, prepend []session.LogEntry, more string) {
	s := p.s
	k := s.Cursor()
	lines, more := p.Log()
	if k >= s.Len() {
		return drawn, lines, more
	}
	remove = min(drawn, max(1, len(s.Step(k+1).Events)))
	keep := min(drawn-remove, len(lines))
	return remove, lines[:len(lines)-keep], more
}

// Seek moves to step k ([StepEnd] for the last), as the timeline's
// slider, buttons and keys and a click on a log line do; it returns the
// step shown.
func (p *Page) Seek(k int) int { return p.s.Seek(k) }

// SeekTo moves to the step a control gives as text (the slider's value,
// a log line's data-step): a whole number, or "end". It reports false,
// not moving, for anything else.
func (p *Page) SeekTo(v string) bool {
	k, ok := ParseStep(v)
	if !ok {
		return false
	}
	p.s.Seek(k)
	return true
}

// StartPlay readies the page to play: from the last step, play starts
// again at step 0. It reports whether the step shown changed.
func (p *Page) StartPlay() bool {
	if p.s.Len() > 0 && p.s.Cursor() == p.s.Len() {
		p.s.Seek(0)
		return true
	}
	return false
}
