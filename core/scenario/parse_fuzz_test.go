package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dagq/dagq/internal/golden"
)

// FuzzParse checks that Parse never panics, that a syntax error points
// inside the script, and that a script it accepts prints back, with
// Script.String, to text that parses to the same script. The seed corpus
// is testdata/fuzz/FuzzParse: every library scenario (kept in step by
// TestFuzzCorpusHasTheLibrary) and malformed scripts.
func FuzzParse(f *testing.F) {
	for _, e := range Library() {
		f.Add(e.Text)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src)
		lines := strings.Split(src, "\n")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error %T %v, want a *SyntaxError", err, err)
			}
			if s != nil {
				t.Fatal("Parse returned a script with its error")
			}
			if se.Line < 1 || se.Line > len(lines) {
				t.Fatalf("%v: line out of 1..%d", se, len(lines))
			}
			if n := utf8.RuneCountInString(lines[se.Line-1]); se.Col < 1 || se.Col > n+1 {
				t.Fatalf("%v: column out of 1..%d", se, n+1)
			}
			if se.Msg == "" {
				t.Fatalf("%v: empty message", se)
			}
			return
		}
		for _, c := range s.Commands {
			if c.Line < 1 || c.Line > len(lines) || c.Col < 1 {
				t.Fatalf("command %+v: position out of the script", c)
			}
		}
		text := s.String()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(String()) of %q: %v", text, err)
		}
		if !sameScript(s, back) {
			t.Fatalf("Parse(String()) differs:\n\t%+v\nwant\n\t%+v", back, s)
		}
		for i, c := range back.Commands {
			if c.Line != i+1 || c.Col != 1 || c.Text != c.String() {
				t.Fatalf("canonical command %+v: want line %d, column 1, text %q", c, i+1, c.String())
			}
		}
		if again := back.String(); again != text {
			t.Fatalf("String() is not canonical: %q, then %q", text, again)
		}
	})
}

// sameScript compares scripts except for where the commands were written.
func sameScript(a, b *Script) bool {
	return a.Attempts == b.Attempts && a.Strategy == b.Strategy &&
		a.PoisonAfter == b.PoisonAfter && a.Alert == b.Alert &&
		slices.EqualFunc(a.Commands, b.Commands, func(x, y Command) bool {
			return x.Op == y.Op && x.Task == y.Task && slices.Equal(x.Deps, y.Deps) &&
				x.Err == y.Err && x.Want == y.Want && x.N == y.N && x.Strategy == y.Strategy &&
				x.Dur == y.Dur && x.Force == y.Force && x.Match == y.Match &&
				x.Fingerprint == y.Fingerprint && x.Group == y.Group && x.Rate == y.Rate
		})
}

// TestFuzzCorpusHasTheLibrary keeps a seed file per library scenario,
// testdata/fuzz/FuzzParse/library-NAME; -update rewrites them.
func TestFuzzCorpusHasTheLibrary(t *testing.T) {
	for _, e := range Library() {
		path := filepath.Join("testdata", "fuzz", "FuzzParse", "library-"+e.Name)
		want := "go test fuzz v1\nstring(" + strconv.Quote(e.Text) + ")\n"
		if golden.Update() {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is missing or out of date; rewrite it with:\n\tgo test ./core/scenario -run TestFuzzCorpusHasTheLibrary -update", path)
		}
	}
}
