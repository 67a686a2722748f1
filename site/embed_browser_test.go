package site_test

import (
	"testing"

	"github.com/chromedp/chromedp"
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
