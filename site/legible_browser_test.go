package site_test

import "testing"

// smallText lists the drawing's texts drawn under 9 px on the screen:
// their font size times the drawing's scale.
const smallText = `(() => {
	const svg = document.querySelector('#graph'), z = svg.getScreenCTM().a;
	return Array.from(svg.querySelectorAll('text')).filter(t => t.getClientRects().length > 0 && getComputedStyle(t).display !== 'none')
		.map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * z])
		.filter(([, px]) => px < 8.95).map(([s, px]) => s + ' ' + px.toFixed(1) + 'px');
})()`

// TestTextIsNeverDrawnTooSmall: retry-storm-jitter's six tasks opened
// fitted at 59%, their state labels 5.9 px; they open readable now. After
// Fit on wide-1000 (or chain-200, at 2%), the drawing is an overview whose
// texts are not drawn, rather than drawn a pixel tall.
func TestTextIsNeverDrawnTooSmall(t *testing.T) {
	ctx, base := playground(t)
	for _, path := range []string{"/?scenario=retry-storm-jitter&step=24", "/?scenario=wide-1000&step=40", "/?scenario=chain-200&step=100"} {
		open(t, ctx, base, path)
		settle(t, ctx)
		if small := eval[[]string](t, ctx, smallText); len(small) > 0 {
			t.Errorf("%s: %d texts under 9 px, e.g. %v", path, len(small), small[:min(3, len(small))])
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.task text').length`); n == 0 {
			t.Errorf("%s: no text in the drawing", path)
		}
		press(t, ctx, "0") // Fit
		settle(t, ctx)
		if small := eval[[]string](t, ctx, smallText); len(small) > 0 {
			t.Errorf("%s after Fit: %d texts under 9 px, e.g. %v", path, len(small), small[:min(3, len(small))])
		}
	}
}
