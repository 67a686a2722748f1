package site_test

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
)

// rgba reads a render colour, "#rrggbb".
func rgba(hex string) color.RGBA {
	var c color.RGBA
	fmt.Sscanf(hex, "#%02x%02x%02x", &c.R, &c.G, &c.B)
	c.A = 0xff
	return c
}

// TestTheFilterByState: in diamond-redrive with a dead and b, c, d
// blocked, a click on DEAD's count fades the BLOCKED tasks in the
// drawing (their outline's colour goes) and keeps a; the link keeps the
// filter, and opened afresh shows it; Show all brings b back.
func TestTheFilterByState(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatal(err)
	}
	dead := stepAfter(t, "diamond-redrive", 1, func(c scenario.Command) bool { return c.Op == scenario.OpExpect && c.Want == "DEAD" })
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", dead))
	settle(t, ctx)
	blocked, deadC := rgba(render.StyleOf(core.Blocked).Stroke), rgba(render.StyleOf(core.Dead).Stroke)
	bBefore := near(shot(t, ctx, `#graph g[data-task="b"]`), blocked, 30)
	aBefore := near(shot(t, ctx, `#graph g[data-task="a"]`), deadC, 30)
	if bBefore < 40 || aBefore < 40 {
		t.Fatalf("before filtering, b has %d pixels of BLOCKED's outline and a %d of DEAD's", bBefore, aBefore)
	}

	click(t, ctx, `#counts button[data-filter="DEAD"]`)
	waitFor(t, ctx, `document.querySelector('#counts button[data-filter="DEAD"]').getAttribute('aria-pressed') === 'true'`)
	settle(t, ctx)
	if n := near(shot(t, ctx, `#graph g[data-task="b"]`), blocked, 30); n > bBefore/10 {
		t.Errorf("filtered to DEAD, b keeps %d of its %d pixels of BLOCKED's outline", n, bBefore)
	}
	if n := near(shot(t, ctx, `#graph g[data-task="a"]`), deadC, 30); n < aBefore*9/10 {
		t.Errorf("filtered to DEAD, a has %d of its %d pixels of DEAD's outline", n, aBefore)
	}
	if got := text(t, ctx, "#counts .filter-note"); !strings.Contains(got, "Showing only DEAD: 1 of the 4 tasks at this step.") {
		t.Errorf("the note reads %q", got)
	}
	waitFor(t, ctx, `location.search.includes('show=DEAD')`)
	link := eval[string](t, ctx, `location.pathname + location.search + location.hash`)

	click(t, ctx, `#counts button[data-filter-clear]`)
	waitFor(t, ctx, `document.querySelector('#counts .filter-note') === null`)
	settle(t, ctx)
	if n := near(shot(t, ctx, `#graph g[data-task="b"]`), blocked, 30); n < bBefore*9/10 {
		t.Errorf("shown all again, b has %d of its %d pixels of BLOCKED's outline", n, bBefore)
	}
	waitFor(t, ctx, `!location.search.includes('show=')`)

	open(t, ctx, base, link)
	settle(t, ctx)
	if n := near(shot(t, ctx, `#graph g[data-task="b"]`), blocked, 30); n > bBefore/10 {
		t.Errorf("opened from %s, b keeps %d pixels of BLOCKED's outline", link, n)
	}
}

// TestTheFilterOnAPhone: on a 390×844 touch screen, a state's count is a
// target of 44 px that a tap toggles, and the counts stay within the
// screen's width.
func TestTheFilterOnAPhone(t *testing.T) {
	ctx, base := playground(t)
	phone(t, ctx)
	open(t, ctx, base, "/?scenario=outage&step=541")
	settle(t, ctx)
	h := eval[float64](t, ctx, `document.querySelector('#counts button[data-filter="BLOCKED"]').getBoundingClientRect().height`)
	if h < 44 {
		t.Errorf("BLOCKED's count is %v px tall, under 44", h)
	}
	touchAt(t, ctx, centre(t, ctx, `#counts button[data-filter="BLOCKED"]`))
	waitFor(t, ctx, `document.querySelector('#counts button[data-filter="BLOCKED"]').getAttribute('aria-pressed') === 'true'`)
	if over := eval[float64](t, ctx, `Math.max(...Array.from(document.querySelectorAll('#counts li'), li => li.getBoundingClientRect().right))`); over > 390 {
		t.Errorf("the counts reach x = %v, beyond the screen", over)
	}
	if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %v px wide", w)
	}
	keepShot(t, ctx, "filter-phone")
	touchAt(t, ctx, centre(t, ctx, `#counts button[data-filter-clear]`))
	waitFor(t, ctx, `document.querySelector('#counts .filter-note') === null`)
}
