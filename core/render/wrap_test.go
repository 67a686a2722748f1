package render

import (
	"testing"

	"github.com/dagq/dagq/core"
)

// The library's 1,000-shard scenario: one download, 1,000 shards waiting on
// it, one reduce waiting on them all. The shards' layer wraps into rows of
// maxRow boxes, so the drawing is maxRow boxes wide and grows downward.
func TestWideLayerWraps(t *testing.T) {
	t.Parallel()
	tr := runLibrary(t, "wide-1000")
	var nodes []Node
	for _, st := range tr.Steps {
		for _, ev := range st.Events {
			if ev.Kind == core.EventSubmitted {
				nodes = append(nodes, Node{ev.Task, ev.Deps})
			}
		}
	}
	if len(nodes) < 1000 {
		t.Fatalf("the scenario submits %d tasks", len(nodes))
	}
	l := LayOut(nodes)
	checkLayout(t, nodes, l)
	if max := maxRow*pitch - gapX + 2*margin; l.Width > max {
		t.Errorf("width %v, want at most %v (%d boxes)", l.Width, max, maxRow)
	}
	rows := map[int]map[float64]bool{}
	for name, layer := range l.Layer {
		if rows[layer] == nil {
			rows[layer] = map[float64]bool{}
		}
		rows[layer][l.Pos[name].Y] = true
	}
	perLayer := map[int]int{}
	for _, layer := range l.Layer {
		perLayer[layer]++
	}
	for layer, n := range perLayer {
		if want := (n + maxRow - 1) / maxRow; len(rows[layer]) != want {
			t.Errorf("layer %d: %d tasks in %d rows, want %d", layer, n, len(rows[layer]), want)
		}
	}
	// The rows of one layer are closer to each other than to the next layer.
	if y0, y1 := l.Pos[nodes[1].Name].Y, l.Pos[nodes[1+maxRow].Name].Y; y1-y0 != nodeH+rowGap {
		t.Errorf("rows of a layer %v apart, want %v", y1-y0, nodeH+rowGap)
	}
}

// A graph with a cycle cannot come from a queue, but LayOut still places
// every task, dropping the edge that closes the cycle: the depth-first walk
// from a goes a → c → b and finds b waiting on a, still on the walk.
func TestLayOutSurvivesACycle(t *testing.T) {
	t.Parallel()
	nodes := []Node{{"a", []string{"c"}}, {"b", []string{"a"}}, {"c", []string{"b"}}, {"d", []string{"c", "d"}}}
	l := LayOut(nodes)
	if len(l.Pos) != 4 {
		t.Fatalf("placed %d of 4 tasks", len(l.Pos))
	}
	want := map[string]int{"b": 0, "c": 1, "a": 2, "d": 2}
	for name, layer := range want {
		if l.Layer[name] != layer {
			t.Errorf("layer of %s = %d, want %d (all: %v)", name, l.Layer[name], layer, l.Layer)
		}
	}
}

func TestLayOutOfNothing(t *testing.T) {
	t.Parallel()
	l := LayOut(nil)
	if len(l.Pos) != 0 || l.Width != 2*margin || l.Height != 2*margin || l.NodeW != nodeW {
		t.Errorf("LayOut(nil) = %+v", l)
	}
}

// TestARowWrapsToFitAWidth: with Compact.Row, a layer wider than Row boxes
// wraps into rows of Row boxes, so that the drawing fits a phone's stage
// across (BoxesIn says how many fit); a compact grid keeps its rows.
func TestARowWrapsToFitAWidth(t *testing.T) {
	t.Parallel()
	if got := BoxesIn(342); got != 2 {
		t.Errorf("BoxesIn(342) = %d, want 2", got)
	}
	if BoxesIn(0) != 1 || BoxesIn(1e6) != maxRow {
		t.Errorf("BoxesIn(0) = %d, BoxesIn(1e6) = %d, want 1 and %d", BoxesIn(0), BoxesIn(1e6), maxRow)
	}
	nodes := []Node{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}, {"g", []string{"a", "f"}}}
	l := Compact{Row: BoxesIn(342)}.LayOut(nodes)
	checkLayout(t, nodes, l)
	if l.Width > 342 {
		t.Errorf("rows of %d boxes: the drawing is %v wide, over 342", BoxesIn(342), l.Width)
	}
	ys := map[float64]int{}
	for _, n := range nodes[:6] {
		ys[l.Pos[n.Name].Y]++
	}
	if len(ys) != 3 {
		t.Errorf("six roots in rows of two take %d rows, want 3: %v", len(ys), ys)
	}
	if wide := LayOut(nodes); wide.Width <= l.Width || wide.Height >= l.Height {
		t.Errorf("unwrapped %v×%v, wrapped %v×%v: wrapping made it no narrower", wide.Width, wide.Height, l.Width, l.Height)
	}
	var many []Node
	for i := range 300 {
		many = append(many, Node{Name: "t" + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	if g := (Compact{Above: 120, Row: 2}).LayOut(many); len(g.Grids) != 1 || g.Grids[0].X1-g.Grids[0].X0 < 1000 {
		t.Errorf("a grid of 300 cells with rows of 2 boxes: %+v", g.Grids)
	}
}
