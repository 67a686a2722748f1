package site_test

import (
	"strings"
	"testing"
)

// smallTargets lists the controls on the screen a finger takes that are
// under 44 px either way: buttons, links, fields, pickers, the slider,
// the minimap, the chips and the event log's lines, and the labels that
// hold a checkbox or a radio button (the label is then the target).
const smallTargets = `(() => {
	const sel = 'button, a[href], input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, summary, canvas#minimap, ' +
		'label:has(input[type=checkbox]), label:has(input[type=radio]), [role=button]:not(g), [tabindex]:not(g):not([tabindex="-1"]), .event-log li[data-step]';
	return Array.from(document.querySelectorAll(sel))
		.filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
		.map(e => [e, e.getBoundingClientRect()])
		.filter(([, r]) => r.width < 43.5 || r.height < 43.5)
		.map(([e, r]) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + String(e.className).trim().replace(/\s+/g, '.')) +
			' “' + (e.textContent || '').trim().slice(0, 16).replace(/\s+/g, ' ') + '” ' + Math.round(r.width) + '×' + Math.round(r.height));
})()`

// TestEveryTargetOnAPhoneIsBigEnough sweeps the page on a 390×844 touch
// screen, in the states that show its controls (a task's popover, the
// dead-letter console, a paced redrive, practice, the share panel), for
// targets under 44×44 px: the popover's Complete and Fail were 30 px
// tall, the scenario picker 30, Watch and Practise 28, the slider 16,
// the READY line's chips 25 and the event log's lines 23. The popover's
// buttons, over the task when the timeline stuck to the screen's bottom
// would cover them, take a tap.
func TestEveryTargetOnAPhoneIsBigEnough(t *testing.T) {
	ctx, base := playground(t)
	phone(t, ctx)
	check := func(where string) {
		t.Helper()
		if small := eval[[]string](t, ctx, smallTargets); len(small) > 0 {
			t.Errorf("%s: %d targets under 44 px: %v", where, len(small), small[:min(8, len(small))])
		}
	}
	for _, path := range []string{
		"/?scenario=outage&step=541",            // the dead-letter console
		"/?scenario=outage&step=575",            // a paced redrive, the READY line
		"/?practice=L4&set=book&ex=1",           // practice
		"/?scenario=retry-storm-jitter&step=24", // the minimap
	} {
		open(t, ctx, base, path)
		settle(t, ctx)
		check(path)
	}

	open(t, ctx, base, "/?scenario=diamond-redrive&step=6")
	settle(t, ctx)
	check("diamond-redrive")
	click(t, ctx, "#share")
	waitFor(t, ctx, `!document.querySelector('#share-panel').hidden`)
	check("the share panel")

	open(t, ctx, base, "/?scenario=diamond-redrive&step=6")
	settle(t, ctx)
	touchAt(t, ctx, centre(t, ctx, `#graph g[data-task="a"] > rect`))
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	settle(t, ctx)
	check("a's popover")
	keepShot(t, ctx, "targets-phone-popover")
	for _, b := range []string{"complete", "fail"} {
		if got := eval[string](t, ctx, `(b => { const r = b.getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return e && e.closest('button') === b ? 'reachable' : (e ? e.tagName + '.' + e.className : 'nothing'); })(document.querySelector('#popover button[data-action="`+b+`"]'))`); got != "reachable" {
			t.Errorf("the popover's %s is under %s", b, got)
		}
	}
	touchAt(t, ctx, centre(t, ctx, `#popover button[data-action="complete"]`))
	waitForStates(t, ctx, map[string]string{"a": "SUCCEEDED"})
}

// TestATaskIsAFingersTargetOnAPhone: on a 390×844 touch screen a task box
// drawn under 44 px tall (diamond-redrive, zoomed out until it is) is still
// a target of 44 px at least: a tap just below a's box, within the 44 px
// about its centre, opens a's popover, and a tap halfway between a and
// the layer below does nothing. (Chromium's own touch adjustment takes a
// tap within 10 px or so of a button to it; playground.TaskAtTap makes the
// 44 px hold wherever a browser does less.)
func TestATaskIsAFingersTargetOnAPhone(t *testing.T) {
	ctx := phoneAt(t, 6, "RUNNING")
	rect := func(task string) []float64 {
		return eval[[]float64](t, ctx, `(r => [r.left, r.top, r.width, r.height])(document.querySelector('#graph g[data-task="`+task+`"] > rect').getBoundingClientRect())`)
	}
	for r := rect("a"); r[3] >= 36 && eval[bool](t, ctx, `!document.querySelector('#zoom-out').disabled`); r = rect("a") {
		click(t, ctx, "#zoom-out")
		settle(t, ctx)
	}
	a, b := rect("a"), rect("b")
	if a[3] >= 44 {
		t.Fatalf("a's box is %.0f px tall at the least zoom: nothing to test", a[3])
	}
	x, bottom := a[0]+a[2]/2, a[1]+a[3]
	reach := (44 - a[3]) / 2
	popover := `!document.querySelector('#popover').hidden`
	if gap := b[1] - bottom; gap < 2*reach+8 {
		t.Fatalf("a and b are %.0f px apart: no room between their targets", gap)
	}

	touchAt(t, ctx, [2]float64{x, (bottom + b[1]) / 2})
	settle(t, ctx)
	if eval[bool](t, ctx, popover) {
		t.Errorf("a tap halfway between a's box and b's (%.0f px below a) opened a popover", (b[1]-bottom)/2)
	}
	touchAt(t, ctx, [2]float64{x, bottom + reach - 1})
	waitFor(t, ctx, popover)
	if got := text(t, ctx, "#popover"); !strings.Contains(got, "a is RUNNING") {
		t.Errorf("a tap %.1f px below a's %.0f px box opened %q, want a's popover", reach-1, a[3], got)
	}
}
