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
