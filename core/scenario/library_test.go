package scenario

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/internal/golden"
)

func TestLibrary(t *testing.T) {
	t.Parallel()
	lib := Library()
	var names []string
	for _, e := range lib {
		names = append(names, e.Name)
	}
	want := []string{"blocked-on-arrival", "chain-200", "diamond-redrive", "retry-back-of-line", "tricky-cycle", "two-roots", "wide-1000"}
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Errorf("library lacks %s (has %v)", w, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("library not sorted by name: %v", names)
	}
	for _, e := range lib {
		first, _, _ := strings.Cut(e.Text, "\n")
		if e.Title == "" || first != "# "+e.Title {
			t.Errorf("%s: title %q, first line %q; want a \"# Title\" line first", e.Name, e.Title, first)
		}
		got, ok := Lookup(e.Name)
		if !ok || got != e {
			t.Errorf("Lookup(%q) = %v, %v", e.Name, got.Name, ok)
		}
	}
	if _, ok := Lookup("no-such-scenario"); ok {
		t.Error("Lookup of a missing name succeeded")
	}
}

// refusalMarked reports whether line n of text carries a comment that
// starts with "refused": the library's mark of an intended refusal.
func refusalMarked(text string, n int) bool {
	line := strings.Split(text, "\n")[n-1]
	_, comment, ok := strings.Cut(line, "#")
	return ok && strings.HasPrefix(strings.TrimSpace(comment), "refused")
}

// TestLibraryRunsClean runs every scenario with every strategy: no expect
// fails, an operation is refused exactly where the scenario marks it, and
// every strategy gives the same trace.
func TestLibraryRunsClean(t *testing.T) {
	t.Parallel()
	for _, e := range Library() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse(e.Text)
			if err != nil {
				t.Fatal(err)
			}
			explained := 0
			for _, line := range strings.Split(e.Text, "\n")[1:] {
				if !strings.HasPrefix(line, "#") {
					break
				}
				explained++
			}
			if explained < 3 {
				t.Errorf("only %d comment lines under the title; say what to watch", explained)
			}
			if !slices.ContainsFunc(s.Commands, func(c Command) bool { return c.Op == OpExpect }) {
				t.Error("no expect line")
			}
			var first string
			for _, strategy := range incremental.Names() {
				tr, err := Run(s, Options{Strategy: strategy})
				if err != nil {
					t.Fatalf("strategy %s: %v", strategy, err)
				}
				if len(tr.Steps) != len(s.Commands) {
					t.Fatalf("strategy %s: %d steps for %d commands", strategy, len(tr.Steps), len(s.Commands))
				}
				for _, st := range tr.Steps {
					if marked := refusalMarked(e.Text, st.Command.Line); st.OK == marked {
						t.Errorf("strategy %s: line %d %q: ok %v (%s), but marked as refused: %v",
							strategy, st.Command.Line, st.Command.Text, st.OK, st.Err, marked)
					}
				}
				var b bytes.Buffer
				if err := WriteText(&b, tr); err != nil {
					t.Fatal(err)
				}
				// The header names the strategy; the rest must agree.
				_, body, _ := strings.Cut(b.String(), "\n")
				if first == "" {
					first = body
				} else if body != first {
					t.Errorf("strategy %s gives another trace than %s%s", strategy, incremental.Names()[0],
						golden.FirstDifference([]byte(first), []byte(body)))
				}
			}
		})
	}
}
