package site_test

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
)

// TestDLQConsoleOperatesTheOutage: in the outage the console shows the
// alert and the root causes; selecting a group marks its tasks; Preview
// marks what would move and changes nothing; Redrive at a rate starts a
// redrive whose releases come as the clock advances.
func TestDLQConsoleOperatesTheOutage(t *testing.T) {
	ctx, base := playground(t)
	// Step 530 (line 554): the outage is over, every fetch is DEAD, the
	// alert is up.
	open(t, ctx, base, "/?scenario=outage&step=530")
	if got := eval[string](t, ctx, `(document.querySelector('#dlq-console .dlq-alert') || {}).textContent || ''`); !strings.HasPrefix(got, "Dead-letter queue alert") {
		t.Errorf("alert %q", got)
	}
	head := eval[string](t, ctx, `document.querySelector('#dlq-console .dlq-group[data-group="1"] .group-count').textContent`)
	if head != "40 dead · blocks 400" {
		t.Errorf("group 1 reads %q", head)
	}

	click(t, ctx, `#dlq-console button[data-select="1"]`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.task.selected').length`); n == 0 {
		t.Error("selecting group 1 marks no task in the drawing")
	}
	if !eval[bool](t, ctx, `document.querySelector('#graph g[data-task="fetch-01"]').classList.contains('selected')`) {
		t.Error("fetch-01, a root of group 1, is not marked")
	}

	before := states(t, ctx)
	script := editorText(t, ctx)
	click(t, ctx, `#dlq-console .dlq-group[data-group="1"] button[data-preview="preview redrive group 1"]`)
	waitFor(t, ctx, `document.getElementById('caption').textContent.includes('Preview, nothing changed: redrive group 1 would redrive 40 tasks and release 400 blocked tasks.')`)
	if after := states(t, ctx); len(after) != len(before) || after["fetch-01"] != "DEAD" || after["render-01-01"] != "BLOCKED" {
		t.Errorf("the preview changed states: fetch-01 %s, render-01-01 %s", after["fetch-01"], after["render-01-01"])
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#graph g.task.would-redrive').length`); n == 0 {
		t.Error("the preview marks nothing to redrive")
	}
	// A preview changes nothing, not the script either, even at an
	// earlier step: the steps after it stay.
	if editorText(t, ctx) != script || stepShown(t, ctx) != 530 {
		t.Errorf("the preview changed the script or the step (step %d)", stepShown(t, ctx))
	}

	click(t, ctx, `#dlq-console .dlq-group[data-group="1"] button[data-command="redrive group 1 at 2/1s"]`)
	waitFor(t, ctx, `document.getElementById('caption').textContent.includes('started: 40 tasks at 2/1s')`)
	// The drawing animates a step's events one after another: wait for
	// them rather than read the states once.
	redriven := `Array.from(document.querySelectorAll('#graph g[data-task^="fetch-"]')).filter(g => g.dataset.state !== "DEAD").length`
	waitFor(t, ctx, redriven+` >= 2`)
	if n := eval[int](t, ctx, redriven); n != 2 {
		t.Errorf("%d fetches redriven at once, want 2", n)
	}
	click(t, ctx, `#advance button[data-command="advance 1s"]`)
	waitFor(t, ctx, `document.getElementById('clock').textContent !== ''`)
	waitFor(t, ctx, redriven+` >= 4`)
	if n := eval[int](t, ctx, redriven); n != 4 {
		t.Errorf("%d fetches redriven a second later, want 4", n)
	}
}

// TestAPoisonedTaskOffersTheForcedRedrive: at poison-pill's dlq step,
// decode needs a human; its entry, its popover and the console offer the
// forced redrive, which releases index. The entry's button once offered
// a plain redrive, which the queue refuses.
func TestAPoisonedTaskOffersTheForcedRedrive(t *testing.T) {
	ctx, base := playground(t)
	step := stepAfter(t, "poison-pill", 1, func(c scenario.Command) bool { return c.Op == scenario.OpDLQ })
	for _, sel := range []string{
		`#dlq li[data-task="decode"] button[data-action]`,
		`#popover button[data-action]`,
		`#dlq-console .needs-human button[data-command]`,
	} {
		open(t, ctx, base, fmt.Sprintf("/?scenario=poison-pill&step=%d", step))
		if sel == `#popover button[data-action]` {
			click(t, ctx, `#graph g[data-task="decode"]`)
			waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
			if got := text(t, ctx, "#popover"); !strings.Contains(got, "needs a human") {
				t.Errorf("decode's popover says %q", got)
			}
		}
		if got := text(t, ctx, sel); !strings.Contains(got, "orce") && !strings.Contains(got, "decode") {
			t.Errorf("%s says %q", sel, got)
		}
		click(t, ctx, sel)
		waitStep(t, ctx, step+1)
		waitForStates(t, ctx, map[string]string{"decode": "READY", "index": "PENDING"})
		if got := text(t, ctx, "#caption"); strings.Contains(got, "refused") {
			t.Errorf("%s: %s", sel, got)
		}
		if !strings.HasSuffix(editorText(t, ctx), "\nredrive! decode\n") {
			t.Errorf("%s: the script ends %q", sel, editorText(t, ctx)[max(0, len(editorText(t, ctx))-40):])
		}
	}
}

// TestTheConsolesMarksAreDrawn: selecting a group of the outage's dead
// letters and previewing its redrive change the colour of its roots'
// boxes on the screen, not only their classes: the styles once aimed at a
// class the drawing's boxes do not carry, and nothing changed to the eye.
func TestTheConsolesMarksAreDrawn(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=outage&step=541")
	const task = `#graph g[data-task="fetch-01"]`
	// The page opens on the action, at the bottom of the outage's rows:
	// fetch-01 is brought into view, as a person would scroll to it.
	eval[bool](t, ctx, `(document.querySelector('`+task+`').scrollIntoView({block: 'center', inline: 'center'}), true)`)
	settle(t, ctx)
	dark, blue := color.RGBA{0x22, 0x22, 0x22, 0}, color.RGBA{0x00, 0x72, 0xb2, 0}
	before := shot(t, ctx, task)
	d0, b0 := near(before, dark, 24), near(before, blue, 24)

	click(t, ctx, `#dlq-console button[data-select="1"]`)
	settle(t, ctx)
	if d := near(shot(t, ctx, task), dark, 24); d < d0+100 {
		t.Errorf("selecting group 1 drew %d dark pixels on fetch-01, %d before: its box looks the same", d, d0)
	}

	click(t, ctx, `#dlq-console .dlq-group[data-group="1"] button[data-preview]`)
	waitFor(t, ctx, `document.getElementById('caption').textContent.includes('Preview, nothing changed')`)
	settle(t, ctx)
	if b := near(shot(t, ctx, task), blue, 24); b < b0+100 {
		t.Errorf("the preview drew %d blue pixels on fetch-01, %d before: what would be redriven looks the same", b, b0)
	}
}

// TestAnExpiredLeaseFlashes: at worker-crash's step 9 a lease expires;
// the task's box is drawn with the flash's animation.
func TestAnExpiredLeaseFlashes(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=worker-crash&step=8")
	click(t, ctx, "#step-forward")
	waitFor(t, ctx, `!!document.querySelector('#graph g.task.expired')`)
	if got := eval[string](t, ctx, `getComputedStyle(document.querySelector('#graph g.task.expired > rect')).animationName`); got != "expired" {
		t.Errorf("the expired task's box is animated by %q, want the expired flash", got)
	}
}

// TestAPacedRedriveHasAHandle: at the outage's step 546 a redrive of
// group 1 runs at 10 every 10 s. The console shows its progress, a step
// to its next batch and Cancel, and the groups' Redrive, which the queue
// would refuse ("a redrive is in progress"), disabled with the reason on
// the screen. Next batch redrives ten more; Cancel stops it.
func TestAPacedRedriveHasAHandle(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=outage&step=546")
	if got := text(t, ctx, "#dlq-console .paced-progress"); got != "10/40 redriven, next batch in 10s" {
		t.Errorf("the progress says %q", got)
	}
	if !shown(t, ctx, `#dlq-console .paced button[data-command="advance 10s"]`) || !shown(t, ctx, `#dlq-console .paced button[data-command="redrive cancel"]`) {
		t.Fatal("no next-batch or Cancel button")
	}
	if n := eval[int](t, ctx, `Array.from(document.querySelectorAll('#dlq-console .group-actions button')).filter(b => b.textContent.startsWith('Redrive') && !b.disabled).length`); n != 0 {
		t.Errorf("%d Redrive buttons are enabled while a redrive runs", n)
	}
	if !shown(t, ctx, `#dlq-console .paced .refused-why`) {
		t.Error("the reason the Redrive buttons are disabled is not shown")
	}
	click(t, ctx, `#dlq-console .paced button[data-command="advance 10s"]`)
	waitFor(t, ctx, `(document.querySelector('#dlq-console .paced-progress') || {}).textContent === "20/40 redriven, next batch in 10s"`)
	click(t, ctx, `#dlq-console .paced button[data-command="redrive cancel"]`)
	waitFor(t, ctx, `!document.querySelector('#dlq-console .paced')`)
	if n := eval[int](t, ctx, `Array.from(document.querySelectorAll('#dlq-console .group-actions button')).filter(b => b.disabled).length`); n != 0 {
		t.Errorf("%d buttons stay disabled after Cancel", n)
	}
}
