package site_test

import (
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
