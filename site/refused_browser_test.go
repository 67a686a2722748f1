package site_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	pg "github.com/dagq/dagq/internal/playground"
)

// TestARefusedEdgeToACellStartsAtTheCell opens a script whose last submit
// is refused: x would wait on s5, a cell of a compact grid (a layer of
// more than playground.CompactAbove tasks), which waits on a, which waits
// on x. The edge the submit asked for is drawn over the graph for a
// moment; it must leave s5 at the middle of the cell's right side and
// meet x at the middle of its box's right side, where the drawing shows
// them.
func TestARefusedEdgeToACellStartsAtTheCell(t *testing.T) {
	ctx, base := playground(t)
	var b strings.Builder
	b.WriteString("submit a x\n")
	for i := range pg.CompactAbove + 10 {
		fmt.Fprintf(&b, "submit s%d a\n", i)
	}
	b.WriteString("submit x s5\n")
	open(t, ctx, base, "/"+pg.Link{Script: b.String(), HasScript: true, Step: pg.StepEnd, HasStep: true}.Fragment())
	waitFor(t, ctx, `!!document.querySelector('#graph .overlay path.refused') && !!document.querySelector('#graph g.cell[data-task="s5"]')`)
	got := eval[map[string][]float64](t, ctx, `(() => {
		const p = document.querySelector('#graph .overlay path.refused'), m = p.getScreenCTM();
		const at = l => { const q = p.getPointAtLength(l).matrixTransform(m); return [q.x, q.y]; };
		const side = sel => { const r = document.querySelector(sel).querySelector('rect').getBoundingClientRect(); return [r.right, (r.top + r.bottom) / 2]; };
		return {start: at(0), end: at(p.getTotalLength()), cell: side('#graph g[data-task="s5"]'), box: side('#graph g[data-task="x"]')};
	})()`)
	near := func(a, b []float64) bool { return math.Abs(a[0]-b[0]) < 1.5 && math.Abs(a[1]-b[1]) < 1.5 }
	if !near(got["start"], got["cell"]) {
		t.Errorf("the refused edge starts at %v, the cell s5's right side is at %v", got["start"], got["cell"])
	}
	if !near(got["end"], got["box"]) {
		t.Errorf("the refused edge ends at %v, x's right side is at %v", got["end"], got["box"])
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.cycle').length`); n < 3 {
		t.Errorf("%d tasks of the cycle are highlighted, want x, s5 and a", n)
	}
}
