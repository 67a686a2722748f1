package playground

import (
	"strings"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
)

// GraphNodes returns the graph to lay out: every task the script submits,
// in arrival order, with each name that is only ever a dependency placed
// just before the first task that names it; and a key that changes exactly
// when that graph does, so that the page lays it out only then.
//
// The cost is O(tasks + edges).
func GraphNodes(all []scenario.Node) (nodes []render.Node, key string) {
	submitted := make(map[string]bool, len(all))
	for _, n := range all {
		submitted[n.Task] = true
	}
	seen := make(map[string]bool, len(all))
	nodes = make([]render.Node, 0, len(all))
	var b strings.Builder
	add := func(n render.Node) {
		nodes = append(nodes, n)
		b.WriteString(n.Name)
		for _, d := range n.Deps {
			b.WriteByte(' ')
			b.WriteString(d)
		}
		b.WriteByte('\n')
	}
	for _, n := range all {
		for _, d := range n.Deps {
			if !submitted[d] && !seen[d] {
				seen[d] = true
				add(render.Node{Name: d})
			}
		}
		add(render.Node{Name: n.Task, Deps: n.Deps})
	}
	return nodes, b.String()
}

// CompactAbove is the width of layer from which the playground draws a
// layer as a compact grid of cells (render.Compact): wide-1000's thousand
// shards take a drawing about 1,300 units wide instead of 6,300, and a
// thousand small elements instead of a thousand boxes with two texts each.
const CompactAbove = 120

// LayOut lays out the graph the page draws, its wide layers compact, its
// rows up to 40 boxes wide.
func LayOut(nodes []render.Node) render.Layout { return LayOutRow(nodes, 0) }

// LayOutRow lays out the graph the page draws, its wide layers compact
// and its rows at most row boxes wide ([RowFor] a stage's width; 0 for
// 40), so that a phone shows retry-storm-jitter's six tasks in three rows
// of two, readable, rather than in one row too wide for it.
func LayOutRow(nodes []render.Node, row int) render.Layout {
	return render.Compact{Above: CompactAbove, Row: row}.LayOut(nodes)
}

// RowFor returns the most boxes in a row of a drawing shown in a stage vw
// wide: as many as fit it across at [ReadableZoom], the least zoom that
// shows names (render.BoxesIn), at least one; 0, rows of the layout's own
// 40 boxes, for vw ≤ 0. The cost is O(1).
func RowFor(vw float64) int {
	if vw <= 0 {
		return 0
	}
	return render.BoxesIn(vw / ReadableZoom)
}
