package site_test

import (
	"testing"
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
	if w := eval[float64](t, ctx, `+document.querySelector('#graph g[data-task="fetch"] .timer .bar').getAttribute('width')`); w < 40 || w > 43 {
		t.Errorf("fetch's lease bar is %v wide, want a third of 124", w)
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
