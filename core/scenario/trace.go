package scenario

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
type formatter interface {
	begin(dst []byte, strategy string, attempts int) []byte
	step(dst []byte, st Step) ([]byte, error)
	// end appends the closing lines; stop is nil, the *ExpectError or the
	// *LimitError that stopped the run.
	end(dst []byte, stop error) []byte
}

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
	buf := f.begin(nil, t.Strategy, t.Attempts)
	for _, st := range t.Steps {
		var err error
		if buf, err = f.step(buf, st); err != nil {
			return err
		}
		if len(buf) >= bw.Available() {
			if _, err := bw.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = f.end(buf, nil)
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

func (f *textFormatter) step(dst []byte, st Step) ([]byte, error) {
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
	note := func(s string) {
		dst = append(dst, f.indent...)
		dst = appendPrintable(dst, s)
		dst = append(dst, '\n')
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
	return dst, nil
}

func (f *textFormatter) end(dst []byte, stop error) []byte {
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
			dst = append(dst, '\n')
		}
	}
	if le := (*LimitError)(nil); errors.As(stop, &le) {
		dst = append(dst, le.Error()...)
		dst = append(dst, '\n')
	}
	return dst
}

// appendPrintable appends s with every control character and every byte
// of invalid UTF-8 escaped as Go writes them in a string literal (\x1b,
// \t, \u0085), so that text from a script cannot move a terminal's cursor
// or change its colours. Other text is appended as it is.
func appendPrintable(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = fmt.Appendf(dst, `\x%02x`, s[i])
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			dst = append(dst, q[1:len(q)-1]...)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
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
}

// WriteJSON writes a trace as JSON lines: one object per step, that is per
// command of the script (attempts and strategy included), with the keys in
// this order:
//
//	line    the command's line number
//	cmd     the command word: "submit", "next", …
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
//	        "due_ms"}, empty fields left out (at_ms is the clock when it
//	        happened; deadline_ms a lease's deadline; due_ms when a DELAYED
//	        task falls due)
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

func (f *jsonFormatter) step(line []byte, st Step) ([]byte, error) {
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
	for i, task := range f.sorted {
		if i > 0 {
			line = append(line, ',')
		}
		line = j.appendName(line, task)
		line = append(line, ':', '"')
		line = append(line, b.states[task]...)
		line = append(line, '"')
	}
	line = append(line, `},"dlq":[`...)
	first := true
	b.liveDLQ(func(d core.DeadLetter) {
		if !first {
			line = append(line, ',')
		}
		first = false
		line = append(line, `{"task":`...)
		line = j.appendName(line, d.Task)
		line = append(line, `,"reason":`...)
		line = j.appendString(line, d.Reason)
		line = append(line, '}')
	})
	line = append(line, `],"events":[`...)
	for i, e := range st.Events {
		if i > 0 {
			line = append(line, ',')
		}
		var err error
		line, err = j.appendValue(line, jsonEvent{
			Kind: e.Kind.String(), Task: e.Task, From: e.From, To: e.To,
			Deps: e.Deps, Attempt: e.Attempt, Lease: e.Lease, Root: e.Root,
			Reason: e.Reason, Path: e.Path, Visits: e.Visits,
			AtMS: e.At.Milliseconds(), DeadlineMS: e.Deadline.Milliseconds(), DueMS: e.Due.Milliseconds(),
		})
		if err != nil {
			return line, err
		}
	}
	return append(line, "]}\n"...), nil
}

func (f *jsonFormatter) end(dst []byte, stop error) []byte {
	le := (*LimitError)(nil)
	if !errors.As(stop, &le) {
		return dst
	}
	dst = append(dst, `{"line":`...)
	dst = strconv.AppendInt(dst, int64(le.Line), 10)
	dst = append(dst, `,"stopped":`...)
	dst = f.j.appendString(dst, le.Limit)
	dst = append(dst, `,"max":`...)
	dst = strconv.AppendInt(dst, le.Max, 10)
	dst = append(dst, `,"error":`...)
	dst = f.j.appendString(dst, le.Error())
	return append(dst, "}\n"...)
}

// jsonWriter encodes JSON values without HTML escaping, and remembers the
// encoding of task names, which every line repeats.
type jsonWriter struct {
	buf   bytes.Buffer
	enc   *json.Encoder
	names map[string][]byte
}

func newJSONWriter() *jsonWriter {
	j := &jsonWriter{names: make(map[string][]byte)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// appendValue appends the JSON encoding of v.
func (j *jsonWriter) appendValue(dst []byte, v any) ([]byte, error) {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))...), nil
}

// appendString appends s as a JSON string.
func (j *jsonWriter) appendString(dst []byte, s string) []byte {
	out, _ := j.appendValue(dst, s) // a string always encodes
	return out
}

// appendName appends a task name as a JSON string, encoded once per name.
func (j *jsonWriter) appendName(dst []byte, name string) []byte {
	q, ok := j.names[name]
	if !ok {
		q = j.appendString(nil, name)
		j.names[name] = q
	}
	return append(dst, q...)
}
