package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// streamed runs src as a Stream and returns the trace and Run's error.
func streamed(t *testing.T, src string, f Format, lim Limits) (string, error) {
	t.Helper()
	s, err := NewStream(src, Options{})
	if err != nil {
		t.Fatalf("NewStream: %v", err)
	}
	var b bytes.Buffer
	err = s.Run(context.Background(), &b, f, lim)
	return b.String(), err
}

// TestStreamWritesWhatRunAndWriteWrite: streaming a library scenario gives
// the very bytes of running it whole and writing the trace, in both
// formats.
func TestStreamWritesWhatRunAndWriteWrite(t *testing.T) {
	t.Parallel()
	for _, e := range Library() {
		tr, err := Run(mustParse(t, e.Text), Options{})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		for _, f := range []struct {
			format Format
			write  func(io.Writer, *Trace) error
		}{{Text, WriteText}, {JSON, WriteJSON}} {
			var want bytes.Buffer
			if err := f.write(&want, tr); err != nil {
				t.Fatal(err)
			}
			got, err := streamed(t, e.Text, f.format, Limits{})
			if err != nil {
				t.Fatalf("%s: %v", e.Name, err)
			}
			if got != want.String() {
				t.Errorf("%s, format %d: the streamed trace (%d bytes) differs from the written one (%d bytes)", e.Name, f.format, len(got), want.Len())
			}
		}
	}
}

// TestStreamStopsAtAFailedExpect: a failed expect stops the run after its
// step, as Run does.
func TestStreamStopsAtAFailedExpect(t *testing.T) {
	t.Parallel()
	got, err := streamed(t, "submit a\nexpect a RUNNING\nsubmit b\n", Text, Limits{})
	var ee *ExpectError
	if !errors.As(err, &ee) || ee.Line != 2 {
		t.Fatalf("err = %v, want the expect of line 2", err)
	}
	if strings.Contains(got, "submit b") || !strings.Contains(got, "expect failed: line 2") {
		t.Errorf("the trace should end at line 2 and say so:\n%s", got)
	}
}

// chain returns a script submitting a chain of n tasks, t1 first.
func chain(n int) string {
	var b strings.Builder
	b.WriteString("submit t1\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "submit t%d t%d\n", i, i-1)
	}
	return b.String()
}

// TestStreamLimits: each limit stops the run before the command that would
// pass it, and the trace's last line says which limit it was.
func TestStreamLimits(t *testing.T) {
	t.Parallel()
	nexts := "submit a\n" + strings.Repeat("next\n", 50)
	tests := []struct {
		name     string
		src      string
		lim      Limits
		line     int
		limit    string
		lastText string // the text trace's last line
	}{
		{"Tasks", chain(10), Limits{Tasks: 4}, 5, "tasks", "stopped before line 5: the run may submit at most 4 tasks"},
		{"Steps", nexts, Limits{Steps: 7}, 8, "steps", "stopped before line 8: the run may run at most 7 commands"},
		// Every submit of a chain causes one event: the fourth command is
		// not run once three events happened.
		{"Events", chain(10), Limits{Events: 3}, 4, "events", "stopped before line 4: the run may cause at most 3 events"},
		{"Output", nexts, Limits{Output: 200}, 0, "output", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, err := streamed(t, tt.src, Text, tt.lim)
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tt.limit || tt.line != 0 && le.Line != tt.line {
				t.Fatalf("err = %#v, want the %s limit before line %d", err, tt.limit, tt.line)
			}
			lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			if last := lines[len(lines)-1]; last != le.Error() || tt.lastText != "" && last != tt.lastText {
				t.Errorf("the text trace ends with %q, want %q", last, le.Error())
			}
			// The step of the stopping line is not in the trace.
			if strings.Contains(text, fmt.Sprintf("\nL%d ", le.Line)) {
				t.Errorf("the trace shows line %d, where the run stopped:\n%s", le.Line, text)
			}

			js, err := streamed(t, tt.src, JSON, tt.lim)
			if !errors.As(err, &le) {
				t.Fatalf("JSON: err = %v", err)
			}
			jl := strings.Split(strings.TrimSuffix(js, "\n"), "\n")
			var last struct {
				Line    int
				Stopped string
				Max     int64
				Error   string
			}
			if err := json.Unmarshal([]byte(jl[len(jl)-1]), &last); err != nil {
				t.Fatal(err)
			}
			if last.Line != le.Line || last.Stopped != tt.limit || last.Max != le.Max || last.Error != le.Error() {
				t.Errorf("the JSON trace ends with %+v, want line %d, limit %s", last, le.Line, tt.limit)
			}
		})
	}
}

// TestStreamOutputLimitIsExact: the steps of the trace never take more
// than the output limit, and stop at the first step that would pass it.
func TestStreamOutputLimitIsExact(t *testing.T) {
	t.Parallel()
	src := chain(200)
	full, err := streamed(t, src, JSON, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(full, "\n")
	for _, limit := range []int64{1, 100, 5000, int64(len(full)) - 1} {
		got, err := streamed(t, src, JSON, Limits{Output: limit})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "output" {
			t.Fatalf("limit %d: err = %v", limit, err)
		}
		steps := got[:strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1]
		if int64(len(steps)) > limit {
			t.Errorf("limit %d: the steps take %d bytes", limit, len(steps))
		}
		// As many whole lines as fit.
		n, fit := 0, 0
		for _, l := range lines {
			if int64(fit+len(l)) > limit {
				break
			}
			fit += len(l)
			n++
		}
		if steps != strings.Join(lines[:n], "") {
			t.Errorf("limit %d: the trace holds %d bytes of steps, want the first %d lines (%d bytes)", limit, len(steps), n, fit)
		}
	}
}

// TestStreamStopsWhenItsContextEnds: a context that ends stops the run
// before its next command, naming the cause.
func TestStreamStopsWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	s, err := NewStream(chain(100), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	w := &cancelAfter{n: 10, cancel: func() { cancel(errors.New("the client went away")) }}
	err = s.Run(ctx, w, Text, Limits{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "context" || le.Line != 10 {
		t.Fatalf("err = %v, want a stop before line 10", err)
	}
	if want := "stopped before line 10: the run was stopped: the client went away\n"; !strings.HasSuffix(w.b.String(), want) {
		t.Errorf("the trace ends %q, want %q", w.b.String()[max(0, w.b.Len()-100):], want)
	}
}

// cancelAfter cancels after n writes.
type cancelAfter struct {
	b      bytes.Buffer
	n      int
	cancel func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return c.b.Write(p)
}

// TestStreamStopsOnAWriteError: a writer that fails stops the run at once
// with its error.
func TestStreamStopsOnAWriteError(t *testing.T) {
	t.Parallel()
	s, err := NewStream(chain(10), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), failingWriter{}, JSON, Limits{}); err != io.ErrClosedPipe {
		t.Errorf("err = %v, want %v", err, io.ErrClosedPipe)
	}
}

// TestNewStreamWritesNothingForABadScript: a syntax error anywhere, or an
// unknown strategy, is found before anything runs.
func TestNewStreamWritesNothingForABadScript(t *testing.T) {
	t.Parallel()
	_, err := NewStream(chain(50)+"submit x y z!\n", Options{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 51 || se.Col != 13 {
		t.Errorf("err = %v, want a syntax error at 51:13", err)
	}
	_, err = NewStream("submit a\n", Options{Strategy: strings.Repeat("x", 5000)})
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("an unknown strategy of 5,000 characters gives %d characters of error: %.100q", len(err.Error()), err)
	}
}

// TestTextTraceEscapesControlCharacters: an error text cannot reach a
// terminal raw.
func TestTextTraceEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	got, err := streamed(t, "attempts 1\nsubmit a\nnext\nfail a \x1b[2J\x1b]0;owned\x07 bad\xff\u0085 done\n", Text, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b", "\x07", "\xff", "\u0085"} {
		if strings.Contains(got, bad) {
			t.Errorf("the trace holds %q raw:\n%s", bad, got)
		}
	}
	if want := `failed after 1 attempt: \x1b[2J\x1b]0;owned\a bad\xff\u0085 done`; !strings.Contains(got, want) {
		t.Errorf("the trace does not show the error escaped as %s:\n%s", want, got)
	}
}

// TestTextTraceEscapesFormatCharacters: a right-to-left override or
// another character that changes how a line reads without printing is
// escaped as control characters are.
func TestTextTraceEscapesFormatCharacters(t *testing.T) {
	t.Parallel()
	got, err := streamed(t, "attempts 1\nsubmit a\nnext\nfail a evil\u202etxt.exe \u2066x\u2069 \u200b \u2028 \ufeff é 字\n", Text, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u202e", "\u2066", "\u2069", "\u200b", "\u2028", "\ufeff"} {
		if strings.Contains(got, bad) {
			t.Errorf("the trace holds %+q raw:\n%s", bad, got)
		}
	}
	if want := `failed after 1 attempt: evil\u202etxt.exe \u2066x\u2069 \u200b \u2028 \ufeff é 字`; !strings.Contains(got, want) {
		t.Errorf("the trace does not show the error escaped as %s:\n%s", want, got)
	}
}

// TestNoLineIsBuiltBeyondTheOutputLimit: a step whose line would take
// many megabytes (a death that blocks 20,000 tasks, each named in full on
// its line) is refused by the output limit part by part as it is built,
// in both formats: the line never holds much more than the limit.
func TestNoLineIsBuiltBeyondTheOutputLimit(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	root := strings.Repeat("r", MaxName)
	fmt.Fprintf(&b, "attempts 1\nsubmit %s\n", root)
	const n = 20_000
	for i := range n {
		fmt.Fprintf(&b, "submit t%d %s\n", i, root)
	}
	b.WriteString("next\nfail " + root + " boom\n")
	script, err := Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Run(script, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	part := 4 * MaxName // the most one part of a line adds here
	for _, f := range []Format{Text, JSON} {
		form := newFormatter(f, n+4)
		form.begin(nil, tr.Strategy, tr.Attempts)
		longest := 0
		spill := func(dst []byte) ([]byte, error) {
			longest = max(longest, len(dst))
			if len(dst) > limit {
				return dst, errOverLimit
			}
			return dst, nil
		}
		var line []byte
		for _, st := range tr.Steps[:len(tr.Steps)-1] {
			// The steps before the death, folded in and refused at
			// once: writing them would be O(n²) in JSON.
			refuse := func(dst []byte) ([]byte, error) { return dst, errOverLimit }
			if line, err = form.step(line[:0], st, refuse); err != errOverLimit {
				t.Fatal(err)
			}
		}
		line, err = form.step(line[:0], tr.Steps[len(tr.Steps)-1], spill)
		if err != errOverLimit {
			t.Fatalf("format %d: the death's line gave %v, want errOverLimit", f, err)
		}
		if longest > limit+part || cap(line) > 2*(limit+part) {
			t.Errorf("format %d: the line grew to %d bytes (capacity %d) under a limit of %d", f, longest, cap(line), limit)
		}
	}
}

// TestErrorsEchoLittleOfAHugeToken: a syntax error quotes at most a few
// dozen characters of what it refuses.
func TestErrorsEchoLittleOfAHugeToken(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 100000)
	for _, src := range []string{
		huge + "\n",
		"submit a " + huge + "!\n",
		"next " + huge + "\n",
		"strategy " + huge + "\n",
		"attempts " + strings.Repeat("9", 100000) + "\n",
		"expect a " + huge + "\n",
	} {
		_, err := Parse(src)
		if err == nil {
			t.Fatalf("%.20q… parsed", src)
		}
		if len(err.Error()) > 300 {
			t.Errorf("%.20q…: the error is %d characters: %.120s", src, len(err.Error()), err)
		}
	}
}
