package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// parsed is what a drawing says, read back with encoding/xml.
type parsed struct {
	tasks  map[string]string // data-task → data-state
	order  []string          // data-task in document order
	edges  [][2]string       // data-from, data-to
	titles map[string]string // data-task → the task's <title>
}

func parseSVG(t *testing.T, doc []byte) parsed {
	t.Helper()
	p := parsed{tasks: map[string]string{}, titles: map[string]string{}}
	d := xml.NewDecoder(bytes.NewReader(doc))
	var inTask string
	var inTitle bool
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch {
			case tok.Name.Local == "g" && attr["class"] == "task":
				name, ok := attr["data-task"]
				if !ok {
					t.Errorf("task group without data-task: %v", tok.Attr)
				}
				if _, dup := p.tasks[name]; dup {
					t.Errorf("task %q drawn twice", name)
				}
				p.tasks[name] = attr["data-state"]
				p.order = append(p.order, name)
				inTask = name
			case tok.Name.Local == "path" && attr["class"] == "edge":
				p.edges = append(p.edges, [2]string{attr["data-from"], attr["data-to"]})
			case tok.Name.Local == "title" && inTask != "":
				inTitle = true
			}
		case xml.EndElement:
			if tok.Name.Local == "title" {
				inTitle = false
			}
		case xml.CharData:
			if inTitle {
				p.titles[inTask] += string(tok)
			}
		}
	}
	return p
}

func TestSVGIsXMLWithOneGroupPerTask(t *testing.T) {
	t.Parallel()
	cases := map[string][]Node{
		"Empty":    nil,
		"Random":   random3(200, 9),
		"Fan":      fan(500, 0),
		"Escaping": {{`<a>`, nil}, {`b&"c"`, []string{`<a>`}}, {"tab\tand\x01control", []string{`b&"c"`}}},
	}
	for name, nodes := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			states := map[string]core.State{}
			for i, n := range nodes {
				states[n.Name] = core.States()[i%len(core.States())]
			}
			var buf bytes.Buffer
			if err := WriteSVG(&buf, nodes, LayOut(nodes), Options{States: states}); err != nil {
				t.Fatal(err)
			}
			p := parseSVG(t, buf.Bytes())
			g := newGraph(nodes)
			if len(p.tasks) != len(g.names) {
				t.Errorf("%d task groups, want %d", len(p.tasks), len(g.names))
			}
			for _, n := range g.names {
				want := strings.ToValidUTF8(n, "\uFFFD")
				if strings.ContainsRune(n, '\x01') {
					want = strings.ReplaceAll(n, "\x01", "\uFFFD")
				}
				if got, ok := p.tasks[want]; !ok {
					t.Errorf("no group for task %q", n)
				} else if got != string(states[n]) {
					t.Errorf("task %q: data-state %q, want %q", n, got, states[n])
				}
			}
			edges := 0
			for _, d := range g.deps {
				edges += len(d)
			}
			if len(p.edges) != edges {
				t.Errorf("%d edges drawn, want %d", len(p.edges), edges)
			}
		})
	}
}

func TestSVGTooltipsAndMarks(t *testing.T) {
	t.Parallel()
	nodes := []Node{{"a", nil}, {"b", []string{"a", "ghost", "a", "b"}}, {"a", []string{"b"}}}
	var buf bytes.Buffer
	err := WriteSVG(&buf, nodes, LayOut(nodes), Options{
		States:    map[string]core.State{"a": core.Dead, "b": core.Blocked},
		Reasons:   map[string]string{"a": "failed after 3 attempts: boom", "b": "blocked by a"},
		Highlight: map[string]bool{"b": true},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := parseSVG(t, buf.Bytes())
	t.Run("ReasonsAreTooltips", func(t *testing.T) {
		if got, want := p.titles["a"], "a — DEAD: failed after 3 attempts: boom"; got != want {
			t.Errorf("title of a = %q, want %q", got, want)
		}
		if got, want := p.titles["b"], "b — BLOCKED: blocked by a"; got != want {
			t.Errorf("title of b = %q, want %q", got, want)
		}
	})
	t.Run("UnknownRepeatedAndSelfDepsAreIgnored", func(t *testing.T) {
		if len(p.edges) != 1 || p.edges[0] != [2]string{"a", "b"} {
			t.Errorf("edges %v, want only a → b", p.edges)
		}
	})
	t.Run("ARepeatedTaskIsDrawnOnce", func(t *testing.T) {
		if len(p.order) != 2 {
			t.Errorf("tasks drawn: %v", p.order)
		}
	})
	t.Run("HighlightIsMarkedWithoutColour", func(t *testing.T) {
		s := buf.String()
		if strings.Count(s, `data-highlight="true" transform=`) != 1 || strings.Count(s, `<rect class="halo"`) != 1 {
			t.Errorf("want one highlighted task with a halo:\n%s", s)
		}
	})
}

func TestWriteSVGRefusesATaskWithoutAPosition(t *testing.T) {
	t.Parallel()
	nodes := []Node{{"a", nil}, {"b", []string{"a"}}}
	l := LayOut(nodes[:1])
	var buf bytes.Buffer
	err := WriteSVG(&buf, nodes, l, Options{})
	if err == nil || !strings.Contains(err.Error(), `render: task "b"`) {
		t.Errorf("err = %v, want one naming task b", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes before failing", buf.Len())
	}
}

func TestShorten(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{"exactly-17-chars!", "exactly-17-chars!"},
		{"eighteen-chars-abc", "eighteen-chars-a…"},
		{"ünïcödé-ñämes-are-cut", "ünïcödé-ñämes-ar…"},
	} {
		if got := shorten(c.in, maxName); got != c.want {
			t.Errorf("shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
