package scenario

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/golden"
)

// noteScript reaches every kind of line WriteText writes.
const noteScript = `attempts 1
strategy dfs
submit a
submit a
next
next
fail a boom
submit b a
expect b BLOCKED
expect b READY
`

func TestWriteText(t *testing.T) {
	t.Parallel()
	tr, err := Run(mustParse(t, noteScript), Options{Strategy: "pk"})
	if err == nil {
		t.Fatal("the last expect should have failed")
	}
	var b bytes.Buffer
	if err := WriteText(&b, tr); err != nil {
		t.Fatal(err)
	}
	want := `strategy pk, max attempts 1

L1   attempts 1
       a task gets at most 1 attempt

L2   strategy dfs
       overridden: the run checks cycles with pk

L3   submit a
       a submitted → READY

L4   submit a
       error: a: duplicate task

L5   next
       a READY → RUNNING: attempt 1

L6   next
       handed out nothing

L7   fail a boom
       a RUNNING → DEAD: failed after 1 attempt: boom

L8   submit b a
       b submitted → BLOCKED (waits on a): blocked by a

L9   expect b BLOCKED
       ok: b is BLOCKED

L10  expect b READY
       expect failed: b is BLOCKED

end: 2 tasks: 1 DEAD, 1 BLOCKED
refused: 1 operation (line 4)
expect failed: line 10
dead-letter queue (2):
  a  failed after 1 attempt: boom
  b  blocked by a
`
	if got := b.String(); got != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s%s", got, want, golden.FirstDifference([]byte(want), []byte(got)))
	}
}

func TestWriteTextOfAnEmptyTrace(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteText(&b, &Trace{Strategy: "dfs", Attempts: 3}); err != nil {
		t.Fatal(err)
	}
	want := "strategy dfs, max attempts 3\n\nend: no tasks\ndead-letter queue: empty\n"
	if b.String() != want {
		t.Errorf("WriteText = %q, want %q", b.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestWritersReportWriteErrors(t *testing.T) {
	t.Parallel()
	e, _ := Lookup("diamond-redrive")
	tr, err := Run(mustParse(t, e.Text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteText(failingWriter{}, tr); err != io.ErrClosedPipe {
		t.Errorf("WriteText error = %v, want %v", err, io.ErrClosedPipe)
	}
	if err := WriteJSON(failingWriter{}, tr); err != io.ErrClosedPipe {
		t.Errorf("WriteJSON error = %v, want %v", err, io.ErrClosedPipe)
	}
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	src := noteScript + "# after the failed expect: not run\nnext\n"
	s := mustParse(t, src)
	tr, _ := Run(s, Options{})
	var b bytes.Buffer
	if err := WriteJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(tr.Steps) || len(lines) != 10 {
		t.Fatalf("%d lines for %d steps, want 10", len(lines), len(tr.Steps))
	}

	t.Run("KeysInOrder", func(t *testing.T) {
		want := []string{"line", "cmd", "ok", "error", "now_ms", "task", "state", "states", "dlq", "events"}
		for _, line := range lines {
			if got := topKeys(t, line); !slices.Equal(got, want) {
				t.Errorf("keys %v, want %v in\n%s", got, want, line)
			}
		}
	})

	t.Run("Fields", func(t *testing.T) {
		type dead struct{ Task, Reason string }
		type step struct {
			Line   int
			Cmd    string
			OK     bool
			Error  string
			Task   string
			State  string
			States map[string]string
			DLQ    []dead
			Events []map[string]any
		}
		var steps []step
		for _, line := range lines {
			var st step
			if err := json.Unmarshal([]byte(line), &st); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, st)
		}
		wantCmds := []string{"attempts", "strategy", "submit", "submit", "next", "next", "fail", "submit", "expect", "expect"}
		for i, st := range steps {
			if st.Line != i+1 || st.Cmd != wantCmds[i] {
				t.Errorf("line %d: line %d cmd %q, want %d %q", i+1, st.Line, st.Cmd, i+1, wantCmds[i])
			}
			if st.OK != (st.Error == "") {
				t.Errorf("line %d: ok %v with error %q", st.Line, st.OK, st.Error)
			}
		}
		if st := steps[3]; st.OK || st.Error != "a: duplicate task" || st.Task != "a" || st.State != "READY" {
			t.Errorf("duplicate submit: %+v", st)
		}
		if st := steps[5]; !st.OK || st.Task != "" || st.State != "" {
			t.Errorf("empty next: %+v", st)
		}
		if st := steps[6]; st.State != "DEAD" || len(st.DLQ) != 1 || st.DLQ[0] != (dead{"a", "failed after 1 attempt: boom"}) {
			t.Errorf("fail: %+v", st)
		}
		last := steps[9]
		if last.OK || last.Error != "expect b READY: got BLOCKED" {
			t.Errorf("failed expect: %+v", last)
		}
		if want := map[string]string{"a": "DEAD", "b": "BLOCKED"}; !maps.Equal(last.States, want) {
			t.Errorf("states = %v, want %v", last.States, want)
		}
		wantDLQ := []dead{{"a", "failed after 1 attempt: boom"}, {"b", "blocked by a"}}
		if !slices.Equal(last.DLQ, wantDLQ) {
			t.Errorf("dlq = %v, want %v", last.DLQ, wantDLQ)
		}
		ev := steps[7].Events
		if len(ev) != 1 || ev[0]["kind"] != "submitted" || ev[0]["root"] != "a" || ev[0]["from"] != nil {
			t.Errorf("blocked arrival events = %v", ev)
		}
	})

	t.Run("EmptyCollectionsAreArrays", func(t *testing.T) {
		for _, key := range []string{`"dlq":[]`, `"events":[]`, `"states":{}`} {
			if !strings.Contains(lines[0], key) {
				t.Errorf("first line lacks %s: %s", key, lines[0])
			}
		}
		if strings.Contains(b.String(), "null") {
			t.Errorf("null in JSON output:\n%s", b.String())
		}
	})

	t.Run("NoHTMLEscaping", func(t *testing.T) {
		tr, _ := Run(mustParse(t, "submit a b\nsubmit b a\n"), Options{})
		var b bytes.Buffer
		if err := WriteJSON(&b, tr); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `"error":"cycle: b -> a -> b"`) {
			t.Errorf("cycle path escaped or missing:\n%s", b.String())
		}
	})
}

// topKeys returns the keys of a JSON object in the order they appear.
func topKeys(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", line)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
