package site_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	pg "github.com/dagq/dagq/internal/playground"
)

// smallText lists the drawing's texts drawn under 9 px on the screen:
// their font size times the drawing's scale.
const smallText = `(() => {
	const svg = document.querySelector('#graph'), z = svg.getScreenCTM().a;
	return Array.from(svg.querySelectorAll('text')).filter(t => t.getClientRects().length > 0 && getComputedStyle(t).display !== 'none')
		.map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * z])
		.filter(([, px]) => px < 9).map(([s, px]) => s + ' ' + px.toFixed(3) + 'px');
})()`

// shownTexts counts the drawing's texts drawn on the screen.
const shownTexts = `Array.from(document.querySelectorAll('#graph text')).filter(t => t.getClientRects().length > 0 && getComputedStyle(t).display !== 'none').length`

// minimapSeen says whether the minimap is on the screen and on top there:
// the element at its middle is the minimap itself.
const minimapSeen = `(m => { if (m.hidden) return false; const r = m.getBoundingClientRect();
	return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === m; })(document.querySelector('#minimap'))`

// TestTextIsNeverDrawnTooSmall looks at every text of the drawing on a
// desktop and on a phone: opened, after Fit and after zooming out three
// times, none is under 9 px on the screen. retry-storm-jitter's six tasks
// were fitted at 59% (labels 5.9 px, most of the stage empty) and a
// chain of 3,000 at 2% (an empty-looking stage): Fit now stops at the
// least zoom where names are read, − is disabled there, and the minimap,
// on the screen, shows the whole. wide-1000, a grid of cells without
// texts, is still fitted whole as an overview whose texts are hidden, and
// so is the outage where its rows, wrapped to the stage, let it.
func TestTextIsNeverDrawnTooSmall(t *testing.T) {
	ctx, base := playground(t)
	chain := "/" + (pg.Link{Script: longChain(3000), HasScript: true}).Fragment()
	for _, vp := range []string{"desktop", "phone"} {
		if vp == "phone" {
			phone(t, ctx)
		} else if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct{ name, path string }{
			{"retry-storm-jitter", "/?scenario=retry-storm-jitter&step=24"},
			{"wide-1000", "/?scenario=wide-1000&step=40"},
			{"chain-200", "/?scenario=chain-200&step=100"},
			{"outage", "/?scenario=outage&step=541"},
			{"a chain of 3,000", chain},
		} {
			open(t, ctx, base, tt.path)
			settle(t, ctx)
			if small := eval[[]string](t, ctx, smallText); len(small) > 0 {
				t.Errorf("%s, %s: %d texts under 9 px, e.g. %v", vp, tt.name, len(small), small[:min(3, len(small))])
			}
			if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.task text, #graph g.ghost text').length`); n == 0 {
				t.Errorf("%s, %s: no text in the drawing", vp, tt.name)
			}
			press(t, ctx, "0") // Fit
			settle(t, ctx)
			if small := eval[[]string](t, ctx, smallText); len(small) > 0 {
				t.Errorf("%s, %s after Fit: %d texts under 9 px, e.g. %v", vp, tt.name, len(small), small[:min(3, len(small))])
			}
			fitted := text(t, ctx, "#zoom-label")
			if eval[bool](t, ctx, `document.querySelector('#graph').classList.contains('unreadable')`) {
				// Fitted below 90%: an overview of a graph of cells, whole
				// in the stage, no minimap beside it.
				if !eval[bool](t, ctx, `!!document.querySelector('#graph g.cell') && document.querySelector('#scroller').classList.contains('fits') && document.querySelector('#minimap').hidden`) {
					t.Errorf("%s, %s after Fit (%s): texts hidden, but it is no whole overview of cells", vp, tt.name, fitted)
				}
				if tt.name != "wide-1000" && tt.name != "outage" {
					t.Errorf("%s, %s after Fit (%s): an overview without texts", vp, tt.name, fitted)
				}
			} else {
				if n := eval[int](t, ctx, shownTexts); n == 0 {
					t.Errorf("%s, %s after Fit (%s): no text on the screen", vp, tt.name, fitted)
				}
				fits := eval[bool](t, ctx, `document.querySelector('#scroller').classList.contains('fits')`)
				if !fits && !eval[bool](t, ctx, `document.querySelector('#zoom-out').disabled && document.querySelector('#zoom-out').title.includes('9 px')`) {
					t.Errorf("%s, %s after Fit (%s): − is enabled, or says not why it is not", vp, tt.name, fitted)
				}
				if !fits && !eval[bool](t, ctx, minimapSeen) {
					t.Errorf("%s, %s after Fit (%s): the minimap is not on the screen", vp, tt.name, fitted)
				}
			}
			keepShot(t, ctx, "legible-"+vp+"-"+tt.name)
			for range 3 {
				press(t, ctx, "-")
			}
			settle(t, ctx)
			if small := eval[[]string](t, ctx, smallText); len(small) > 0 {
				t.Errorf("%s, %s zoomed out: %d texts under 9 px, e.g. %v", vp, tt.name, len(small), small[:min(3, len(small))])
			}
			// − stops at Fit's zoom or at 90%, whichever is less.
			pct := func(s string) int { n, _ := strconv.Atoi(strings.TrimSuffix(s, "%")); return n }
			if got := text(t, ctx, "#zoom-label"); pct(got) < min(pct(fitted), 90) {
				t.Errorf("%s, %s: zoomed out from Fit's %s to %s", vp, tt.name, fitted, got)
			}
		}
	}
}

// longChain submits a chain of n tasks, each waiting on the one before.
func longChain(n int) string {
	var b strings.Builder
	b.WriteString("submit t1\n")
	for i := 2; i <= n; i++ {
		b.WriteString("submit t" + strconv.Itoa(i) + " t" + strconv.Itoa(i-1) + "\n")
	}
	return b.String()
}
