package site_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// phone makes the tab a 390×844 touch screen.
func phone(t testing.TB, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
}

// touchAt sends real touch input (the browser turns it into pointer,
// mouse and click events): a finger down at the points, moved along
// them, and up.
func touchAt(t testing.TB, ctx context.Context, pts ...[2]float64) {
	t.Helper()
	send := func(typ input.DispatchTouchEventType, xy [2]float64, up bool) {
		id := 0.0
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		if !up {
			p.TouchPoints = append(p.TouchPoints, &input.TouchPoint{X: xy[0], Y: xy[1], ID: &id})
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, p); err != nil {
			t.Fatal(err)
		}
	}
	send(input.DispatchTouchEventTypeTouchStart, pts[0], false)
	for _, p := range pts[1:] {
		send(input.DispatchTouchEventTypeTouchMove, p, false)
	}
	send(input.DispatchTouchEventTypeTouchEnd, pts[len(pts)-1], true)
}

// centre returns the middle of an element's box in the viewport.
func centre(t testing.TB, ctx context.Context, sel string) [2]float64 {
	t.Helper()
	xy := eval[[]float64](t, ctx, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('`+sel+`').getBoundingClientRect())`)
	return [2]float64{xy[0], xy[1]}
}

// phoneAt opens diamond-redrive at step on a 390×844 touch screen, once it
// has checked that task a is in state there.
func phoneAt(t *testing.T, step int, state string) context.Context {
	t.Helper()
	ctx, base := playground(t)
	phone(t, ctx)
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", step))
	settle(t, ctx)
	if got := states(t, ctx)["a"]; got != state {
		t.Fatalf("a is %s at step %d, want %s", got, step, state)
	}
	return ctx
}

// TestThePhoneLayout: diamond-redrive on a 390×844 touch screen. A swipe
// on the drawing, which fits, scrolls the page (it was taken for a pan
// of a drawing with nothing to pan); the timeline stays on the screen;
// the controls are targets of 44 px at least; a tap on a task moves
// nothing under the finger and leaves no highlight behind.
func TestThePhoneLayout(t *testing.T) {
	ctx := phoneAt(t, 6, "RUNNING")

	// The timeline is on the screen, from the first view.
	if bottom := eval[float64](t, ctx, `document.querySelector('#step-forward').getBoundingClientRect().bottom`); bottom > 844 {
		t.Errorf("the step button ends at y = %v, below the screen", bottom)
	}

	// Targets.
	small := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('.timeline button:not([hidden]), .timeline select, .stage-tools button, .stage-tools label, #find, .time-row button, .command-row button'))
		.filter(e => e.getClientRects().length > 0)
		.filter(e => { const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44 })
		.map(e => (e.id || e.className || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().width) + '×' + Math.round(e.getBoundingClientRect().height))`)
	if len(small) > 0 {
		t.Errorf("targets under 44 px: %v", small)
	}

	// A tap on b (PENDING) says what it waits on; nothing under the
	// finger moves, and no highlight of its lineage stays.
	at := centre(t, ctx, `#graph g[data-task="b"] > rect`)
	title := text(t, ctx, "#scenario-title")
	touchAt(t, ctx, at)
	settle(t, ctx)
	if got := centre(t, ctx, `#graph g[data-task="b"] > rect`); got != at {
		t.Errorf("a tap on b moved it from %v to %v", at, got)
	}
	if got := text(t, ctx, "#scenario-title"); got != title {
		t.Errorf("a tap on b retitled the page from %q to %q", title, got)
	}
	if eval[bool](t, ctx, `document.querySelector('#graph').classList.contains('tracing')`) {
		t.Error("after a tap, the drawing stays dimmed around b's lineage")
	}
	// A swipe up on the drawing scrolls the page: it fits, nothing to pan.
	if got := eval[string](t, ctx, `getComputedStyle(document.querySelector('#scroller')).touchAction`); got == "none" {
		t.Errorf("the drawing fits and takes every swipe (touch-action %s)", got)
	}
	y0 := eval[float64](t, ctx, `scrollY`)
	bg := centre(t, ctx, `#scroller`)
	bg[0] = 20
	touchAt(t, ctx, bg, [2]float64{bg[0], bg[1] - 60}, [2]float64{bg[0], bg[1] - 160}, [2]float64{bg[0], bg[1] - 200})
	settle(t, ctx)
	if y := eval[float64](t, ctx, `scrollY`); y <= y0 {
		t.Errorf("a swipe on the drawing did not scroll the page (scrollY %v → %v)", y0, y)
	}
	if bottom := eval[float64](t, ctx, `document.querySelector('#step-forward').getBoundingClientRect().bottom`); bottom > 844 {
		t.Errorf("scrolled, the step button ends at y = %v, below the screen", bottom)
	}
}

// TestATapThatActsMovesNothing: on a phone, a tap on the front READY task
// of diamond-redrive hands it out, which makes the script one's own. The
// page was retitled "Your script", a line shorter, and the drawing moved
// 22 px up under the finger; the title stays, and nothing moves. At step
// 24 handing b out adds a fourth count, which wrapped the counts to a
// second line and moved the drawing 26 px down: the page scrolls by as
// much, and the notice of the steps dropped covers no task.
func TestATapThatActsMovesNothing(t *testing.T) {
	for _, c := range []struct {
		step       int
		task, a    string // the task tapped, and a's state before
		noticeSays string // "" for no notice
	}{{5, "a", "READY", ""}, {24, "b", "SUCCEEDED", "later commands were dropped"}} {
		ctx := phoneAt(t, c.step, c.a)
		title := text(t, ctx, "#scenario-title")
		rect := `#graph g[data-task="` + c.task + `"] > rect`
		// The task in the middle of the screen, clear of the timeline
		// stuck to its bottom.
		eval[bool](t, ctx, `(document.querySelector('`+rect+`').scrollIntoView({block: 'center'}), true)`)
		settle(t, ctx)
		at := centre(t, ctx, rect)
		touchAt(t, ctx, at)
		waitForStates(t, ctx, map[string]string{c.task: "RUNNING"})
		settle(t, ctx)
		if got := centre(t, ctx, rect); got != at {
			t.Errorf("step %d: a tap on %s moved it from %v to %v", c.step, c.task, at, got)
		}
		if got := text(t, ctx, "#scenario-title"); got != title {
			t.Errorf("step %d: a tap on %s retitled the page from %q to %q", c.step, c.task, title, got)
		}
		if c.noticeSays == "" {
			continue
		}
		if got := text(t, ctx, "#notice-text"); !strings.Contains(got, c.noticeSays) {
			t.Fatalf("step %d: the notice says %q; want %q", c.step, got, c.noticeSays)
		}
		if over := eval[[]string](t, ctx, `(() => {
			const n = document.querySelector('#notice').getBoundingClientRect();
			return [...document.querySelectorAll('#graph g[data-task] > rect')].filter(r => {
				const b = r.getBoundingClientRect();
				return b.right > n.left && b.left < n.right && b.bottom > n.top && b.top < n.bottom;
			}).map(r => r.parentNode.dataset.task);
		})()`); len(over) > 0 {
			t.Errorf("step %d: the notice covers %v", c.step, over)
		}
	}
}

// TestFollowOnAPhoneShowsTheTask: on a phone the stage runs under the
// timeline stuck to the screen's bottom, and the minimap covers its top
// corner; Follow brings the tasks a step is about (those its caption
// names) into the part in sight, clear of the minimap, opened at a step or
// stepped to with a tap. It used to centre the first in the whole stage,
// under the timeline, and leave a task under the minimap where it was.
func TestFollowOnAPhoneShowsTheTask(t *testing.T) {
	ctx, base := playground(t)
	phone(t, ctx)
	for _, path := range []string{"/?scenario=chain-200&step=300", "/?scenario=outage&step=600"} {
		open(t, ctx, base, path)
		settle(t, ctx)
		for i := 0; i < 6; i++ {
			got := eval[[]map[string]any](t, ctx, `(() => {
				const caption = document.querySelector('#caption').textContent;
				const s = document.querySelector('#scroller').getBoundingClientRect();
				const bar = document.querySelector('.timeline').getBoundingClientRect();
				const mm = document.querySelector('#minimap');
				const m = mm.hidden ? null : mm.getBoundingClientRect();
				const from = Math.max(0, s.top), to = Math.min(innerHeight, bar.top, s.bottom);
				// The tasks the caption names, drawn: the first two.
				const names = [...document.querySelectorAll('#graph g[data-task]')].map(g => g.dataset.task)
					.filter(n => caption.includes(n + ' ') || caption.endsWith(n) || caption.includes(n + '.') || caption.includes(n + ','))
					.sort((a, b) => caption.indexOf(a) - caption.indexOf(b)).slice(0, 2);
				return names.map(task => {
					const r = document.querySelector('#graph g[data-task="' + task + '"] > rect').getBoundingClientRect();
					const under = m && r.right > m.left && r.left < m.right && r.bottom > m.top && r.top < m.bottom;
					return {task, box: [r.left, r.top, r.right, r.bottom].map(Math.round).join(' '),
						inSight: r.top >= from && r.bottom <= to && r.left >= s.left && r.right <= s.right, under: !!under,
						sight: [s.left, from, s.right, to].map(Math.round).join(' ')};
				});
			})()`)
			step := eval[string](t, ctx, `document.body.dataset.step`)
			if len(got) == 0 {
				t.Fatalf("%s, step %s: the caption names no task drawn", path, step)
			}
			for _, g := range got {
				if g["inSight"] != true || g["under"] == true {
					t.Errorf("%s, step %s: %v is drawn at %v (under the minimap: %v); the stage is in sight at %v",
						path, step, g["task"], g["box"], g["under"], g["sight"])
				}
			}
			touchAt(t, ctx, centre(t, ctx, "#step-forward"))
			settle(t, ctx)
		}
	}
}
