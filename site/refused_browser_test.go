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

// TestTheRefusedEdgeOfTrickyCycleIsInsideTheStage: at tricky-cycle's
// step 5, c would wait on a, which waits on b, which waits on c: the edge
// the submit asked for arcs from a up to c, on the right. It once reached
// 46 px past the drawing's right edge, cut off to a stub and an
// arrowhead; all of it lies inside the drawing and the stage now.
func TestTheRefusedEdgeOfTrickyCycleIsInsideTheStage(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=tricky-cycle&step=4")
	click(t, ctx, "#step-forward")
	waitFor(t, ctx, `!!document.querySelector('#graph .overlay path.refused')`)
	got := eval[map[string]float64](t, ctx, `(() => {
		const e = document.querySelector('#graph .overlay path.refused').getBoundingClientRect();
		const g = document.querySelector('#graph').getBoundingClientRect();
		const s = document.querySelector('#scroller').getBoundingClientRect();
		return {right: e.right, left: e.left, top: e.top, bottom: e.bottom, width: e.width,
			graphRight: g.right, graphLeft: g.left, stageRight: s.right, stageLeft: s.left};
	})()`)
	if got["width"] < 10 {
		t.Errorf("the refused edge is %v px wide: no arc", got["width"])
	}
	if got["right"] > got["graphRight"] || got["left"] < got["graphLeft"] {
		t.Errorf("the refused edge spans x = %v..%v, the drawing %v..%v: it is cut off", got["left"], got["right"], got["graphLeft"], got["graphRight"])
	}
	if got["right"] > got["stageRight"] || got["left"] < got["stageLeft"] {
		t.Errorf("the refused edge spans x = %v..%v, the stage %v..%v", got["left"], got["right"], got["stageLeft"], got["stageRight"])
	}
}
