package playground

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// wideCycle is a script whose last submit is refused: x would wait on
// s5, a task of a layer drawn as a compact grid, which waits on a, which
// waits on x.
func wideCycle(width int) string {
	var b strings.Builder
	b.WriteString("submit a x\n")
	for i := range width {
		fmt.Fprintf(&b, "submit s%d a\n", i)
	}
	b.WriteString("submit x s5\n")
	return b.String()
}

// TestRefusedEdgeEndsAtCells lays out a refused cycle through a cell of a
// compact grid and checks where the edge the submit asked for (from s5 up
// to x) starts and ends: at the middle of the right side of the cell, and
// of x's box; and, for the edges drawn downwards, at the middle of the
// bottom and top sides of each end's own box.
func TestRefusedEdgeEndsAtCells(t *testing.T) {
	s, err := session.New(wideCycle(CompactAbove+10), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cycle := s.Cycle(s.Len())
	if len(cycle) == 0 {
		t.Fatal("the last submit is not refused as a cycle")
	}
	nodes, _ := GraphNodes(s.GraphAt(StepEnd))
	l := LayOut(nodes)
	if !l.Compact["s5"] || l.Compact["x"] || l.CellW >= l.NodeW {
		t.Fatalf("s5 is not a cell (compact %v, cell %vx%v, box %vx%v)", l.Compact["s5"], l.CellW, l.CellH, l.NodeW, l.NodeH)
	}
	near := func(p render.Point, x, y float64) bool { return math.Abs(p.X-x) < 0.01 && math.Abs(p.Y-y) < 0.01 }

	t.Run("UpFromACellToABox", func(t *testing.T) {
		r, ok := Refused(l, "s5", "x")
		if !ok {
			t.Fatal("no edge")
		}
		s5, x := l.Pos["s5"], l.Pos["x"]
		if !near(r.From, s5.X+l.CellW/2, s5.Y) {
			t.Errorf("the edge leaves s5 at %v, want the middle of the cell's right side (%v, %v)", r.From, s5.X+l.CellW/2, s5.Y)
		}
		if !near(r.To, x.X+l.NodeW/2, x.Y) {
			t.Errorf("the edge meets x at %v, want the middle of its right side (%v, %v)", r.To, x.X+l.NodeW/2, x.Y)
		}
		if !strings.HasPrefix(r.Path, "M"+coord(r.From.X)+","+coord(r.From.Y)+" ") || !strings.HasSuffix(r.Path, " "+coord(r.To.X)+","+coord(r.To.Y)) {
			t.Errorf("path %q does not run from %v to %v", r.Path, r.From, r.To)
		}
	})
	t.Run("DownFromABoxToACell", func(t *testing.T) {
		r, ok := Refused(l, "a", "s7")
		if !ok {
			t.Fatal("no edge")
		}
		a, s7 := l.Pos["a"], l.Pos["s7"]
		if !near(r.From, a.X, a.Y+l.NodeH/2) || !near(r.To, s7.X, s7.Y-l.CellH/2) {
			t.Errorf("edge from %v to %v, want from %v to %v", r.From, r.To,
				render.Point{X: a.X, Y: a.Y + l.NodeH/2}, render.Point{X: s7.X, Y: s7.Y - l.CellH/2})
		}
		if r.Path != l.Edge("a", "s7") {
			t.Errorf("path %q, want the layout's edge %q", r.Path, l.Edge("a", "s7"))
		}
	})
	t.Run("NoEdgeForAMissingOrTheSameTask", func(t *testing.T) {
		for _, e := range [][2]string{{"a", "a"}, {"a", "nothing"}, {"nothing", "a"}} {
			if _, ok := Refused(l, e[0], e[1]); ok {
				t.Errorf("an edge %s → %s", e[0], e[1])
			}
		}
	})
}

// TestARefusedArcStaysInsideTheDrawing: tricky-cycle's refused edge,
// from c up past b to a, bends out to the right; its widest point, and
// its stroke, lie inside the layout's width, where the drawing is not
// cut off.
func TestARefusedArcStaysInsideTheDrawing(t *testing.T) {
	for _, tall := range []int{1, 2, 5, 40} {
		var b strings.Builder
		b.WriteString("submit a t0\n")
		for i := range tall {
			fmt.Fprintf(&b, "submit t%d t%d\n", i, i+1)
		}
		fmt.Fprintf(&b, "submit t%d\nsubmit t%d a\n", tall, tall)
		s, err := session.New(b.String(), scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		nodes, _ := GraphNodes(s.GraphAt(StepEnd))
		l := LayOut(nodes)
		r, ok := Refused(l, "a", fmt.Sprintf("t%d", tall))
		if !ok {
			t.Fatal("no refused edge")
		}
		var x0, y0, c1, c2, x1, y1 float64
		if _, err := fmt.Sscanf(r.Path, "M%g,%g C%g,%g %g,%g %g,%g", &x0, &y0, &c1, new(float64), &c2, new(float64), &x1, &y1); err != nil {
			t.Fatalf("path %q: %v", r.Path, err)
		}
		// The curve's widest point, at t = 1/2: (x0 + 3c1 + 3c2 + x1)/8.
		widest := (x0 + 3*c1 + 3*c2 + x1) / 8
		if widest+arcStroke > l.Width || widest <= max(x0, x1) {
			t.Errorf("a chain of %d: the arc reaches x = %v, the drawing is %v wide (its ends at x = %v)", tall, widest, l.Width, max(x0, x1))
		}
	}
}
