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
