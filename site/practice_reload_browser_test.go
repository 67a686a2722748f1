package site_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	pg "github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/practice"
)

// TestPracticeReloadComesBackToTheQuestion answers part of an exercise,
// reloading on the way: with the answer shown, the reload shows the same
// question graded, at its step, with the same score; after moving on, the
// next question, waiting for its answer. A finished exercise stays
// finished on a reload; Restart then starts at question 1, and so does a
// reload after it.
func TestPracticeReloadComesBackToTheQuestion(t *testing.T) {
	ctx, base := playground(t)
	ex, n, _ := practice.FindExercise(pg.L5, "diamond-with-another-dead-root")
	p, err := practice.NewPractice(ex, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() < 3 {
		t.Fatalf("%d questions; the test wants 3 or more", p.Len())
	}
	addr := "/?practice=L5&set=book&ex=" + strconv.Itoa(n)
	open(t, ctx, base, addr)
	eval[bool](t, ctx, `(localStorage.removeItem("`+practice.ProgressKey+`"), true)`)
	open(t, ctx, base, addr)
	status := func() string { return text(t, ctx, "#practice-status") }
	total := strconv.Itoa(p.Len())
	answer := func(i int) {
		t.Helper()
		q := p.Questions()[i]
		waitFor(t, ctx, `document.querySelector('#practice-prompt').textContent === `+strconv.Quote(q.Prompt)+` && !document.querySelector('#practice-check').hidden`)
		answerInPage(t, ctx, q, q.Want)
		waitFor(t, ctx, `!document.querySelector('#practice-result').hidden && !document.querySelector('#practice-next').hidden`)
	}

	answer(0)
	click(t, ctx, "#practice-next")
	answer(1)
	open(t, ctx, base, addr)
	waitFor(t, ctx, `!document.querySelector('#practice-result').hidden`)
	if got, want := status(), "Question 2 of "+total+" · score 2/2 · streak 2"; got != want {
		t.Errorf("reloaded with question 2 graded, the status says %q, want %q", got, want)
	}
	if !shown(t, ctx, "#practice-next") || shown(t, ctx, "#practice-check") {
		t.Error("reloaded with question 2 graded, the page does not offer to move on")
	}
	if got, want := stepShown(t, ctx), p.Questions()[1].Step; got != want {
		t.Errorf("reloaded with question 2 graded, the page shows step %d, want %d", got, want)
	}

	click(t, ctx, "#practice-next")
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith("Question 3 of")`)
	open(t, ctx, base, addr)
	q := p.Questions()[2]
	waitFor(t, ctx, `document.querySelector('#practice-prompt').textContent === `+strconv.Quote(q.Prompt)+` && !document.querySelector('#practice-check').hidden`)
	if got, want := status(), "Question 3 of "+total+" · score 2/2 · streak 2"; got != want {
		t.Errorf("reloaded at question 3, the status says %q, want %q", got, want)
	}
	if got := stepShown(t, ctx); got != q.AskedAt() {
		t.Errorf("reloaded at question 3, the page shows step %d, want %d", got, q.AskedAt())
	}
	// Watching something else, then Practise in the header: back to the
	// same question, not to question 1 of L4 with the place forgotten.
	open(t, ctx, base, "/?scenario=outage")
	click(t, ctx, "#mode-practice")
	waitFor(t, ctx, `document.querySelector('#practice-prompt').textContent === `+strconv.Quote(q.Prompt)+` && !document.querySelector('#practice-check').hidden`)
	if got, want := status(), "Question 3 of "+total+" · score 2/2 · streak 2"; got != want {
		t.Errorf("back by the Practise button, the status says %q, want %q", got, want)
	}
	waitFor(t, ctx, `location.search.includes("practice=L5") && location.search.includes("ex=`+strconv.Itoa(n)+`")`)

	for i := 2; i < p.Len(); i++ {
		answer(i)
		click(t, ctx, "#practice-next")
	}
	waitFor(t, ctx, `!document.querySelector('#practice-summary').hidden`)
	open(t, ctx, base, addr)
	waitFor(t, ctx, `!document.querySelector('#practice-summary').hidden && !document.querySelector('#practice-done').hidden`)
	if got, want := eval[string](t, ctx, `document.body.dataset.practiceScore`), total+"/"+total; got != want {
		t.Errorf("reloaded when finished, the score is %s, want %s", got, want)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('#practice-summary .answers li.right')].filter(li => li.textContent.includes("You: ") && !li.textContent.includes("(not kept)")).length`); n != p.Len() {
		t.Errorf("reloaded when finished, the summary shows %d answers given, want %d", n, p.Len())
	}
	if !strings.Contains(eval[string](t, ctx, `document.querySelector('#practice-exercise').selectedOptions[0].textContent`), "✓") {
		t.Error("reloaded when passed, the exercise is not ticked")
	}
	click(t, ctx, "#practice-again")
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith("Question 1 of")`)
	open(t, ctx, base, addr)
	waitFor(t, ctx, `!document.querySelector('#practice-check').hidden`)
	if got := status(); got != "Question 1 of "+total+" · score 0/0" {
		t.Errorf("reloaded after starting again, the status says %q", got)
	}
}

// TestWatchAfterPractiseComesBack: Practise, then Watch, shows the script
// watched before, at its step; it once showed the default scenario, and a
// script of one's own was lost.
func TestWatchAfterPractiseComesBack(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\nsubmit b a\nnext\n", "&step=end"))
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#command"), "complete a\n")); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, 4)
	click(t, ctx, "#step-back")
	waitStep(t, ctx, 3)
	mine := editorText(t, ctx)
	click(t, ctx, "#mode-practice")
	waitFor(t, ctx, `location.search.includes("practice=")`)
	click(t, ctx, "#mode-watch")
	waitStep(t, ctx, 3)
	if got := editorText(t, ctx); got != mine {
		t.Errorf("back from practice, the editor holds %q, want %q", got, mine)
	}
	waitFor(t, ctx, `location.hash.startsWith("#script=") && location.hash.includes("step=3")`)
	click(t, ctx, "#undo")
	waitFor(t, ctx, `!document.querySelector('#editor').value.includes("complete a")`)
}
