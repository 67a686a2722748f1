package site_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestATaskGlidesToItsNewPlace: a stage narrowed to hold fewer boxes in a
// row lays the graph out again, and a task that moves glides there rather
// than jumping; at rest no task's group has a transform of its own, its
// parts carrying its place (a transform a task made a paint chunk a task,
// which Chromium layered anew at every step of play).
func TestATaskGlidesToItsNewPlace(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900)); err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	for _, n := range []string{"t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09", "t10"} {
		script.WriteString("submit " + n + "\n")
	}
	open(t, ctx, base, scriptLink(script.String(), "&step=end"))
	// Where t10 is in the drawing's own units: its box's place over the
	// drawing's scale, which the narrower stage changes too.
	const at = `(() => { const svg = document.querySelector('#graph'), r = document.querySelector('#graph g[data-task="t10"] > rect').getBoundingClientRect(), s = svg.getBoundingClientRect(), k = s.width / svg.viewBox.baseVal.width; return [(r.left - s.left) / k, (r.top - s.top) / k]; })()`
	const still = `Array.from(document.querySelectorAll('#graph g[data-task]')).every(g => getComputedStyle(g).transform === 'none')`
	if !eval[bool](t, ctx, still) {
		t.Error("a task's group has a transform at rest")
	}
	before := eval[[]float64](t, ctx, at)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(800, 900)); err != nil {
		t.Fatal(err)
	}
	// The page lays the graph out again at the resize's frame.
	mid, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`new Promise(done => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => done(`+at+`))), 100))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	after := eval[[]float64](t, ctx, at)
	moved := func(p, q []float64) bool { return math.Hypot(p[0]-q[0], p[1]-q[1]) > 2 }
	if !moved(before, after) {
		t.Fatalf("t10 stayed at %v: the test needs a stage that lays it out again", before)
	}
	if !moved(mid, after) {
		t.Errorf("t10 jumped from %v to %v: it was there already (%v) just after the resize", before, after, mid)
	}
	if !eval[bool](t, ctx, still) {
		t.Error("a task's group keeps a transform after gliding")
	}
}
