package site_test

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dagq/dagq/core/scenario"
)

// picked is the outline of the task the detail panel shows (style.css).
var picked = color.RGBA{0x6f, 0x42, 0xc1, 0xff}

// TestTheTaskDetailPanel: on a desktop, a click on diamond-redrive's a,
// dead after three failures, opens its detail beside the popover: three
// attempts with their error, the reason, and b and c waiting on it; a is
// outlined in the drawing. A click on b in the panel selects b (BLOCKED
// by a); stepping to the end redraws it (SUCCEEDED, one attempt); ✕ and
// Escape close it, and the outline goes.
func TestTheTaskDetailPanel(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatal(err)
	}
	dead := stepAfter(t, "diamond-redrive", 1, func(c scenario.Command) bool { return c.Op == scenario.OpExpect && c.Want == "DEAD" })
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", dead))
	settle(t, ctx)
	if shown(t, ctx, "#task-panel") {
		t.Fatal("the detail panel shows before any click")
	}
	if n := near(shot(t, ctx, `#graph g[data-task="a"]`), picked, 40); n > 0 {
		t.Fatalf("a has %d pixels of the outline before it is picked", n)
	}

	click(t, ctx, `#graph g[data-task="a"]`)
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && !document.querySelector('#popover').hidden`)
	settle(t, ctx)
	box := eval[map[string]float64](t, ctx, `(r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}))(document.querySelector('#task-panel').getBoundingClientRect())`)
	if box["left"] < 0 || box["right"] > 1280 || box["top"] < 0 || box["bottom"] > 860 || box["width"] < 220 {
		t.Errorf("the panel is at %v: not wholly on the screen, or too narrow", box)
	}
	if got := text(t, ctx, "#task-panel-title"); !strings.Contains(got, "a") || !strings.Contains(got, "DEAD") {
		t.Errorf("the panel's title reads %q", got)
	}
	attempts := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#task-panel .detail-attempts li'), li => li.textContent)`)
	if len(attempts) != 3 {
		t.Fatalf("the panel lists %d attempts, want 3: %q", len(attempts), attempts)
	}
	for i, a := range attempts {
		if !strings.Contains(a, fmt.Sprintf("attempt %d", i+1)) || !strings.Contains(a, "connection reset") || !strings.Contains(a, "lease") {
			t.Errorf("attempt %d reads %q", i+1, a)
		}
	}
	if !strings.Contains(attempts[2], "dead") {
		t.Errorf("the last attempt reads %q: not that it died", attempts[2])
	}
	if got := text(t, ctx, "#task-panel .detail-facts"); !strings.Contains(got, "failed after 3 attempts: connection reset") {
		t.Errorf("the facts read %q: no reason", got)
	}
	if got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#task-panel .detail-waited button'), b => b.dataset.task + ' ' + b.dataset.state)`); strings.Join(got, ",") != "b BLOCKED,c BLOCKED" {
		t.Errorf("waited on by %q, want b and c BLOCKED", got)
	}
	// Legible: nothing in it under 11 px.
	if small := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#task-panel *')).filter(e => e.childNodes.length && Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim()) && parseFloat(getComputedStyle(e).fontSize) < 10).map(e => e.tagName + ' ' + getComputedStyle(e).fontSize)`); len(small) > 0 {
		t.Errorf("text under 10 px in the panel: %v", small)
	}
	keepShot(t, ctx, "detail-desktop")
	if n := near(shot(t, ctx, `#graph g[data-task="a"]`), picked, 40); n < 40 {
		t.Errorf("a, picked, has %d pixels of the outline", n)
	}

	// A task named in the panel selects it.
	click(t, ctx, `#task-panel .detail-waited button[data-task="b"]`)
	waitFor(t, ctx, `document.querySelector('#task-panel').dataset.task === 'b'`)
	if got := text(t, ctx, "#task-panel-title"); !strings.Contains(got, "BLOCKED") {
		t.Errorf("b's title reads %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#task-panel .detail-facts button[data-task]').dataset.task`); got != "a" {
		t.Errorf("b's root links to %q, want a", got)
	}
	if got := eval[string](t, ctx, `document.activeElement && document.activeElement.dataset.task || ''`); got != "b" {
		t.Errorf("the focus is on %q, not on b in the drawing", got)
	}
	settle(t, ctx)
	if n := near(shot(t, ctx, `#graph g[data-task="a"]`), picked, 40); n > 0 {
		t.Errorf("a keeps %d pixels of the outline once b is picked", n)
	}

	// Stepping redraws it at the step shown.
	click(t, ctx, "#step-last")
	waitFor(t, ctx, `document.querySelector('#task-panel').dataset.state === 'SUCCEEDED'`)
	attempts = eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#task-panel .detail-attempts li'), li => li.textContent)`)
	if len(attempts) != 1 || !strings.Contains(attempts[0], "succeeded") {
		t.Errorf("b at the end: attempts %q", attempts)
	}

	// ✕ closes it; so does Escape.
	click(t, ctx, "#task-panel-close")
	waitFor(t, ctx, `document.querySelector('#task-panel').hidden`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.picked').length`); n != 0 {
		t.Errorf("%d tasks stay outlined after closing", n)
	}
	click(t, ctx, `#graph g[data-task="d"]`)
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && document.querySelector('#task-panel').dataset.task === 'd'`)
	if got := text(t, ctx, "#task-panel .detail-note"); !strings.Contains(got, "d has SUCCEEDED") {
		t.Errorf("the click's note reads %q", got)
	}
	if shown(t, ctx, "#notice") {
		t.Errorf("a click on d shows the notice %q over the page", text(t, ctx, "#notice"))
	}
	press(t, ctx, kb.Escape)
	waitFor(t, ctx, `document.querySelector('#task-panel').hidden`)
}

// TestTheTaskDetailOnAPhone: on a 390×844 touch screen, a tap on b shows
// its detail in a sheet at the bottom that fits the screen's width, does
// not cover b, and closes by a tap on its ✕, a target of 44 px.
func TestTheTaskDetailOnAPhone(t *testing.T) {
	ctx, base := playground(t)
	phone(t, ctx)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=6")
	settle(t, ctx)
	at := centre(t, ctx, `#graph g[data-task="b"] > rect`)
	touchAt(t, ctx, at)
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden`)
	settle(t, ctx)
	if got := text(t, ctx, "#task-panel .detail-note"); !strings.Contains(got, "b is PENDING: it waits on a.") {
		t.Errorf("the note reads %q", got)
	}
	box := eval[map[string]float64](t, ctx, `(r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom}))(document.querySelector('#task-panel').getBoundingClientRect())`)
	if box["left"] < 0 || box["right"] > 390 || box["top"] < 0 || box["bottom"] > 844.5 || box["bottom"]-box["top"] > 0.45*844+1 || box["bottom"]-box["top"] < 150 {
		t.Errorf("the sheet is at %v: off the screen, or over more than 45%% of it, or too short to read", box)
	}
	keepShot(t, ctx, "detail-phone")
	if over := eval[float64](t, ctx, `(p => p.scrollWidth - p.clientWidth)(document.querySelector('#task-panel'))`); over > 0 {
		t.Errorf("the sheet's content is %v px wider than the sheet", over)
	}
	if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %v px wide with the sheet open", w)
	}
	if b := eval[[]float64](t, ctx, `(r => [r.top, r.bottom])(document.querySelector('#graph g[data-task="b"] > rect').getBoundingClientRect())`); b[1] > box["top"] && b[0] < box["bottom"] {
		t.Errorf("the sheet (%v to %v) covers b (%v to %v)", box["top"], box["bottom"], b[0], b[1])
	}
	cl := eval[[]float64](t, ctx, `(r => [r.width, r.height])(document.querySelector('#task-panel-close').getBoundingClientRect())`)
	if cl[0] < 44 || cl[1] < 44 {
		t.Errorf("the ✕ is %v×%v px, under 44", cl[0], cl[1])
	}
	touchAt(t, ctx, centre(t, ctx, "#task-panel-close"))
	waitFor(t, ctx, `document.querySelector('#task-panel').hidden`)
	if got := centre(t, ctx, `#graph g[data-task="b"] > rect`); got != at {
		t.Errorf("b moved from %v to %v", at, got)
	}
}

// keepShot writes a screenshot of the page to the folder DAGQ_SHOTS names,
// to be looked at; nothing without it.
func keepShot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DAGQ_SHOTS")
	if dir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTheTaskDetailBesideAPopoverOnAPhone: a tap on a RUNNING task on a
// phone opens its popover (Complete, Fail) and its detail: the sheet
// covers neither the task nor the popover, whose buttons stay where a
// finger reaches them.
func TestTheTaskDetailBesideAPopoverOnAPhone(t *testing.T) {
	ctx := phoneAt(t, 6, "RUNNING")
	touchAt(t, ctx, centre(t, ctx, `#graph g[data-task="a"] > rect`))
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && !document.querySelector('#popover').hidden`)
	settle(t, ctx)
	keepShot(t, ctx, "detail-phone-popover")
	overlaps := eval[[]string](t, ctx, `(() => {
		const s = document.querySelector('#task-panel').getBoundingClientRect();
		const over = sel => { const r = document.querySelector(sel).getBoundingClientRect(); return Math.min(s.bottom, r.bottom) > Math.max(s.top, r.top) && Math.min(s.right, r.right) > Math.max(s.left, r.left); };
		return ['#graph g[data-task="a"] > rect', '#popover'].filter(over);
	})()`)
	if len(overlaps) > 0 {
		t.Errorf("the sheet covers %v", overlaps)
	}
	if got := eval[string](t, ctx, `(b => { const r = b.getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return e && e.closest('button') === b ? 'reachable' : (e ? e.tagName + '.' + e.className : 'nothing'); })(document.querySelector('#popover button[data-action="complete"]'))`); got != "reachable" {
		t.Errorf("the popover's Complete is under %s", got)
	}
}
