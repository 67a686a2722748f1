package site_test

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestANoticeCoversNothingImportant shows a notice (a link with a step
// that cannot be read) on a desktop and on a phone, and checks that it
// covers neither the header, the scenario's title and description nor
// the drawing's tools; on a desktop, neither the drawing, the timeline
// nor the command box either. It stays inside the screen, its text
// readable.
func TestANoticeCoversNothingImportant(t *testing.T) {
	for _, vp := range []struct {
		name          string
		width, height int64
		covers        []string // what the notice must not cover
	}{
		{"Desktop", 1280, 860, []string{".top", "#scenario-title", "#scenario-about", ".stage-tools", "#stage", ".timeline", ".command-row"}},
		{"Phone", 390, 844, []string{".top", "#scenario-title", "#scenario-about", ".stage-tools"}},
	} {
		t.Run(vp.name, func(t *testing.T) {
			ctx, base := playground(t)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.width, vp.height)); err != nil {
				t.Fatal(err)
			}
			open(t, ctx, base, "/?scenario=two-roots&step=abc")
			waitFor(t, ctx, `!document.querySelector('#notice').hidden && document.querySelector('#notice').getAnimations().every(a => a.playState === 'finished')`)
			for _, sel := range vp.covers {
				overlap := eval[[]float64](t, ctx, `(() => {
					const n = document.querySelector('#notice').getBoundingClientRect(), e = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect();
					const w = Math.min(n.right, e.right) - Math.max(n.left, e.left), h = Math.min(n.bottom, e.bottom) - Math.max(n.top, e.top);
					return [Math.max(0, w), Math.max(0, h)];
				})()`)
				if overlap[0] > 0 && overlap[1] > 0 {
					t.Errorf("at %d×%d the notice covers %s (%v×%v px)", vp.width, vp.height, sel, overlap[0], overlap[1])
				}
			}
			box := eval[map[string]float64](t, ctx, `(r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}))(document.querySelector('#notice').getBoundingClientRect())`)
			if box["left"] < 0 || box["right"] > float64(vp.width) || box["top"] < 0 || box["bottom"] > float64(vp.height) || box["width"] < 240 {
				t.Errorf("at %d×%d the notice is at %v: not wholly on the screen, or too narrow to read", vp.width, vp.height, box)
			}
			click(t, ctx, "#notice-close")
			waitFor(t, ctx, `document.querySelector('#notice').hidden`)
		})
	}
}
