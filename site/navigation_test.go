package site_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dagq/dagq/core/scenario"
)

// Moving about big graphs: zoom, pan, fit, follow, find, hover, and the
// READY line's and the dead-letter queue's toggles.

// TestABigGraphOpensFittedAndASmallOneAtItsSize: wide-1000 opens as Fit
// shows it, wholly in the stage, on a desktop and on a phone;
// diamond-redrive, which fits, at 100%; chain-200, which would fit only
// at a few percent, at 100% too, its names readable.
func TestABigGraphOpensFittedAndASmallOneAtItsSize(t *testing.T) {
	ctx, base := playground(t)
	whole := `(g => { const s = document.querySelector('#scroller'), r = s.getBoundingClientRect();
		return g.left >= r.left - 0.5 && g.top >= r.top - 0.5 && g.right <= r.left + s.clientWidth + 0.5 && g.bottom <= r.top + s.clientHeight + 0.5;
	})(document.querySelector('#graph').getBoundingClientRect())`
	for _, vp := range [][2]int64{{1280, 860}, {390, 844}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp[0], vp[1])); err != nil {
			t.Fatal(err)
		}
		open(t, ctx, base, "/?scenario=wide-1000&step=40")
		opened := text(t, ctx, "#zoom-label")
		if opened == "100%" || !eval[bool](t, ctx, whole) {
			t.Errorf("at %v wide-1000 opens at %s, not wholly in the stage", vp, opened)
		}
		press(t, ctx, "1")
		waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "100%"`)
		click(t, ctx, "#zoom-fit")
		waitFor(t, ctx, `document.querySelector("#zoom-label").textContent !== "100%"`)
		if fit := text(t, ctx, "#zoom-label"); fit != opened {
			t.Errorf("at %v wide-1000 opens at %s, Fit shows it at %s", vp, opened, fit)
		}
		open(t, ctx, base, "/?scenario=diamond-redrive&step=14")
		if z := text(t, ctx, "#zoom-label"); vp[0] > 400 && z != "100%" {
			t.Errorf("at %v diamond-redrive opens at %s, want 100%%", vp, z)
		}
		if !eval[bool](t, ctx, whole) {
			t.Errorf("at %v diamond-redrive is not wholly in the stage", vp)
		}
		open(t, ctx, base, "/?scenario=chain-200&step=40")
		if z := text(t, ctx, "#zoom-label"); z != "100%" {
			t.Errorf("at %v chain-200 opens at %s, want 100%%", vp, z)
		}
	}
}

func TestZoomPanAndFit(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=40")
	width := func() float64 {
		return eval[float64](t, ctx, `document.querySelector('#graph').getBoundingClientRect().width`)
	}
	label := func() string { return text(t, ctx, "#zoom-label") }
	// 1 shows the drawing at its size.
	press(t, ctx, "1")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "100%"`)
	// At full size, drag the background to pan.
	left0 := eval[float64](t, ctx, `document.querySelector('#scroller').scrollLeft`)
	// A point of the background, not on a task (a drag on a task is a click).
	bg := eval[[]float64](t, ctx, `(() => {
		const r = document.querySelector('#scroller').getBoundingClientRect();
		for (let y = r.top + 12; y < r.bottom - 12; y += 6) {
			const e = document.elementFromPoint(r.left + 220, y);
			if (e && !e.closest('[data-task]')) return [r.left + 20, y];
		}
		return [r.left + 20, r.top + 12];
	})()`)
	// Drag towards the side there is room to scroll to.
	dx := -100.0
	if left0 > 200 {
		dx = 100
	}
	if err := chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MousePressed, bg[0]+200, bg[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, bg[0]+200+dx/2, bg[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, bg[0]+200+dx, bg[1], chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, bg[0]+200+dx, bg[1], chromedp.ButtonLeft, chromedp.ClickCount(1)),
	); err != nil {
		t.Fatal(err)
	}
	if left := eval[float64](t, ctx, `document.querySelector('#scroller').scrollLeft`); left-left0 > -dx+10 || left-left0 < -dx-10 {
		t.Errorf("dragging %v px scrolled from %v to %v", dx, left0, left)
	}
	w0 := width()
	click(t, ctx, "#zoom-out")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "80%"`)
	if w := width(); w >= w0*0.85 || w <= w0*0.75 {
		t.Errorf("zoomed out to 80%%, the drawing is %v px wide, was %v", w, w0)
	}
	click(t, ctx, "#zoom-in")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "100%"`)
	click(t, ctx, "#zoom-fit")
	waitFor(t, ctx, `document.querySelector('#graph').getBoundingClientRect().width <= document.querySelector('#scroller').clientWidth`)
	fit := label()

	// Ctrl+wheel zooms (a trackpad's pinch arrives as one); a plain wheel
	// does not.
	r := eval[[]float64](t, ctx, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('#scroller').getBoundingClientRect())`)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('#scroller').dispatchEvent(new WheelEvent('wheel',
		{deltaY: -300, ctrlKey: true, clientX: %v, clientY: %v, bubbles: true, cancelable: true}))`, r[0], r[1]))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#zoom-label').textContent !== %q`, fit))
	if z, _ := strconv.Atoi(strings.TrimSuffix(label(), "%")); z <= 0 {
		t.Errorf("zoom label %q", label())
	}

	// Keys: + and - zoom, 0 fits.
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	press(t, ctx, "0")
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#zoom-label').textContent === %q`, fit))
	press(t, ctx, "+")
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#zoom-label').textContent !== %q`, fit))
	press(t, ctx, "-")
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#zoom-label').textContent === %q`, fit))

}

// TestFollowTheActionOnALongChain: each step brings the task it changed
// into view.
func TestFollowTheActionOnALongChain(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=chain-200&step=300")
	inView := func(task string) bool {
		return eval[bool](t, ctx, fmt.Sprintf(`(() => { const g = document.querySelector('#graph g[data-task=%q]').getBoundingClientRect(),
			s = document.querySelector('#scroller').getBoundingClientRect();
			return g.top >= s.top && g.bottom <= s.bottom && g.left >= s.left && g.right <= s.right; })()`, task))
	}
	if !inView("step-049") {
		t.Error("opened at step 300, step-049 (handed out by it) is not in view")
	}
	// At its size, the chain is taller than the stage: each step scrolls
	// to what it changed.
	press(t, ctx, "1")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "100%"`)
	click(t, ctx, "#step-last")
	waitStep(t, ctx, libraryLen(t, "chain-200"))
	waitFor(t, ctx, `document.querySelector('#graph g[data-task="step-200"]').dataset.state === "SUCCEEDED"`)
	if !inView("step-200") {
		t.Error("at the last step, step-200 is not in view")
	}
	// Without follow, the view stays.
	click(t, ctx, "#follow")
	top := eval[float64](t, ctx, `document.querySelector('#scroller').scrollTop`)
	click(t, ctx, "#step-first")
	waitStep(t, ctx, 0)
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 1)
	if got := eval[float64](t, ctx, `document.querySelector('#scroller').scrollTop`); got != top {
		t.Errorf("with follow off, the view moved from %v to %v", top, got)
	}
}

func TestFindATaskByName(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=end")
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "SHARD-0777"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	// The suggestions are listed once the box is used.
	if n := eval[int](t, ctx, `document.querySelectorAll('#task-names option').length`); n != 1002 {
		t.Errorf("the find box suggests %d names, want 1002", n)
	}
	waitFor(t, ctx, `document.activeElement && document.activeElement.dataset.task === "shard-0777"`)
	if !eval[bool](t, ctx, `(() => { const g = document.querySelector('#graph g[data-task="shard-0777"]').getBoundingClientRect(),
		s = document.querySelector('#scroller').getBoundingClientRect(); return g.top >= s.top && g.bottom <= s.bottom; })()`) {
		t.Error("the task found is not in view")
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#find').value = ''`))
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "nothing-like-it"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#notice').textContent.includes('No task')`)

	// Found in a graph fitted as an overview, a task is shown at its
	// size: wide-1000 is fitted at 37%, where download's name is not drawn.
	open(t, ctx, base, "/?scenario=wide-1000&step=40")
	waitFor(t, ctx, `parseInt(document.querySelector('#zoom-label').textContent) < 60`)
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#find').value = ''`))
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "download"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.activeElement && document.activeElement.dataset.task === "download"`)
	if got := text(t, ctx, "#zoom-label"); got != "100%" {
		t.Errorf("found at a zoom of %s, want 100%%", got)
	}
	if got := eval[[]float64](t, ctx, `(() => { const g = document.querySelector('#graph g[data-task="download"]').getBoundingClientRect(),
		s = document.querySelector('#scroller').getBoundingClientRect(); return [g.height, g.top - s.top, s.bottom - g.bottom]; })()`); got[0] < 40 || got[1] < 0 || got[2] < 0 {
		t.Errorf("the task found is %v px high, %v px below the view's top and %v px above its bottom", got[0], got[1], got[2])
	}

	// chain-200 after Fit is at the least zoom, 90%, not a speck at 2%:
	// a task found there is brought into view as it is.
	open(t, ctx, base, "/?scenario=chain-200&step=250")
	click(t, ctx, "#zoom-fit")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "90%"`)
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#find').value = ''`))
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "step-007"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.activeElement && document.activeElement.dataset.task === "step-007"`)
	if got := eval[[]float64](t, ctx, `(() => { const g = document.querySelector('#graph g[data-task="step-007"]').getBoundingClientRect(),
		s = document.querySelector('#scroller').getBoundingClientRect(); return [g.height, g.top - s.top, s.bottom - g.bottom]; })()`); got[0] < 39 || got[1] < 0 || got[2] < 0 {
		t.Errorf("the task found is %v px high, %v px below the view's top and %v px above its bottom", got[0], got[1], got[2])
	}
}

func TestHoverHighlightsUpstreamAndDownstream(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=end")
	r := eval[[]float64](t, ctx, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('#graph g[data-task="b"]').getBoundingClientRect())`)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, r[0], r[1])); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#graph').classList.contains('tracing')`)
	got := eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(document.querySelectorAll('#graph g[data-task]'),
		g => [g.dataset.task, ['traced', 'up', 'down'].filter(c => g.classList.contains(c)).join(' ')]))`)
	if want := map[string]string{"a": "up", "b": "traced", "c": "", "d": "down"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("hovering b marks %v, want %v", got, want)
	}
	if lit := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#graph .edge.lit'), e => e.dataset.from + '>' + e.dataset.to).sort()`); fmt.Sprint(lit) != "[a>b b>d]" {
		t.Errorf("lit edges %v, want a>b and b>d", lit)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 5, 5)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!document.querySelector('#graph').classList.contains('tracing') && !document.querySelector('#graph .lit')`)
}

// TestHoverHighlightFollowsThePointerWhenZooming hovers a task (a, at the
// top), then
// zooms in with the keys, the pointer still: the drawing grows away from
// under the pointer, and the highlight goes with it (or moves to the
// task now under the pointer); zooming back out lights what is under it.
func TestHoverHighlightFollowsThePointerWhenZooming(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=end")
	r := eval[[]float64](t, ctx, `(r => [r.left + r.width / 2, r.top + 6])(document.querySelector('#graph g[data-task="a"]').getBoundingClientRect())`)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, r[0], r[1])); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#graph g[data-task="a"]').classList.contains('traced')`)
	under := fmt.Sprintf(`((document.elementFromPoint(%v, %v) || document.body).closest('#graph g[data-task]') || {dataset: {}}).dataset.task || ""`, r[0], r[1])
	traced := `Array.from(document.querySelectorAll('#graph g.traced'), g => g.dataset.task).join(" ")`
	for i, key := range []string{"+", "+", "+", "-", "-", "-"} {
		zoom := text(t, ctx, "#zoom-label")
		press(t, ctx, key)
		waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#zoom-label').textContent !== %q`, zoom))
		u := eval[string](t, ctx, under)
		if got := eval[string](t, ctx, traced); got != u {
			t.Errorf("after key %d (%q, %s) the highlight is on %q, the pointer over %q", i, key, text(t, ctx, "#zoom-label"), got, u)
		}
		if tracing := eval[bool](t, ctx, `document.querySelector('#graph').classList.contains('tracing')`); tracing != (u != "") {
			t.Errorf("after key %d (%q) the drawing is dimmed: %v, the pointer over %q", i, key, tracing, u)
		}
		if i == 2 && u == "a" {
			t.Fatal("zoomed in three times, a is still under the pointer: the test shows nothing")
		}
	}
}

func TestLongReadyLineCollapses(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=end")
	click(t, ctx, "#step-first")
	// Find a step with a long READY line: after download completes.
	for i := 0; i < 3000 && eval[int](t, ctx, `document.querySelector('#ready-more').hidden ? 0 : 1`) == 0; i += 50 {
		chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.value = %d; s.dispatchEvent(new Event('input')); })(document.querySelector('#step-slider'))`, i)))
	}
	waitFor(t, ctx, `!document.querySelector('#ready-more').hidden`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#ready-line li').length`); n != 12 {
		t.Errorf("collapsed, the READY line lists %d chips, want 12", n)
	}
	more := text(t, ctx, "#ready-more")
	if !strings.HasPrefix(more, "+") || !strings.HasSuffix(more, " more") {
		t.Errorf("toggle %q", more)
	}
	click(t, ctx, "#ready-more")
	waitFor(t, ctx, `document.querySelectorAll('#ready-line li').length > 12`)
	if got := text(t, ctx, "#ready-more"); !strings.HasPrefix(got, "show fewer") {
		t.Errorf("open, the toggle says %q", got)
	}
	click(t, ctx, "#ready-more")
	waitFor(t, ctx, `document.querySelectorAll('#ready-line li').length === 12`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#counts li[data-state]').length`); n == 0 {
		t.Error("no counts per state")
	}
}

// TestTheReadyLineEmptiesAfterAGlide: a step forward glides the READY
// line's chips; a jump from there to a step whose line is empty empties
// it, as that step opened afresh shows it. The glide's marks once left the
// chips of the step before drawn under an empty line.
func TestTheReadyLineEmptiesAfterAGlide(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\nsubmit b\nnext\nnext\n", "&step=2"))
	chips := `Array.from(document.querySelectorAll('#ready-line li'), li => li.dataset.task).join(' ')`
	if got := eval[string](t, ctx, chips); got != "a b" {
		t.Fatalf("at step 2 the READY line is %q, want a b", got)
	}
	click(t, ctx, "#step-forward")
	waitFor(t, ctx, `document.body.dataset.step === "3"`)
	if got := eval[string](t, ctx, chips); got != "b" {
		t.Fatalf("at step 3 the READY line is %q, want b", got)
	}
	time.Sleep(700 * time.Millisecond) // the glide
	click(t, ctx, "#step-last")
	waitFor(t, ctx, `document.body.dataset.step === "4"`)
	if got := eval[string](t, ctx, chips); got != "" {
		t.Errorf("at step 4, where nothing is READY, the READY line shows %q", got)
	}
	if got := eval[string](t, ctx, `getComputedStyle(document.querySelector('#ready-line'), '::before').content`); !strings.Contains(got, "empty") {
		t.Errorf("the empty READY line does not say it is empty (its ::before is %s)", got)
	}
}

// TestALongDLQCollapses: at outage's dlq step the dead-letter queue holds
// 444 entries; listed whole, they made the page 29,000 px tall and put the
// event log at its bottom.
func TestALongDLQCollapses(t *testing.T) {
	ctx, base := playground(t)
	step := stepAfter(t, "outage", 1, func(c scenario.Command) bool { return c.Op == scenario.OpDLQ })
	open(t, ctx, base, fmt.Sprintf("/?scenario=outage&step=%d", step))
	if n := eval[int](t, ctx, `document.querySelectorAll('#dlq > li').length`); n != 12 {
		t.Errorf("collapsed, the dead-letter queue lists %d entries, want 12", n)
	}
	if got := text(t, ctx, "#dlq-more"); got != "+432 more" {
		t.Errorf("toggle %q, want +432 more", got)
	}
	if top := eval[float64](t, ctx, `document.querySelector('.log-section').getBoundingClientRect().top + scrollY`); top > 3000 {
		t.Errorf("the event log starts %v px down the page", top)
	}
	click(t, ctx, "#dlq-more")
	waitFor(t, ctx, `document.querySelectorAll('#dlq > li').length === 444`)
	if got := text(t, ctx, "#dlq-more"); got != "show fewer" {
		t.Errorf("open, the toggle says %q", got)
	}
	click(t, ctx, "#dlq-more")
	waitFor(t, ctx, `document.querySelectorAll('#dlq > li').length === 12`)
	// A redrive from the list still acts on its entry.
	first := eval[string](t, ctx, `document.querySelector('#dlq > li button[data-action="redrive"]').dataset.task`)
	click(t, ctx, `#dlq > li button[data-action="redrive"]`)
	waitStep(t, ctx, step+1)
	waitForStates(t, ctx, map[string]string{first: "READY"})
}

// TestTouchPansWithOneFingerAndPinchesWithTwo: on a touch screen, one
// finger on the drawing's background pans it and two pinch it, as real
// touch input (the browser's own touch events, turned into pointer
// events), not synthetic ones.
func TestTouchPansWithOneFingerAndPinchesWithTwo(t *testing.T) {
	ctx, base := playground(t)
	if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 2}); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=wide-1000&step=40")
	touch := func(typ input.DispatchTouchEventType, pts ...[2]float64) {
		t.Helper()
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		for i, xy := range pts {
			id := float64(i)
			p.TouchPoints = append(p.TouchPoints, &input.TouchPoint{X: xy[0], Y: xy[1], ID: &id})
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, p); err != nil {
			t.Fatal(err)
		}
	}
	// wide-1000 opens fitted: at 100% it is wider than the stage, with room
	// to pan; at its top left corner, the band above the root is empty.
	press(t, ctx, "1")
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "100%"`)
	eval[bool](t, ctx, `(s => (s.scrollLeft = 0, s.scrollTop = 0, true))(document.querySelector('#scroller'))`)
	// A point of the background with no task within 40 px (a touch near a
	// task is taken as a tap on it).
	bg := eval[[]float64](t, ctx, `(() => {
		const r = document.querySelector('#scroller').getBoundingClientRect();
		const clear = (x, y) => [-40, 0, 40].every(dx => [-40, 0, 40].every(dy => {
			const e = document.elementFromPoint(x + dx, y + dy);
			return e && !e.closest('[data-task]');
		}));
		for (let y = r.top + 50; y < r.bottom - 50; y += 10)
			for (let x = r.left + 180; x < r.right - 180; x += 20)
				if (clear(x, y)) return [x, y];
		return [r.left + r.width / 2, r.top + 12];
	})()`)
	x, y := bg[0], bg[1]
	left0 := eval[float64](t, ctx, `document.querySelector('#scroller').scrollLeft`)
	dx := -120.0
	if left0 > 200 {
		dx = 120
	}
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{x, y})
	touch(input.DispatchTouchEventTypeTouchMove, [2]float64{x + dx/2, y})
	touch(input.DispatchTouchEventTypeTouchMove, [2]float64{x + dx, y})
	touch(input.DispatchTouchEventTypeTouchEnd)
	if left := eval[float64](t, ctx, `document.querySelector('#scroller').scrollLeft`); left-left0 > -dx+10 || left-left0 < -dx-10 {
		t.Errorf("a finger moved %v px scrolled from %v to %v", dx, left0, left)
	}

	// Two fingers 100 px apart moving to 50 px apart zoom out by half.
	if label := text(t, ctx, "#zoom-label"); label != "100%" {
		t.Fatalf("the zoom is %s before the pinch, want 100%%", label)
	}
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{x - 50, y})
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{x - 50, y}, [2]float64{x + 50, y})
	touch(input.DispatchTouchEventTypeTouchMove, [2]float64{x - 40, y}, [2]float64{x + 40, y})
	touch(input.DispatchTouchEventTypeTouchMove, [2]float64{x - 25, y}, [2]float64{x + 25, y})
	touch(input.DispatchTouchEventTypeTouchEnd)
	waitFor(t, ctx, `document.querySelector('#zoom-label').textContent === "50%"`)
}

// TestAWideLayerIsAGridOfCells: wide-1000's shards are drawn as cells,
// named in their tooltips and accessible names, and act when clicked as a
// box does: the front READY shard is handed out.
func TestAWideLayerIsAGridOfCells(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=1006") // download has completed
	waitFor(t, ctx, `document.querySelector('#graph g.cell[data-task="shard-0001"]') !== null`)
	got := eval[map[string]any](t, ctx, `(g => ({texts: g.querySelectorAll('text').length, label: g.getAttribute('aria-label'),
		tip: g.querySelector('title').textContent, state: g.dataset.state,
		cells: document.querySelectorAll('#graph g.cell').length}))(document.querySelector('#graph g[data-task="shard-0001"]'))`)
	if got["texts"].(float64) != 0 || !strings.Contains(got["label"].(string), "shard-0001") || !strings.Contains(got["tip"].(string), "shard-0001") {
		t.Errorf("a cell draws %v texts, is labelled %q with tooltip %q", got["texts"], got["label"], got["tip"])
	}
	if got["state"] != "READY" {
		t.Fatalf("shard-0001 is %v at step 1006, want READY", got["state"])
	}
	click(t, ctx, `#graph g[data-task="shard-0001"]`)
	waitFor(t, ctx, `document.querySelector('#graph g[data-task="shard-0001"]').dataset.state === "RUNNING"`)
}

// TestZoomInStopsAtItsMost: + zooms in to 300% and is then disabled,
// saying why, with the focus passed to −; − enables it again. It stayed
// enabled, and a click did nothing.
func TestZoomInStopsAtItsMost(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=5")
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#zoom-in")))
	for i := 0; i < 20 && !eval[bool](t, ctx, `document.querySelector('#zoom-in').disabled`); i++ {
		enter(t, ctx)
	}
	if got := text(t, ctx, "#zoom-label"); got != "300%" {
		t.Errorf("zoomed in as far as it goes, the label says %q", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#zoom-in').disabled`) {
		t.Fatal("+ is still enabled at 300%")
	}
	if got := eval[string](t, ctx, `document.querySelector('#zoom-in').title`); !strings.Contains(got, "as far as it goes") {
		t.Errorf("the disabled + says %q", got)
	}
	if got := eval[string](t, ctx, focused); got != "BUTTON zoom-out" {
		t.Errorf("with + disabled under it, the focus is on %q", got)
	}
	click(t, ctx, "#zoom-out")
	waitFor(t, ctx, `!document.querySelector('#zoom-in').disabled`)
	if got := eval[string](t, ctx, `document.querySelector('#zoom-in').title`); !strings.HasPrefix(got, "Zoom in") {
		t.Errorf("enabled again, + says %q", got)
	}
}
