package site_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	pg "github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/practice"
)

// TestPracticeLocksTheTimeline: in L4's first exercise, End and → before
// and after Check once stepped the hidden timeline, so that the drawing
// and the log showed the answers to every later question while the panel
// asked the first; and the READY line said which task next hands out
// while that was the question, or by its order. The timeline stays at the question's step
// now, and → after Check is the next question.
func TestPracticeLocksTheTimeline(t *testing.T) {
	ctx, base := playground(t)
	ex, _, ok := practice.FindExercise(pg.L4, "1")
	if !ok {
		t.Fatal("no exercise 1 at L4")
	}
	p, _ := practice.NewPractice(ex, false)
	qs := p.Questions()
	open(t, ctx, base, "/?practice=L4&set=book&ex=1")
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith('Question 1 of')`)
	if got := stepShown(t, ctx); got != qs[0].Step-1 {
		t.Fatalf("question 1 is asked at step %d, want %d", got, qs[0].Step-1)
	}
	if got := eval[string](t, ctx, `Array.from(document.querySelectorAll('#ready-line li, #graph g[data-task]'),
		e => (e.title || '') + ' ' + (e.getAttribute('aria-label') || '')).join(' | ')`); strings.Contains(got, "next hands it out") || strings.Contains(got, "hand it out") {
		t.Errorf("while practising, the page says what next hands out: %s", got)
	}
	// Its order would say it too: the line lists the READY tasks by name,
	// and its heading says so.
	chips := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#ready-line li'), li => li.textContent)`)
	if len(chips) == 0 || !slices.IsSorted(chips) {
		t.Errorf("while practising, the READY line lists %q; want its tasks by name", chips)
	}
	if got := text(t, ctx, "#ready-order"); got != "by name while you practise" {
		t.Errorf("while practising, the READY line's heading says %q", got)
	}
	settleKeys := func() { settle(t, ctx) }
	// What is drawn and logged does not change either: the keys once
	// drew the answers to every later question.
	settleKeys()
	drawn, logged := shot(t, ctx, "#graph"), text(t, ctx, "#event-log")
	for _, key := range []string{kb.End, kb.ArrowRight, " "} {
		press(t, ctx, key)
		settleKeys()
		if got := stepShown(t, ctx); got != qs[0].Step-1 {
			t.Fatalf("%q before Check moved the page to step %d", key, got)
		}
		if n := differ(drawn, shot(t, ctx, "#graph")); n > 0 {
			t.Errorf("%q before Check changed %d pixels of the drawing", key, n)
		}
		if got := text(t, ctx, "#event-log"); got != logged {
			t.Errorf("%q before Check changed the event log to %q", key, got)
		}
	}
	answerInPage(t, ctx, qs[0], qs[0].Want)
	waitFor(t, ctx, `!document.querySelector('#practice-next').hidden`)
	if got := stepShown(t, ctx); got != qs[0].Step {
		t.Fatalf("question 1 is graded at step %d, want %d", got, qs[0].Step)
	}
	for _, key := range []string{kb.End, kb.Home, kb.ArrowLeft} {
		press(t, ctx, key)
		settleKeys()
		if got := stepShown(t, ctx); got != qs[0].Step {
			t.Fatalf("%q after Check moved the page to step %d", key, got)
		}
	}
	press(t, ctx, kb.ArrowRight)
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith('Question 2 of')`)
	if got := stepShown(t, ctx); got != qs[1].AskedAt() {
		t.Errorf("→ after Check shows step %d, want question 2's, %d", got, qs[1].AskedAt())
	}
	if got := text(t, ctx, "#step-label"); !strings.Contains(got, strconv.Itoa(qs[1].AskedAt())) {
		t.Logf("the hidden step label says %q", got)
	}
}

// TestABadPracticeLinkIsSaid: a practice link whose exercise, set or
// seed cannot be read opens the first exercise, as before, but says what
// it left out; it said nothing.
func TestABadPracticeLinkIsSaid(t *testing.T) {
	ctx, base := playground(t)
	for path, want := range map[string]string{
		"/?practice=L4&set=book&ex=999":    `This link's ex could not be read (no exercise "999" at L4`,
		"/?practice=L4&set=bogus&ex=1":     `This link's set could not be read (unknown set "bogus"`,
		"/?practice=L4&set=random&seed=-1": `This link's seed could not be read (must be a whole number, got "-1")`,
	} {
		open(t, ctx, base, path)
		waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith('Question 1 of')`)
		if got := text(t, ctx, "#notice-text"); !strings.Contains(got, want) || eval[bool](t, ctx, `document.querySelector('#notice').hidden`) {
			t.Errorf("%s: the notice says %q; want %q", path, got, want)
		}
	}
}
