package site_test

import (
	"strings"
	"testing"
)

// TestTheCaptionNamesARedrivesBatch: at the outage's step 766, → moves the
// clock while a paced redrive runs; its next batch is redriven and the
// caption says so, where it once said "nothing falls due" while DEAD went
// 33 → 23 and BLOCKED 301 → 201.
func TestTheCaptionNamesARedrivesBatch(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=outage&step=766")
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 767)
	got := text(t, ctx, "#caption")
	if strings.Contains(got, "nothing falls due") || !strings.Contains(got, "redriven, 20 of 40") || !strings.Contains(got, "Released: ") {
		t.Errorf("the caption says %q", got)
	}
	// While the redrive empties the queue, the alert, still raised, does
	// not say it grows.
	if got := text(t, ctx, "#dlq-console .dlq-alert"); strings.Contains(got, "growing") {
		t.Errorf("the queue shrinks and the alert says %q", got)
	}
}

// TestSwitchingTheCycleCheckRecountsTheTotal: at chain-200's step 100,
// choosing dfs shows the total dfs examined up to it (4950), as the same
// link opened fresh does; it once kept twoway's 99.
func TestSwitchingTheCycleCheckRecountsTheTotal(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=chain-200&step=100")
	choose(t, ctx, "#strategy", "dfs")
	waitFor(t, ctx, `document.querySelector('#visits-note').textContent.includes('with dfs')`)
	if got := text(t, ctx, "#visits-note"); !strings.Contains(got, "4950 in all so far with dfs") {
		t.Errorf("after choosing dfs the note says %q", got)
	}
}

// TestWordsAgreeInNumber: a script of one task is "of 1 task"; a task
// whose completion readies one other says so in the singular.
func TestWordsAgreeInNumber(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\n", "&step=end"))
	if got := text(t, ctx, "#counts"); !strings.HasSuffix(got, "of 1 task") {
		t.Errorf("the counts say %q", got)
	}
	open(t, ctx, base, scriptLink("submit a\nsubmit b a\nnext\ncomplete a\n", "&step=end"))
	if got := text(t, ctx, "#caption"); !strings.Contains(got, "a SUCCEEDED. b waited on nothing else and is READY.") {
		t.Errorf("the caption says %q", got)
	}
}
