package playground_test

import (
	"fmt"
	"testing"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/internal/playground"
)

// TestTaskAtTap checks the targets a finger gets on a drawing shown
// smaller than life: a box 44 units tall at zoom 0.75 is 33 px, so a tap up
// to 5.5 px above or below it is its, and no further; a box shown at 44 px
// or more is its own target; wide boxes are never grown across; of a
// compact grid's cells, whose grown targets overlap, the nearest takes
// the tap.
func TestTaskAtTap(t *testing.T) {
	l := render.LayOut([]render.Node{{Name: "a"}, {Name: "b", Deps: []string{"a"}}, {Name: "c", Deps: []string{"a"}}})
	a, b := l.Pos["a"], l.Pos["b"]
	const z = 0.75
	grow := (playground.TapSize/z - l.NodeH) / 2 // in layout units: 5.5 px on the screen
	for _, c := range []struct {
		what string
		x, y float64
		zoom float64
		want string
	}{
		{"inside a", a.X, a.Y, z, "a"},
		{"just above a, within reach", a.X, a.Y - l.NodeH/2 - grow + 0.01, z, "a"},
		{"above a, out of reach", a.X, a.Y - l.NodeH/2 - grow - 0.01, z, ""},
		{"just below b, within reach", b.X, b.Y + l.NodeH/2 + grow - 0.01, z, "b"},
		{"beside b, out of its width", b.X + l.NodeW/2 + 1, b.Y, z, ""},
		{"above a at full size", a.X, a.Y - l.NodeH/2 - 1, 1, ""},
		{"inside a at full size", a.X, a.Y - l.NodeH/2 + 1, 1, "a"},
		{"no zoom", a.X, a.Y, 0, ""},
	} {
		got, ok := playground.TaskAtTap(l, c.zoom, c.x, c.y)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: (%q, %v), want %q", c.what, got, ok, c.want)
		}
	}

	// A compact grid: a layer of 200 below one root.
	nodes := []render.Node{{Name: "root"}}
	for i := range 200 {
		nodes = append(nodes, render.Node{Name: fmt.Sprintf("s%03d", i), Deps: []string{"root"}})
	}
	g := render.Compact{Above: 100}.LayOut(nodes)
	if !g.Compact["s000"] {
		t.Fatal("the layer was not laid out as a compact grid")
	}
	s0, s1 := g.Pos["s000"], g.Pos["s001"]
	// Between two cells, a little nearer the second: the second's.
	x := s0.X + (s1.X-s0.X)*0.55
	if got, _ := playground.TaskAtTap(g, 0.5, x, s0.Y); got != "s001" {
		t.Errorf("between s000 and s001, nearer s001: %q", got)
	}
	if got, _ := playground.TaskAtTap(g, 0.5, s0.X, s0.Y); got != "s000" {
		t.Errorf("on s000: %q", got)
	}
}
