package site_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
)

// TestTheMinimap: the outage's 444 tasks, opened at a readable zoom, are
// bigger than the stage: a minimap in its corner shows every task as a
// dot in its state's colour (DEAD and BLOCKED ones, at step 541), inside
// the stage; a click on its far corner scrolls the drawing there. Fit
// stops at 90%, where names are read, and on chain-200 the minimap stays;
// it goes once a graph fits (wide-1000, fitted as cells).
func TestTheMinimap(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=outage&step=541")
	waitFor(t, ctx, `!document.querySelector('#minimap').hidden`)
	settle(t, ctx)
	in := eval[bool](t, ctx, `(() => { const m = document.querySelector('#minimap').getBoundingClientRect(), s = document.querySelector('#stage').getBoundingClientRect();
		return m.width >= 60 && m.height >= 24 && m.left >= s.left && m.right <= s.right && m.top >= s.top && m.bottom <= s.bottom; })()`)
	if !in {
		t.Error("the minimap is not inside the stage, or too small")
	}
	// A click on its far corner scrolls the drawing there, and the frame
	// of the part shown goes with it, off the DEAD fetches at the top.
	if before, after := clickMinimapCorner(t, ctx); after[0]+after[1] <= before[0]+before[1] {
		t.Errorf("a click on the minimap's far corner scrolled the drawing from %v to %v", before, after)
	}
	img := shot(t, ctx, "#minimap")
	for _, st := range []core.State{core.Dead, core.Blocked} {
		if n := near(img, rgba(render.StyleOf(st).Stroke), 30); n < 20 {
			t.Errorf("the minimap has %d pixels of %s's colour", n, st)
		}
	}
	keepShot(t, ctx, "minimap")

	// Fit stops at the least zoom where names are read: on chain-200 the
	// minimap stays, the whole graph in it.
	open(t, ctx, base, "/?scenario=chain-200&step=100")
	click(t, ctx, "#zoom-fit")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "90%"`)
	settle(t, ctx)
	if eval[bool](t, ctx, `document.querySelector('#minimap').hidden`) {
		t.Error("after Fit at 90%, chain-200 is bigger than the stage and the minimap is gone")
	}

	// wide-1000, fitted whole as an overview of cells, needs none; at its
	// size it does.
	open(t, ctx, base, "/?scenario=wide-1000&step=40")
	settle(t, ctx)
	if !eval[bool](t, ctx, `document.querySelector('#minimap').hidden`) {
		t.Error("wide-1000 opens fitted whole, beside a minimap")
	}
	press(t, ctx, "1")
	waitFor(t, ctx, `!document.querySelector('#minimap').hidden`)
	click(t, ctx, "#zoom-fit")
	waitFor(t, ctx, `document.querySelector('#minimap').hidden`)
}

// clickMinimapCorner clicks the minimap's far corner and returns where the
// scroller was scrolled to, [left, top], before and after.
func clickMinimapCorner(t *testing.T, ctx context.Context) (before, after []float64) {
	t.Helper()
	before = eval[[]float64](t, ctx, `(s => [s.scrollLeft, s.scrollTop])(document.querySelector('#scroller'))`)
	corner := eval[[]float64](t, ctx, `(r => [r.right - 3, r.bottom - 3])(document.querySelector('#minimap').getBoundingClientRect())`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(corner[0], corner[1])); err != nil {
		t.Fatal(err)
	}
	settle(t, ctx)
	return before, eval[[]float64](t, ctx, `(s => [s.scrollLeft, s.scrollTop])(document.querySelector('#scroller'))`)
}
