package site_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPlaygroundShowsTime: a time scenario shows its clock, a countdown on
// a running lease, moves the clock with its buttons (an expiry flashing and
// the task marked where it joined the READY line), and ends in the right
// states; a scenario without time shows no clock.
func TestPlaygroundShowsTime(t *testing.T) {
	ctx, base := playground(t)
	// Step 7 of worker-crash is "advance 20s": fetch's 30 s lease has 10 s
	// left.
	open(t, ctx, base, "/?scenario=worker-crash&step=7")
	if hidden := eval[bool](t, ctx, `document.getElementById('time-row').hidden`); hidden {
		t.Fatal("no clock on a scenario with leases")
	}
	if got := eval[string](t, ctx, `document.getElementById('clock').textContent`); got != "clock 20s" {
		t.Errorf("the clock reads %q, want clock 20s", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#graph g[data-task="fetch"] .timer.lease .countdown').textContent`); got != "lease ends in 10s" {
		t.Errorf("fetch's countdown reads %q", got)
	}
	if w := eval[float64](t, ctx, `+document.querySelector('#graph g[data-task="fetch"] .timer .bar').getAttribute('width')`); w < 39 || w > 41 {
		t.Errorf("fetch's lease bar is %v wide, want a third of the 120 between its box's corners", w)
	}
	buttons := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#advance button'), b => b.textContent)`)
	if len(buttons) != 3 || buttons[2] != "next deadline (10s)" {
		t.Errorf("advance buttons %q", buttons)
	}

	// +10s at step 7 branches there: the lease expires.
	click(t, ctx, `#advance button[data-command="advance 10s"]`)
	waitFor(t, ctx, `document.getElementById('clock').textContent === 'clock 30s'`)
	waitForStates(t, ctx, map[string]string{"fetch": "READY", "parse": "PENDING"})
	if got := eval[string](t, ctx, `document.getElementById('banner').textContent`); got != "fetch lease of attempt 1 expired at 30s: READY again at the back of the line" {
		t.Errorf("banner %q", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#ready-line li[data-task="fetch"]').classList.contains('joined')`) {
		t.Error("fetch is not marked where it joined the READY line")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph .timer').length`); n != 0 {
		t.Errorf("%d countdowns with nothing waiting on the clock", n)
	}
	if got := eval[string](t, ctx, `document.getElementById('editor').value.trim().split('\n').pop()`); got != "advance 10s" {
		t.Errorf("the script ends with %q, want the advance", got)
	}

	// The whole scenario, at its end.
	open(t, ctx, base, "/?scenario=worker-crash&step=end")
	waitForStates(t, ctx, map[string]string{"fetch": "SUCCEEDED", "parse": "SUCCEEDED"})

	// A scenario without time shows no clock.
	open(t, ctx, base, "/?scenario=diamond-redrive&step=5")
	if !eval[bool](t, ctx, `document.getElementById('time-row').hidden`) {
		t.Error("a clock on a scenario without time")
	}
}

// TestATimerIsDrawnOnItsTask: each countdown's bar lies along the bottom
// of its own task's box, from its left corner, and is what is seen there;
// the countdown's text sits centred just above the box; both are inside
// the stage, and they go with the task when a narrower stage lays the
// graph out again. A timer drawn about the drawing's origin rather than
// its task's place was clipped out of sight.
func TestATimerIsDrawnOnItsTask(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=worker-crash&step=7")
	timersOnTheirTasks(t, ctx, "worker-crash at step 7", 1)
	open(t, ctx, base, "/?scenario=retry-storm-jitter&step=24")
	timersOnTheirTasks(t, ctx, "retry-storm-jitter at step 24", 4)
	const f = `(() => { const r = document.querySelector('#graph g[data-task="f"] > rect').getBoundingClientRect(); return [r.left, r.top]; })()`
	before := eval[[]float64](t, ctx, f)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(800, 900)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // the layout's glide
	if after := eval[[]float64](t, ctx, f); math.Abs(after[0]-before[0]) < 20 {
		t.Fatalf("f's box stayed at x = %.0f: the test needs a stage that lays it out again", after[0])
	}
	timersOnTheirTasks(t, ctx, "retry-storm-jitter at step 24 on a narrower stage", 4)
}

// timersOnTheirTasks checks where each timer drawn is, against its task's
// box and the stage; at least n must be drawn.
func timersOnTheirTasks(t *testing.T, ctx context.Context, what string, n int) {
	t.Helper()
	got := eval[[]map[string]any](t, ctx, `Array.from(document.querySelectorAll('#graph g[data-task] > .timer'), tm => {
		const g = tm.closest('g[data-task]');
		const box = g.querySelector(':scope > rect').getBoundingClientRect();
		const bar = tm.querySelector('.bar').getBoundingClientRect();
		const text = tm.querySelector('.countdown').getBoundingClientRect();
		const stage = document.querySelector('#scroller').getBoundingClientRect();
		const seen = document.elementFromPoint(bar.left + bar.width / 2, bar.top + bar.height / 2);
		return {task: g.dataset.task, box: [box.left, box.top, box.right, box.bottom],
			bar: [bar.left, bar.top, bar.right, bar.bottom], text: [text.left, text.top, text.right, text.bottom],
			stage: [stage.left, stage.top, stage.right, stage.bottom], seen: seen === tm.querySelector('.bar')};
	})`)
	if len(got) < n {
		t.Fatalf("%s: %d timers drawn, want at least %d", what, len(got), n)
	}
	for _, tm := range got {
		r := func(k string) [4]float64 {
			v := tm[k].([]any)
			return [4]float64{v[0].(float64), v[1].(float64), v[2].(float64), v[3].(float64)}
		}
		box, bar, text, stage := r("box"), r("bar"), r("text"), r("stage")
		where := fmt.Sprintf("%s: %s's timer (box %.0f, bar %.0f, text %.0f)", what, tm["task"], box, bar, text)
		if d := bar[0] - box[0]; d < 0 || d > 12 || bar[2] > box[2] || bar[1] < box[1]+(box[3]-box[1])/2 || bar[3] > box[3] {
			t.Errorf("%s: the bar does not run along the bottom of the box from its left corner", where)
		}
		if mid, boxMid := (text[0]+text[2])/2, (box[0]+box[2])/2; mid < boxMid-2 || mid > boxMid+2 || text[3] > box[1]+2 || text[3] < box[1]-20 {
			t.Errorf("%s: the countdown is not centred just above the box", where)
		}
		for _, p := range [][4]float64{bar, text} {
			if p[0] < stage[0] || p[2] > stage[2] || p[1] < stage[1] || p[3] > stage[3] {
				t.Errorf("%s: drawn outside the stage %.0f", where, stage)
			}
		}
		if tm["seen"] != true {
			t.Errorf("%s: the bar is not what is seen at its middle", where)
		}
	}
}
