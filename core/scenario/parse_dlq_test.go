package scenario

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// TestParseDLQCommands: each command of operating the DLQ parses to its
// fields, and its canonical form parses back to the same command.
func TestParseDLQCommands(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src, canonical string
		want           Command
	}{
		{"poison 3", "poison 3", Command{Op: OpPoison, N: 3}},
		{"alert 10 1m", "alert 10 1m", Command{Op: OpAlert, N: 10, Dur: time.Minute}},
		{"redrive! p", "redrive! p", Command{Op: OpRedrive, Task: "p", Force: true}},
		{"redrive matching HTTP 503", "redrive matching HTTP 503", Command{Op: OpRedriveMatching, Match: "HTTP 503"}},
		{"redrive matching  HTTP  503 at 2/1s", "redrive matching HTTP  503 at 2/1s",
			Command{Op: OpRedriveMatching, Match: "HTTP  503", Rate: core.Rate{N: 2, Per: time.Second}}},
		{"redrive matching HTTP 503 at 2/s", "redrive matching HTTP 503 at 2/1s",
			Command{Op: OpRedriveMatching, Match: "HTTP 503", Rate: core.Rate{N: 2, Per: time.Second}}},
		{"redrive matching key='x' \"q\" at 10/500ms # c", "redrive matching key='x' \"q\" at 10/500ms",
			Command{Op: OpRedriveMatching, Match: `key='x' "q"`, Rate: core.Rate{N: 10, Per: 500 * time.Millisecond}}},
		{"redrive matching at", "redrive matching at", Command{Op: OpRedriveMatching, Match: "at"}},
		{"redrive group HTTP 503 from <addr>", "redrive group HTTP 503 from <addr>",
			Command{Op: OpRedriveGroup, Fingerprint: "HTTP 503 from <addr>"}},
		{"redrive group 2 at 5/1m", "redrive group 2 at 5/1m", Command{Op: OpRedriveGroup, Group: 2, Rate: core.Rate{N: 5, Per: time.Minute}}},
		{"preview redrive matching HTTP", "preview redrive matching HTTP", Command{Op: OpPreview, Match: "HTTP"}},
		{"preview redrive group 1", "preview redrive group 1", Command{Op: OpPreview, Group: 1}},
		{"preview redrive group lease expired", "preview redrive group lease expired", Command{Op: OpPreview, Fingerprint: "lease expired"}},
		{"redrive cancel", "redrive cancel", Command{Op: OpRedriveCancel}},
		{"dlq", "dlq", Command{Op: OpDLQ}},
		// A task may still be called matching, group or cancel... except
		// that "redrive cancel" cancels.
		{"redrive matching", "redrive matching", Command{Op: OpRedrive, Task: "matching"}},
		{"redrive group", "redrive group", Command{Op: OpRedrive, Task: "group"}},
	} {
		s, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		got := s.Commands[0]
		got.Line, got.Col, got.Text = 0, 0, ""
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.src, got, tt.want)
		}
		if c := s.Commands[0].String(); c != tt.canonical {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.src, c, tt.canonical)
		}
		again, err := Parse(tt.canonical)
		if err != nil {
			t.Errorf("Parse(%q) of the canonical form: %v", tt.canonical, err)
			continue
		}
		a := again.Commands[0]
		a.Line, a.Col, a.Text = 0, 0, ""
		if !reflect.DeepEqual(a, tt.want) {
			t.Errorf("the canonical %q parses to %+v, want %+v", tt.canonical, a, tt.want)
		}
	}
	s, err := Parse("poison 2\nalert 3 10s\nsubmit a\n")
	if err != nil || s.PoisonAfter != 2 || s.Alert != (core.Alert{Entries: 3, Window: 10 * time.Second}) {
		t.Errorf("the header of poison and alert: %+v, %v", s, err)
	}
}

func TestParseDLQErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"poison", 1, 7, "poison needs a number of redrives"},
		{"poison 0", 1, 8, `poison must be a whole number from 1 to 1073741824, got "0"`},
		{"poison x", 1, 8, `poison must be a whole number from 1 to 1073741824, got "x"`},
		{"poison 1 2", 1, 10, `poison takes a number of redrives, got extra "2"`},
		{"submit a\npoison 1", 2, 1, "poison must come before the first submit (on line 1)"},
		{"poison 1\npoison 2", 2, 1, "poison given twice (first on line 1)"},
		{"alert 10", 1, 9, "alert needs a number of entries and a window, as alert 10 1m"},
		{"alert 0 1m", 1, 7, `the entries must be a whole number from 1 to 16777216, got "0"`},
		{"alert 2 0s", 1, 9, `the window must be more than 0, got "0s"`},
		{"alert 2 soon", 1, 9, `the window must be a duration such as 250ms, 30s or 2m, got "soon"`},
		{"redrive matching HTTP at 2", 1, 26, `the rate must be N/DURATION, as at 2/1s or at 10/m, got "2"`},
		{"redrive matching HTTP at 0/1s", 1, 26, `the rate's count must be a whole number from 1 to 1073741824, got "0"`},
		{"redrive matching HTTP at 2/0s", 1, 28, `the rate's period must be more than 0, got "0s"`},
		{"redrive matching HTTP at 2/soon", 1, 28, `the rate's period must be a duration such as 250ms, 30s or 2m, got "soon"`},
		{"redrive group 0", 1, 15, `the group number must be a whole number from 1 to 1073741824, got "0"`},
		{"redrive! a b", 1, 12, `redrive takes one task, got extra "b"`},
		{"redrive!", 1, 9, "redrive needs a task"},
		{"preview", 1, 8, "preview needs what to preview: preview redrive matching TEXT or preview redrive group G"},
		{"preview a", 1, 9, `preview what? want preview redrive matching TEXT or preview redrive group G, got "a"`},
		{"preview redrive", 1, 16, "preview redrive needs matching TEXT or group G"},
		{"preview redrive a", 1, 17, `preview redrive: want matching TEXT or group G, got "a"`},
		{"preview redrive matching", 1, 25, "preview redrive matching needs the text the error contains"},
		{"preview redrive matching x at 1/1s", 1, 28, "preview redrive takes no rate: the preview is of the whole redrive"},
		{"dlq now", 1, 5, `dlq takes no arguments, got "now"`},
	} {
		_, err := Parse(tt.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError", tt.src, err)
			continue
		}
		if se.Line != tt.line || se.Col != tt.col || se.Msg != tt.msg {
			t.Errorf("Parse(%q) = %d:%d: %s\nwant %d:%d: %s", tt.src, se.Line, se.Col, se.Msg, tt.line, tt.col, tt.msg)
		}
	}
}
