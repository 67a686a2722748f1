package playground_test

import (
	"testing"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// TestLayOutDrawsWideLayersAsGrids: wide-1000's shards are cells of a
// compact grid that fits a screen's width at a readable zoom; a graph
// with no layer wider than CompactAbove is all boxes.
func TestLayOutDrawsWideLayersAsGrids(t *testing.T) {
	t.Parallel()
	layout := func(name string) (int, float64) {
		p := playground.New()
		if _, _, err := p.Open("?scenario="+name, ""); err != nil {
			t.Fatal(err)
		}
		nodes, _ := playground.GraphNodes(p.Session().GraphAt(scenario.StepEnd))
		l := playground.LayOut(nodes)
		return len(l.Compact), l.Width
	}
	if cells, w := layout("wide-1000"); cells != 1000 || w > 1500 {
		t.Errorf("wide-1000: %d cells, %v units wide; want its 1,000 shards as cells, at most 1,500 wide", cells, w)
	}
	if cells, _ := layout("chain-200"); cells != 0 {
		t.Errorf("chain-200: %d cells, want none", cells)
	}
}

// TestBundles: the edges with a cell at either end are drawn as one path
// for each pair of ends; every such edge is in exactly one bundle.
func TestBundles(t *testing.T) {
	t.Parallel()
	p := playground.New()
	if _, _, err := p.Open("?scenario=wide-1000", ""); err != nil {
		t.Fatal(err)
	}
	nodes, _ := playground.GraphNodes(p.Session().GraphAt(scenario.StepEnd))
	l := playground.LayOut(nodes)
	grids := playground.Grids(l)
	if len(grids) != 1 || grids[0].Cells != 1000 {
		t.Fatalf("grids %+v, want one of 1,000 cells", grids)
	}
	g := grids[0]
	for task := range l.Compact {
		if q := l.Pos[task]; q.X < g.X0 || q.X > g.X1 || q.Y < g.Y0 || q.Y > g.Y1 {
			t.Fatalf("cell %s at %v is outside its grid %+v", task, q, g)
		}
	}
	bs := playground.Bundles(nodes, l)
	if len(bs) != 2 {
		t.Fatalf("%d bundles, want 2: %+v", len(bs), bs)
	}
	in, out := bs[0], bs[1]
	if in.From != "download" || in.ToGrid != 0 || in.Edges != 1000 || out.FromGrid != 0 || out.To != "reduce" || out.Edges != 1000 {
		t.Errorf("bundles %+v, %+v; want download → grid and grid → reduce, 1,000 edges each", in, out)
	}
	if in.Path == "" || in.Title != "1000 edges: download → 1000 tasks" {
		t.Errorf("bundle path %q, title %q", in.Path, in.Title)
	}
	// Every bundled edge is counted once.
	want := 0
	for _, n := range nodes {
		for _, d := range n.Deps {
			if playground.Bundled(l, d, n.Name) {
				want++
			}
		}
	}
	got := 0
	for _, b := range bs {
		got += b.Edges
	}
	if got != want {
		t.Errorf("bundles hold %d edges, want %d", got, want)
	}
}
