package site_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestANoticeOnAPhoneCoversNoTask: on a 390×844 touch screen a notice
// spans the screen's width; at the bottom, where it was, it covered the
// tasks drawn there (d of diamond-redrive). It covers no task and not
// the timeline, where the page opens and after the page scrolls under
// it.
func TestANoticeOnAPhoneCoversNoTask(t *testing.T) {
	ctx, base := playground(t)
	phone(t, ctx)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=x")
	waitFor(t, ctx, `!document.querySelector('#notice').hidden && document.querySelector('#notice').getAnimations().every(a => a.playState === 'finished')`)
	check := func(when string) {
		t.Helper()
		covered := eval[[]string](t, ctx, `(() => {
			const n = document.querySelector('#notice').getBoundingClientRect();
			const over = e => { const r = e.getBoundingClientRect(); return Math.min(n.right, r.right) > Math.max(n.left, r.left) && Math.min(n.bottom, r.bottom) > Math.max(n.top, r.top); };
			return [...Array.from(document.querySelectorAll('#graph g[data-task]')).filter(over).map(g => g.dataset.task),
			        ...Array.from(document.querySelectorAll('.timeline')).filter(over).map(() => 'the timeline')];
		})()`)
		if len(covered) > 0 {
			t.Errorf("%s, the notice covers %v", when, covered)
		}
		box := eval[map[string]float64](t, ctx, `(r => ({top: r.top, bottom: r.bottom, width: r.width}))(document.querySelector('#notice').getBoundingClientRect())`)
		if box["top"] < 0 || box["bottom"] > 844 || box["width"] < 240 {
			t.Errorf("%s, the notice is at %v: off the screen or too narrow", when, box)
		}
	}
	check("as the page opens")
	keepShot(t, ctx, "notice-phone-top")
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`scrollTo(0, 260)`)); err != nil {
		t.Fatal(err)
	}
	settle(t, ctx)
	check("scrolled by 260 px")
	keepShot(t, ctx, "notice-phone-scrolled")
}
