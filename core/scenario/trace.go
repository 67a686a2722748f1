package scenario

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
)

// WriteText writes a trace for people to read. It opens with the strategy
// and max attempts, then gives each step as its line number and command
// text, and under it, indented, what happened: one line per event, or
// "error: …" for a refused operation, "handed out nothing" for a next with
// nothing READY, "ok: …" for an expect that held. It ends with a summary:
// the tasks counted by state, the refused operations and the dead-letter
// queue with each entry's reason. The summary is folded from the events, as
// a [Board].
func WriteText(w io.Writer, t *Trace) error {
	bw := bufio.NewWriter(w)
	maxLine := 0
	for _, st := range t.Steps {
		maxLine = max(maxLine, st.Command.Line)
	}
	width := len("L" + strconv.Itoa(maxLine))
	indent := strings.Repeat(" ", width+4)

	fmt.Fprintf(bw, "strategy %s, max attempts %d\n", t.Strategy, t.Attempts)
	var b Board
	var refused, failed []string
	for _, st := range t.Steps {
		c := st.Command
		text := c.Text
		if text == "" {
			text = c.String()
		}
		fmt.Fprintf(bw, "\n%-*s  %s\n", width, "L"+strconv.Itoa(c.Line), text)
		for _, e := range st.Events {
			b.Apply(e)
		}
		note := func(s string) { bw.WriteString(indent + s + "\n") }
		switch {
		case c.Op == OpExpect && st.OK:
			note(fmt.Sprintf("ok: %s is %s", c.Task, st.State))
		case c.Op == OpExpect:
			failed = append(failed, strconv.Itoa(c.Line))
			if st.State == "" {
				note(fmt.Sprintf("expect failed: %s was never submitted", c.Task))
			} else {
				note(fmt.Sprintf("expect failed: %s is %s", c.Task, st.State))
			}
		case !st.OK:
			refused = append(refused, strconv.Itoa(c.Line))
			note("error: " + st.Err)
		case c.Op == OpNext && st.Task == "":
			note("handed out nothing")
		case c.Op == OpAttempts:
			note(fmt.Sprintf("a task gets at most %s", plural(t.Attempts, "attempt")))
		case c.Op == OpStrategy && c.Strategy != t.Strategy:
			note(fmt.Sprintf("overridden: the run checks cycles with %s", t.Strategy))
		case c.Op == OpStrategy:
			note("cycles are checked with " + t.Strategy)
		default:
			for _, e := range st.Events {
				note(e.String())
			}
		}
	}

	bw.WriteString("\n")
	tasks := b.Tasks()
	if len(tasks) == 0 {
		bw.WriteString("end: no tasks\n")
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
		fmt.Fprintf(bw, "end: %s: %s\n", plural(len(tasks), "task"), strings.Join(parts, ", "))
	}
	if len(refused) > 0 {
		fmt.Fprintf(bw, "refused: %s (%s)\n", plural(len(refused), "operation"), lineList(refused))
	}
	if len(failed) > 0 {
		fmt.Fprintf(bw, "expect failed: %s\n", lineList(failed))
	}
	dlq := b.DeadLetters()
	if len(dlq) == 0 {
		bw.WriteString("dead-letter queue: empty\n")
	} else {
		fmt.Fprintf(bw, "dead-letter queue (%d):\n", len(dlq))
		nameWidth := 0
		for _, d := range dlq {
			nameWidth = max(nameWidth, len(d.Task))
		}
		for _, d := range dlq {
			fmt.Fprintf(bw, "  %-*s  %s\n", nameWidth, d.Task, d.Reason)
		}
	}
	return bw.Flush()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func lineList(lines []string) string {
	if len(lines) == 1 {
		return "line " + lines[0]
	}
	return "lines " + strings.Join(lines, ", ")
}

type jsonEvent struct {
	Kind    string     `json:"kind"`
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
}

// WriteJSON writes a trace as JSON lines: one object per step, that is per
// command of the script (attempts and strategy included), with the keys in
// this order:
//
//	line    the command's line number
//	cmd     the command word: "submit", "next", …
//	ok      false for a refused operation or a failed expect
//	error   why, when ok is false; "" when ok
//	task    for next the task handed out ("" when nothing was READY);
//	        otherwise the command's task ("" for attempts and strategy)
//	state   for fail the state it led to; for next RUNNING when a task was
//	        handed out; otherwise the task's state after the command
//	states  every task submitted so far: its state, keys sorted
//	dlq     the dead-letter queue in order: [{"task":…,"reason":…}], [] if empty
//	events  the step's events: {"kind","task","from","to","deps","attempt",
//	        "lease","root","reason","path","visits"}, empty fields left out
//
// states and dlq are folded from the events (see [Board]), not read from a
// queue, so the output says exactly what the events say. Visits depends on
// the strategy; everything else is the same for every strategy. Strings are
// not HTML-escaped ("->" stays as it is).
//
// Every line repeats the state of every task, so the output grows as
// steps × tasks: a run of 3,000 steps over 1,000 tasks writes about 60 MB.
func WriteJSON(w io.Writer, t *Trace) error {
	bw := bufio.NewWriter(w)
	j := newJSONWriter()
	var b Board
	var sorted []string // submitted tasks, sorted
	var line []byte
	for _, st := range t.Steps {
		for _, e := range st.Events {
			b.Apply(e)
			if e.Kind == core.EventSubmitted {
				i, _ := slices.BinarySearch(sorted, e.Task)
				sorted = slices.Insert(sorted, i, e.Task)
			}
		}
		line = append(line[:0], `{"line":`...)
		line = strconv.AppendInt(line, int64(st.Command.Line), 10)
		line = append(line, `,"cmd":`...)
		line = j.appendString(line, st.Command.Op.String())
		line = append(line, `,"ok":`...)
		line = strconv.AppendBool(line, st.OK)
		line = append(line, `,"error":`...)
		line = j.appendString(line, st.Err)
		line = append(line, `,"task":`...)
		line = j.appendString(line, st.Task)
		line = append(line, `,"state":`...)
		line = j.appendString(line, string(st.State))
		line = append(line, `,"states":{`...)
		for i, task := range sorted {
			if i > 0 {
				line = append(line, ',')
			}
			line = j.appendName(line, task)
			line = append(line, ':', '"')
			line = append(line, b.states[task]...)
			line = append(line, '"')
		}
		line = append(line, `},"dlq":[`...)
		for i, d := range b.dlq {
			if i > 0 {
				line = append(line, ',')
			}
			line = append(line, `{"task":`...)
			line = j.appendName(line, d.Task)
			line = append(line, `,"reason":`...)
			line = j.appendString(line, d.Reason)
			line = append(line, '}')
		}
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
			})
			if err != nil {
				return err
			}
		}
		line = append(line, "]}\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
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
