package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/golden"
)

// goldenCase is one drawing kept under testdata/golden/NAME.svg.
type goldenCase struct {
	name  string
	nodes []Node
	opt   Options
}

func goldenCases(t *testing.T) []goldenCase {
	diamond := []Node{{"a", nil}, {"b", []string{"a"}}, {"c", []string{"a"}}, {"d", []string{"b", "c"}}}
	wide := fan(102, 0)
	wideStates := map[string]core.State{"download": core.Succeeded, "reduce": core.Pending}
	for i, n := range wide[1 : len(wide)-1] {
		switch {
		case i < 30:
			wideStates[n.Name] = core.Succeeded
		case i < 32:
			wideStates[n.Name] = core.Running
		default:
			wideStates[n.Name] = core.Ready
		}
	}
	return []goldenCase{
		{"diamond", diamond, Options{
			States: map[string]core.State{"a": core.Succeeded, "b": core.Dead, "c": core.Running, "d": core.Blocked},
			Reasons: map[string]string{
				"b": "failed after 3 attempts: HTTP 503",
				"d": "blocked by b",
			},
		}},
		{"chain-5", chain(5, 0), Options{}},
		trickyCycle(t),
		{"wide-100", wide, Options{States: wideStates}},
		{"escaping", []Node{
			{`<root>`, nil},
			{`a&b`, []string{`<root>`}},
			{`say "hi"`, []string{`<root>`, `not-submitted`}},
			{`it's <&"'> all`, []string{`a&b`, `say "hi"`}},
			{`a-name-far-too-long-for-its-box`, []string{`a&b`}},
		}, Options{
			States:    map[string]core.State{`<root>`: core.Dead, `a&b`: core.Blocked, `say "hi"`: core.Blocked},
			Reasons:   map[string]string{`<root>`: `failed after 1 attempt: want <x>, got "&y"`, `a&b`: `blocked by <root>`, `say "hi"`: `blocked by <root>`},
			Highlight: map[string]bool{`it's <&"'> all`: true},
		}},
	}
}

// runLibrary runs a scenario of the library and returns its trace.
func runLibrary(t *testing.T, name string) *scenario.Trace {
	t.Helper()
	e, ok := scenario.Lookup(name)
	if !ok {
		t.Fatalf("no %s scenario in the library", name)
	}
	s, err := scenario.Parse(e.Text)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := scenario.Run(s, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// trickyCycle runs the library's tricky-cycle scenario up to the moment c
// is accepted and draws the board then, the tasks of the refused cycle
// c -> a -> b -> c highlighted.
func trickyCycle(t *testing.T) goldenCase {
	t.Helper()
	tr := runLibrary(t, "tricky-cycle")
	var b scenario.Board
	var nodes []Node
	reasons := map[string]string{}
	highlight := map[string]bool{}
	for _, st := range tr.Steps {
		for _, ev := range st.Events {
			b.Apply(ev)
			switch ev.Kind {
			case core.EventSubmitted:
				nodes = append(nodes, Node{ev.Task, ev.Deps})
			case core.EventRejected:
				for _, task := range ev.Path {
					highlight[task] = true
				}
			}
		}
		if len(nodes) == 3 {
			break
		}
	}
	for _, d := range b.DeadLetters() {
		reasons[d.Task] = d.Reason
	}
	return goldenCase{"tricky-cycle", nodes, Options{States: b.States(), Reasons: reasons, Highlight: highlight}}
}

// TestGolden draws each case and compares it with its golden file. On a
// difference it writes the drawing beside the golden file as NAME.svg.got.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSVG(&buf, c.nodes, LayOut(c.nodes), c.opt); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", c.name+".svg")
			golden.Check(t, path, buf.Bytes(), "go test ./core/render -run TestGolden -update")
		})
	}
}
