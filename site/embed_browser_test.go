package site_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
)

// TestEmbedShowsTheChosenPanels: embed=1&panels=dlq,title in a 600×400
// frame shows the title and the dead-letter queue beside the drawing and
// the timeline, and nothing else of the page; without panels, neither.
func TestEmbedShowsTheChosenPanels(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(600, 400)); err != nil {
		t.Fatal(err)
	}
	visible := func(sel string) bool {
		return eval[bool](t, ctx, `(() => { const e = document.querySelector('`+sel+`'); return !!e && e.getClientRects().length > 0 })()`)
	}
	open(t, ctx, base, "/?scenario=diamond-redrive&step=13&embed=1&panels=dlq,title")
	for _, sel := range []string{"#scenario-title", "#dlq", "#graph", "#step-forward"} {
		if !visible(sel) {
			t.Errorf("%s is not shown", sel)
		}
	}
	for _, sel := range []string{"#editor", "#ready-line", "#event-log", "#scenario-about", ".top"} {
		if visible(sel) {
			t.Errorf("%s is shown in an embedded page", sel)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#dlq > li').length`); n != 4 {
		t.Errorf("the DLQ shows %d entries, want a, b, c and d", n)
	}
	if eval[bool](t, ctx, `document.documentElement.scrollWidth > document.documentElement.clientWidth`) {
		t.Error("the embedded page scrolls sideways at 600 px")
	}
	if got := eval[string](t, ctx, `new URL(document.getElementById('open-full').href).search`); got != "?scenario=diamond-redrive&step=13" {
		t.Errorf("Open in the playground goes to %q", got)
	}

	open(t, ctx, base, "/?scenario=diamond-redrive&step=13&embed=1")
	if visible("#dlq") || visible("#scenario-title") {
		t.Error("an embedded page without panels shows the DLQ or the title")
	}
}

// TestAnEmbedGivesTheDrawingMostOfASmallFrame: the outage at step 541
// embedded with its title and dead-letter queue in a 600×400 frame. The
// drawing was 125 px tall, the timeline wrapped to three rows under it,
// and its top row of tasks was cut off at the stage's top edge. The
// drawing takes at least half the frame now, everything ends inside the
// frame, and no task is cut at the top of the stage.
func TestAnEmbedGivesTheDrawingMostOfASmallFrame(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(600, 400)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=outage&step=541&embed=1&panels=dlq,title")
	settle(t, ctx)
	got := eval[map[string]float64](t, ctx, `(() => {
		const s = document.querySelector('#scroller').getBoundingClientRect();
		let cut = 0;
		for (const r of document.querySelectorAll('#graph g.task > rect')) {
			const b = r.getBoundingClientRect();
			if (b.top < s.top - 0.5 && b.bottom > s.top + 0.5 && b.right > s.left && b.left < s.right) cut++;
		}
		const below = Array.from(document.querySelectorAll('#step-forward, #step-slider, #advance button, #open-full'))
			.filter(e => e.getBoundingClientRect().bottom > innerHeight).length;
		return {height: s.height, cut, below};
	})()`)
	if got["height"] < 200 {
		t.Errorf("the drawing is %v px tall in a 400 px frame", got["height"])
	}
	if got["cut"] > 0 {
		t.Errorf("%v tasks are cut off at the top of the stage", got["cut"])
	}
	if got["below"] > 0 {
		t.Errorf("%v controls end below the frame", got["below"])
	}
}

// TestAnEmbedOfABigGraphHasAMinimap: an embed drew the part of a big graph
// its frame holds, at a readable zoom, with no overview of the rest (the
// style hid the minimap). The outage's 444 tasks in a 600×400 frame now
// show one inside the stage, off the controls, with DEAD tasks' dots in
// it, and a click on its far corner scrolls the drawing; a graph that fits
// (diamond-redrive) has none.
func TestAnEmbedOfABigGraphHasAMinimap(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(600, 400)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=outage&step=541&embed=1")
	waitFor(t, ctx, `!document.querySelector('#minimap').hidden`)
	settle(t, ctx)
	in := eval[string](t, ctx, `(() => {
		const mm = document.querySelector('#minimap'), m = mm.getBoundingClientRect(), s = document.querySelector('#scroller').getBoundingClientRect();
		if (getComputedStyle(mm).display === 'none') return 'not displayed';
		if (m.width < 60 || m.height < 24) return 'too small: ' + m.width + '×' + m.height;
		if (m.left < s.left || m.right > s.right || m.top < s.top || m.bottom > s.bottom) return 'outside the stage';
		if (m.width * m.height > 0.3 * s.width * s.height) return 'over 30% of the stage';
		const e = document.elementFromPoint(m.left + m.width / 2, m.top + m.height / 2);
		return e === mm ? 'ok' : 'under ' + (e ? e.tagName + '#' + e.id : 'nothing');
	})()`)
	if in != "ok" {
		t.Errorf("the embed's minimap: %s", in)
	}
	img := shot(t, ctx, "#minimap")
	if n := near(img, rgba(render.StyleOf(core.Dead).Stroke), 30); n < 10 {
		t.Errorf("the embed's minimap has %d pixels of DEAD's colour", n)
	}
	if before, after := clickMinimapCorner(t, ctx); after[0]+after[1] <= before[0]+before[1] {
		t.Errorf("a click on the embed's minimap scrolled the drawing from %v to %v", before, after)
	}
	keepShot(t, ctx, "embed-minimap")

	open(t, ctx, base, "/?scenario=diamond-redrive&step=6&embed=1")
	settle(t, ctx)
	if !eval[bool](t, ctx, `document.querySelector('#minimap').hidden`) {
		t.Error("diamond-redrive fits its embed, beside a minimap")
	}
}
