package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
)

// Format is how a trace is written: [Text] for people, [JSON] for programs.
type Format uint8

// The formats of a trace.
const (
	Text Format = iota // see [WriteText]
	JSON               // see [WriteJSON]
)

// formatter turns a run into the bytes of its trace, a step at a time:
// begin, step for each step in order, then end. It keeps what the closing
// lines or later steps need: O(tasks), never O(steps).
//
// step and end hand what they have appended to spill after every part
// of a line (a task's state, a dead letter, an event, a line of the
// summary), so that no line is built whole before its size is checked:
// spill may write the bytes out and return dst emptied, or refuse a line
// that went past the output limit with errOverLimit, which step returns.
type formatter interface {
	begin(dst []byte, strategy string, attempts int) []byte
	step(dst []byte, st Step, spill spillFunc) ([]byte, error)
	// end appends the closing lines; stop is nil, the *ExpectError or the
	// *LimitError that stopped the run.
	end(dst []byte, stop error, spill spillFunc) ([]byte, error)
}

// spillFunc is given a line being built (see formatter) and returns it,
// or what is left of it once written out, or an error that stops it.
type spillFunc func(dst []byte) ([]byte, error)

// errOverLimit is a line refused by a spillFunc: it would go past the
// output limit.
var errOverLimit = errors.New("scenario: the trace would go past its output limit")

// spillAt returns a spillFunc that writes dst to w once it holds n bytes
// or more, and returns it emptied: a trace written with it holds at most
// about n bytes of a line in memory, however long the line.
func spillAt(w io.Writer, n int) spillFunc {
	return func(dst []byte) ([]byte, error) {
		if len(dst) < n {
			return dst, nil
		}
		_, err := w.Write(dst)
		return dst[:0], err
	}
}

// spillChunk is how much of a line a trace without an output limit
// gathers before writing it out.
const spillChunk = 64 << 10

// newFormatter returns the formatter of f; lastLine is the line of the
// script's last command, which sets the width of the text trace's margin.
func newFormatter(f Format, lastLine int) formatter {
	if f == JSON {
		return &jsonFormatter{j: newJSONWriter()}
	}
	return newTextFormatter(lastLine)
}

// writeTrace writes t whole with f.
func writeTrace(w io.Writer, t *Trace, f formatter) error {
	bw := bufio.NewWriter(w)
	spill := spillAt(bw, bw.Size())
	buf := f.begin(nil, t.Strategy, t.Attempts)
	for _, st := range t.Steps {
		var err error
		if buf, err = f.step(buf, st, spill); err != nil {
			return err
		}
	}
	buf, err := f.end(buf, nil, spill)
	if err != nil {
		return err
	}
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteText writes a trace for people to read. It opens with the strategy
// and max attempts, then gives each step as its line number and command
// text, and under it, indented, what happened: one line per event, or
// "error: …" for a refused operation, "handed out nothing" for a next with
// nothing READY, "ok: …" for an expect that held. It ends with a summary:
// the tasks counted by state, the refused operations and the dead-letter
// queue with each entry's reason. The summary is folded from the events, as
// a [Board]. Control characters in the script's text (an error text, say)
// are written escaped, as \x1b, so that a trace cannot drive a terminal.
func WriteText(w io.Writer, t *Trace) error {
	maxLine := 0
	for _, st := range t.Steps {
		maxLine = max(maxLine, st.Command.Line)
	}
	return writeTrace(w, t, newTextFormatter(maxLine))
}

// linesListed is how many line numbers the text summary lists for the
// refused operations or failed expects; it counts the rest.
const linesListed = 20

// textFormatter writes the text trace (see [WriteText]).
type textFormatter struct {
	width    int    // of the margin that holds "L12"
	indent   string // of the lines under a command
	strategy string
	attempts int
	b        Board
	refused  lineCount
	failed   lineCount
}

// lineCount is a count of lines, the first linesListed of them kept.
type lineCount struct {
	n     int
	lines []string
}

func (c *lineCount) add(line int) {
	c.n++
	if len(c.lines) < linesListed {
		c.lines = append(c.lines, strconv.Itoa(line))
	}
}

// String returns "line 4", "lines 4, 9" or "lines 4, 9, … and 12 more".
func (c *lineCount) String() string {
	if c.n == 1 {
		return "line " + c.lines[0]
	}
	s := "lines " + strings.Join(c.lines, ", ")
	if more := c.n - len(c.lines); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

func newTextFormatter(lastLine int) *textFormatter {
	width := len("L" + strconv.Itoa(lastLine))
	return &textFormatter{width: width, indent: strings.Repeat(" ", width+4)}
}

func (f *textFormatter) begin(dst []byte, strategy string, attempts int) []byte {
	f.strategy, f.attempts = strategy, attempts
	return fmt.Appendf(dst, "strategy %s, max attempts %d\n", strategy, attempts)
}

func (f *textFormatter) step(dst []byte, st Step, spill spillFunc) ([]byte, error) {
	c := st.Command
	text := c.Text
	if text == "" {
		text = c.String()
	}
	dst = fmt.Appendf(dst, "\n%-*s  ", f.width, "L"+strconv.Itoa(c.Line))
	dst = appendPrintable(dst, text)
	dst = append(dst, '\n')
	for _, e := range st.Events {
		f.b.Apply(e)
	}
	var err error
	if dst, err = spill(dst); err != nil {
		return dst, err
	}
	note := func(s string) {
		if err != nil {
			return
		}
		dst = append(dst, f.indent...)
		dst = appendPrintable(dst, s)
		dst = append(dst, '\n')
		dst, err = spill(dst)
	}
	switch {
	case c.Op == OpExpect && st.OK:
		note(fmt.Sprintf("ok: %s is %s", c.Task, st.State))
	case c.Op == OpExpect:
		f.failed.add(c.Line)
		if st.State == "" {
			note(fmt.Sprintf("expect failed: %s was never submitted", c.Task))
		} else {
			note(fmt.Sprintf("expect failed: %s is %s", c.Task, st.State))
		}
	case !st.OK:
		f.refused.add(c.Line)
		note("error: " + st.Err)
	case c.Op == OpNext && st.Task == "":
		note("handed out nothing")
	case c.Op == OpAttempts:
		note(fmt.Sprintf("a task gets at most %s", plural(f.attempts, "attempt")))
	case c.Op == OpStrategy && c.Strategy != f.strategy:
		note(fmt.Sprintf("overridden: the run checks cycles with %s", f.strategy))
	case c.Op == OpStrategy:
		note("cycles are checked with " + f.strategy)
	case c.Op == OpLease:
		note("a lease expires " + FormatDuration(c.Dur) + " after hand-out or heartbeat")
	case c.Op == OpBackoff:
		note(fmt.Sprintf("a retry waits %s, times %s each attempt, at most %s", FormatDuration(c.Dur),
			strconv.FormatFloat(c.Factor, 'g', -1, 64), FormatDuration(c.Max)))
	case c.Op == OpJitter:
		note(fmt.Sprintf("retry delays are jittered: %s, seed %d", c.Jitter, c.Seed))
	case c.Op == OpPoison:
		note(fmt.Sprintf("a task redriven %s that dies again is poisoned: only redrive! moves it", plural(c.N, "time")))
	case c.Op == OpAlert:
		note(fmt.Sprintf("an alert when %s enter the dead-letter queue within %s", plural(c.N, "task"), FormatDuration(c.Dur)))
	case c.Op == OpPreview:
		for _, s := range previewLines(st.Preview) {
			note(s)
		}
	case c.Op == OpDLQ:
		for _, s := range dlqLines(&f.b) {
			note(s)
		}
	default:
		for _, e := range st.Events {
			note(e.String())
		}
		if c.Op == OpAdvance {
			if len(st.Events) == 0 {
				note("nothing fell due")
			}
			note("clock " + FormatDuration(st.Now))
		}
	}
	return dst, err
}

func (f *textFormatter) end(dst []byte, stop error, spill spillFunc) ([]byte, error) {
	dst = append(dst, '\n')
	b := &f.b
	tasks := b.Tasks()
	if len(tasks) == 0 {
		dst = append(dst, "end: no tasks\n"...)
	} else {
		counts := make(map[core.State]int)
		for _, s := range b.states {
			counts[s]++
		}
		var parts []string
		for _, s := range core.States() {
			if counts[s] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
			}
		}
		dst = fmt.Appendf(dst, "end: %s: %s\n", plural(len(tasks), "task"), strings.Join(parts, ", "))
	}
	if f.refused.n > 0 {
		dst = fmt.Appendf(dst, "refused: %s (%s)\n", plural(f.refused.n, "operation"), f.refused.String())
	}
	if f.failed.n > 0 {
		dst = fmt.Appendf(dst, "expect failed: %s\n", f.failed.String())
	}
	dlq := b.DeadLetters()
	if len(dlq) == 0 {
		dst = append(dst, "dead-letter queue: empty\n"...)
	} else {
		dst = fmt.Appendf(dst, "dead-letter queue (%d):\n", len(dlq))
		nameWidth := 0
		for _, d := range dlq {
			nameWidth = max(nameWidth, len(d.Task))
		}
		for _, d := range dlq {
			dst = fmt.Appendf(dst, "  %-*s  ", nameWidth, d.Task)
			dst = appendPrintable(dst, d.Reason)
			if d.Poisoned {
				dst = append(dst, " (poisoned: needs a human)"...)
			}
			dst = append(dst, '\n')
			var err error
			if dst, err = spill(dst); err != nil {
				return dst, err
			}
		}
	}
	if le := (*LimitError)(nil); errors.As(stop, &le) {
		dst = append(dst, le.Error()...)
		dst = append(dst, '\n')
	}
	return dst, nil
}

// appendPrintable appends s with every character that does not print
// (control characters; format characters such as the right-to-left
// override U+202E; line and paragraph separators; spaces other than
// U+0020) and every byte of invalid UTF-8 escaped as Go writes them in a
// string literal (\x1b, \t, \u0085, \u202e), so that text from a script
// cannot move a terminal's cursor, change its colours or reorder what a
// line seems to say. Other text is appended as it is.
func appendPrintable(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = fmt.Appendf(dst, `\x%02x`, s[i])
		case !strconv.IsPrint(r) && r != ' ':
			q := strconv.QuoteRune(r)
			dst = append(dst, q[1:len(q)-1]...)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

// namesListed is how many task names a line of the dlq view or of a
// preview lists; it counts the rest.
const namesListed = 8

// nameList returns "a, b, c" or "a, b, … and 12 more".
func nameList(names []string) string {
	if len(names) <= namesListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:namesListed], ", ") + " and " + strconv.Itoa(len(names)-namesListed) + " more"
}

// dlqLines is the grouped view of the dead-letter queue the dlq command
// shows: a count, then each group of DEAD tasks by fingerprint with its
// tasks, times and blast radius, an example of its error and its poisoned
// tasks, and whether the growth alert is raised.
func dlqLines(b *Board) []string {
	groups := b.DeadLetterGroups()
	dead, blocked := 0, 0
	b.liveDLQ(func(d core.DeadLetter) {
		if d.State == core.Dead {
			dead++
		} else {
			blocked++
		}
	})
	if dead == 0 {
		return []string{"the dead-letter queue is empty"}
	}
	out := []string{fmt.Sprintf("%s dead in %s, %d blocked behind them", plural(dead, "task"), plural(len(groups), "group"), blocked)}
	for i, g := range groups {
		times := "at " + FormatDuration(g.First)
		if g.Last != g.First {
			times = "from " + FormatDuration(g.First) + " to " + FormatDuration(g.Last)
		}
		out = append(out, fmt.Sprintf("#%d %s: %d dead %s, blocking %d: %s", i+1, g.Fingerprint, g.Count, times, g.BlastRadius, nameList(g.Tasks)))
		if g.Example != g.Fingerprint {
			out = append(out, "   e.g. "+g.Example)
		}
		if len(g.Poisoned) > 0 {
			out = append(out, "   poisoned, needs a human: "+nameList(g.Poisoned))
		}
	}
	if b.Alerting() {
		out = append(out, "alert: raised")
	}
	return out
}

// previewLines describes a preview: the totals, then what each task it
// would redrive releases and leaves blocked, then the poisoned tasks it
// would skip.
func previewLines(p *core.RedrivePreview) []string {
	if p == nil || len(p.Roots)+len(p.Skipped) == 0 {
		return []string{"no dead task matches: nothing to redrive"}
	}
	out := []string{fmt.Sprintf("would redrive %s, releasing %d and leaving %d blocked", plural(len(p.Roots), "task"), p.Released, p.Blocked)}
	for _, r := range p.Roots {
		s := r.Task
		switch {
		case len(r.Release) > 0:
			s += " releases " + nameList(r.Release)
		case len(r.Stay) == 0:
			s += " holds nothing"
		}
		if len(r.Stay) > 0 {
			if len(r.Release) > 0 {
				s += ";"
			}
			var stays []string
			for _, b := range r.Stay {
				stays = append(stays, b.Task+" (blocked by "+b.Root+")")
			}
			s += " leaves blocked " + nameList(stays)
		}
		out = append(out, s)
	}
	if len(p.Skipped) > 0 {
		out = append(out, "skips, poisoned: "+nameList(p.Skipped))
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

type jsonEvent struct {
	Kind    string     `json:"kind"`
	AtMS    int64      `json:"at_ms,omitempty"`
	Task    string     `json:"task,omitempty"`
	From    core.State `json:"from,omitempty"`
	To      core.State `json:"to,omitempty"`
	Deps    []string   `json:"deps,omitempty"`
	Attempt int        `json:"attempt,omitempty"`
	Lease   uint64     `json:"lease,omitempty"`
	Root    string     `json:"root,omitempty"`
	Reason  string     `json:"reason,omitempty"`
	Path    []string   `json:"path,omitempty"`
	Visits  uint64     `json:"visits,omitempty"`
	// Started, Heartbeat: the lease's deadline; Delayed: the due time.
	DeadlineMS int64 `json:"deadline_ms,omitempty"`
	DueMS      int64 `json:"due_ms,omitempty"`
	// Dead: the error alone, and the poison mark.
	Error    string `json:"error,omitempty"`
	Poisoned bool   `json:"poisoned,omitempty"`
	// Alert, Cleared: the entries and the window; the redrive events: how
	// many redriven so far (count) of how many (total), the tasks (of the
	// whole redrive, or of the batch), the poisoned ones skipped, the rate.
	Count    int      `json:"count,omitempty"`
	Total    int      `json:"total,omitempty"`
	WindowMS int64    `json:"window_ms,omitempty"`
	Tasks    []string `json:"tasks,omitempty"`
	Skipped  []string `json:"skipped,omitempty"`
	Rate     string   `json:"rate,omitempty"`
}

// jsonGroup is a group of the dlq view in the JSON trace.
type jsonGroup struct {
	Fingerprint string   `json:"fingerprint"`
	Example     string   `json:"example"`
	Count       int      `json:"count"`
	FirstMS     int64    `json:"first_ms"`
	LastMS      int64    `json:"last_ms"`
	Tasks       []string `json:"tasks"`
	BlastRadius int      `json:"blast_radius"`
	Poisoned    []string `json:"poisoned"`
}

// jsonPreview is a preview in the JSON trace.
type jsonPreview struct {
	Roots []struct {
		Task    string              `json:"task"`
		Release []string            `json:"release"`
		Stay    []core.StillBlocked `json:"stay"`
	} `json:"roots"`
	Skipped  []string `json:"skipped"`
	Released int      `json:"released"`
	Blocked  int      `json:"blocked"`
}

func newJSONPreview(p *core.RedrivePreview) jsonPreview {
	out := jsonPreview{Skipped: nonNil(p.Skipped), Released: p.Released, Blocked: p.Blocked}
	out.Roots = make([]struct {
		Task    string              `json:"task"`
		Release []string            `json:"release"`
		Stay    []core.StillBlocked `json:"stay"`
	}, len(p.Roots))
	for i, r := range p.Roots {
		out.Roots[i].Task, out.Roots[i].Release = r.Task, nonNil(r.Release)
		out.Roots[i].Stay = r.Stay
		if out.Roots[i].Stay == nil {
			out.Roots[i].Stay = []core.StillBlocked{}
		}
	}
	return out
}

// nonNil returns s, or an empty slice for nil, so that JSON says [].
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteJSON writes a trace as JSON lines: one object per step, that is per
// command of the script (attempts and strategy included), with the keys in
// this order:
//
//	line    the command's line number
//	cmd     the command: "submit", "next", …, "redrive matching", "preview redrive"
//	ok      false for a refused operation or a failed expect
//	error   why, when ok is false; "" when ok
//	now_ms  the queue's clock after the command, in milliseconds
//	task    for next the task handed out ("" when nothing was READY);
//	        otherwise the command's task ("" for attempts and strategy)
//	state   for fail the state it led to; for next RUNNING when a task was
//	        handed out; otherwise the task's state after the command
//	states  every task submitted so far: its state, keys sorted
//	dlq     the dead-letter queue in order: [{"task":…,"reason":…}], [] if empty
//	events  the step's events: {"kind","at_ms","task","from","to","deps",
//	        "attempt","lease","root","reason","path","visits","deadline_ms",
//	        "due_ms","error","poisoned","count","total","window_ms","tasks",
//	        "skipped","rate"}, empty fields left out (at_ms is the clock when
//	        it happened; deadline_ms a lease's deadline; due_ms when a
//	        DELAYED task falls due; error a dead task's error alone; the
//	        rest for the alert and the bulk redrives, see core.Event)
//
// Three keys come only where they say something, after events:
//
//	alert   true on every line while the growth alert is raised (an alert
//	        line in the script); absent otherwise
//	groups  on the line of a dlq command: the DEAD tasks grouped by the
//	        fingerprint of their error, first entry first:
//	        [{"fingerprint","example","count","first_ms","last_ms","tasks",
//	        "blast_radius","poisoned"}]
//	preview on the line of a preview redrive: {"roots":[{"task","release",
//	        "stay":[{"task","root"}]}],"skipped","released","blocked"}
//
// groups is on the dlq lines only, so that a line stays O(tasks) and the
// output does not repeat the view on every step.
//
// states and dlq are folded from the events (see [Board]), not read from a
// queue, so the output says exactly what the events say. Visits depends on
// the strategy; everything else is the same for every strategy. Strings are
// not HTML-escaped ("->" stays as it is).
//
// Every line repeats the state of every task, so the output grows as
// steps × tasks: a run of 3,000 steps over 1,000 tasks writes about 60 MB
// (see [Limits.Output]).
//
// A run stopped by one of its [Limits] or its context ends with one more
// line that says so instead of a step:
//
//	{"line":N,"stopped":"tasks","max":100000,"error":"stopped before line N: …"}
func WriteJSON(w io.Writer, t *Trace) error {
	return writeTrace(w, t, &jsonFormatter{j: newJSONWriter()})
}

// jsonFormatter writes the JSON-lines trace (see [WriteJSON]).
type jsonFormatter struct {
	j      *jsonWriter
	b      Board
	sorted []string // submitted tasks, sorted
}

func (f *jsonFormatter) begin(dst []byte, strategy string, attempts int) []byte { return dst }

func (f *jsonFormatter) step(line []byte, st Step, spill spillFunc) ([]byte, error) {
	j, b := f.j, &f.b
	for _, e := range st.Events {
		b.Apply(e)
		if e.Kind == core.EventSubmitted {
			i, _ := slices.BinarySearch(f.sorted, e.Task)
			f.sorted = slices.Insert(f.sorted, i, e.Task)
		}
	}
	line = append(line, `{"line":`...)
	line = strconv.AppendInt(line, int64(st.Command.Line), 10)
	line = append(line, `,"cmd":`...)
	line = j.appendString(line, st.Command.Op.String())
	line = append(line, `,"ok":`...)
	line = strconv.AppendBool(line, st.OK)
	line = append(line, `,"error":`...)
	line = j.appendString(line, st.Err)
	line = append(line, `,"now_ms":`...)
	line = strconv.AppendInt(line, st.Now.Milliseconds(), 10)
	line = append(line, `,"task":`...)
	line = j.appendString(line, st.Task)
	line = append(line, `,"state":`...)
	line = j.appendString(line, string(st.State))
	line = append(line, `,"states":{`...)
	var err error
	for i, task := range f.sorted {
		if i > 0 {
			line = append(line, ',')
		}
		line = j.appendName(line, task)
		line = append(line, ':', '"')
		line = append(line, b.states[task]...)
		line = append(line, '"')
		if line, err = spill(line); err != nil {
			return line, err
		}
	}
	line = append(line, `},"dlq":[`...)
	first := true
	b.liveDLQ(func(d core.DeadLetter) {
		if err != nil {
			return
		}
		if !first {
			line = append(line, ',')
		}
		first = false
		line = append(line, `{"task":`...)
		line = j.appendName(line, d.Task)
		line = append(line, `,"reason":`...)
		line = j.appendString(line, d.Reason)
		line = append(line, '}')
		line, err = spill(line)
	})
	if err != nil {
		return line, err
	}
	line = append(line, `],"events":[`...)
	for i, e := range st.Events {
		if i > 0 {
			line = append(line, ',')
		}
		if line, err = spill(line); err != nil {
			return line, err
		}
		line, err = j.appendValue(line, jsonEvent{
			Kind: e.Kind.String(), Task: e.Task, From: e.From, To: e.To,
			Deps: e.Deps, Attempt: e.Attempt, Lease: e.Lease, Root: e.Root,
			Reason: e.Reason, Path: e.Path, Visits: e.Visits,
			AtMS: e.At.Milliseconds(), DeadlineMS: e.Deadline.Milliseconds(), DueMS: e.Due.Milliseconds(),
			Error: e.Error, Poisoned: e.Poisoned, Count: e.Count, Total: e.Total,
			WindowMS: e.Window.Milliseconds(), Tasks: e.Tasks, Skipped: e.Skipped, Rate: e.Rate.String(),
		})
		if err != nil {
			return line, err
		}
	}
	line = append(line, ']')
	if b.Alerting() {
		line = append(line, `,"alert":true`...)
	}
	if line, err = spill(line); err != nil {
		return line, err
	}
	if st.Command.Op == OpDLQ {
		groups := b.DeadLetterGroups()
		out := make([]jsonGroup, len(groups))
		for i, g := range groups {
			out[i] = jsonGroup{Fingerprint: g.Fingerprint, Example: g.Example, Count: g.Count,
				FirstMS: g.First.Milliseconds(), LastMS: g.Last.Milliseconds(), Tasks: g.Tasks,
				BlastRadius: g.BlastRadius, Poisoned: nonNil(g.Poisoned)}
		}
		line = append(line, `,"groups":`...)
		if line, err = j.appendValue(line, out); err != nil {
			return line, err
		}
	}
	if st.Preview != nil {
		line = append(line, `,"preview":`...)
		if line, err = j.appendValue(line, newJSONPreview(st.Preview)); err != nil {
			return line, err
		}
	}
	return spill(append(line, "}\n"...))
}

func (f *jsonFormatter) end(dst []byte, stop error, spill spillFunc) ([]byte, error) {
	le := (*LimitError)(nil)
	if !errors.As(stop, &le) {
		return dst, nil
	}
	dst = append(dst, `{"line":`...)
	dst = strconv.AppendInt(dst, int64(le.Line), 10)
	dst = append(dst, `,"stopped":`...)
	dst = f.j.appendString(dst, le.Limit)
	dst = append(dst, `,"max":`...)
	dst = strconv.AppendInt(dst, le.Max, 10)
	dst = append(dst, `,"error":`...)
	dst = f.j.appendString(dst, le.Error())
	return append(dst, "}\n"...), nil
}
