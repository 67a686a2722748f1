package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/render"
)

// wide is download, n shards waiting on it, and reduce waiting on them all.
func wide(n int) []render.Node {
	nodes := []render.Node{{Name: "download"}}
	var all []string
	for i := range n {
		name := fmt.Sprintf("shard-%04d", i)
		nodes = append(nodes, render.Node{Name: name, Deps: []string{"download"}})
		all = append(all, name)
	}
	return append(nodes, render.Node{Name: "reduce", Deps: all})
}

func TestCompactGrid(t *testing.T) {
	t.Parallel()
	t.Run("AWideLayerIsAGridOfCellsInArrivalOrder", func(t *testing.T) {
		l := render.Compact{Above: 120}.LayOut(wide(1000))
		if len(l.Compact) != 1000 || l.Compact["download"] || l.Compact["reduce"] {
			t.Fatalf("%d cells, download %v, reduce %v: want the 1,000 shards alone", len(l.Compact), l.Compact["download"], l.Compact["reduce"])
		}
		a, b, next := l.Pos["shard-0000"], l.Pos["shard-0001"], l.Pos[fmt.Sprintf("shard-%04d", render.CompactRow)]
		if b.Y != a.Y || b.X <= a.X || next.Y <= a.Y || next.X != a.X {
			t.Fatalf("cells not row by row in arrival order: %v %v %v", a, b, next)
		}
		// No two cells overlap, and each lies within the drawing.
		seen := map[[2]float64]bool{}
		for name := range l.Compact {
			p := l.Pos[name]
			if seen[[2]float64{p.X, p.Y}] {
				t.Fatalf("two cells at %v", p)
			}
			seen[[2]float64{p.X, p.Y}] = true
			if p.X-l.CellW/2 < 0 || p.X+l.CellW/2 > l.Width || p.Y+l.CellH/2 > l.Height {
				t.Fatalf("cell %s at %v outside %v×%v", name, p, l.Width, l.Height)
			}
		}
		// The grid takes far less room than the boxes it replaces.
		boxes := render.LayOut(wide(1000))
		if l.Width*l.Height > boxes.Width*boxes.Height/5 {
			t.Errorf("the grid's drawing is %.0f×%.0f, the boxes' %.0f×%.0f", l.Width, l.Height, boxes.Width, boxes.Height)
		}
		// reduce is below the grid, and its edges start at the cells'
		// bottoms.
		if r, last := l.Pos["reduce"], l.Pos["shard-0999"]; r.Y-l.NodeH/2 <= last.Y+l.CellH/2 {
			t.Fatalf("reduce at %v is not below the grid's last cell %v", r, last)
		}
		w, h := l.Box("shard-0007")
		if w != l.CellW || h != l.CellH {
			t.Fatalf("Box of a cell = %v×%v", w, h)
		}
		if e, want := l.Edge("shard-0007", "reduce"), fmt.Sprintf("M%v,%v", l.Pos["shard-0007"].X, l.Pos["shard-0007"].Y+l.CellH/2); !strings.HasPrefix(e, want) {
			t.Fatalf("the edge from a cell starts %q, want %q", e[:min(len(e), 24)], want)
		}
	})
	t.Run("ANarrowerLayerStaysBoxes", func(t *testing.T) {
		l := render.Compact{Above: 120}.LayOut(wide(120))
		if l.Compact != nil {
			t.Fatalf("%d cells in a layer of 120, at most 120 boxes", len(l.Compact))
		}
		if got, want := l, render.LayOut(wide(120)); got.Width != want.Width || got.Height != want.Height {
			t.Fatalf("compaction changed a layout it does not apply to")
		}
	})
	t.Run("TheZeroCompactIsLayOut", func(t *testing.T) {
		if l := (render.Compact{}).LayOut(wide(1000)); l.Compact != nil {
			t.Fatal("the zero Compact made cells")
		}
	})
}
