package site_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// enter presses Enter as a keyboard does: a key down that carries its
// text, so that the page's preventDefault on it cancels the keypress, and
// a key up. (chromedp's KeyEvent sends the keypress apart, which the page
// cannot cancel: it pressed the button the first Enter had focused.)
func enter(t testing.TB, ctx context.Context) {
	t.Helper()
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter", Text: "\r", UnmodifiedText: "\r", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
	up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
	for _, e := range []input.DispatchKeyEventParams{down, up} {
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, e); err != nil {
			t.Fatalf("Enter: %v", err)
		}
	}
}

// focused describes the focused element: its tag, and the task or step
// it stands for.
const focused = `(e => e.tagName + ' ' + (e.dataset.task || e.dataset.step || e.id || ''))(document.activeElement)`

// TestFocusStaysOnTheTaskAfterItsAction: at diamond-redrive's step 6, a
// is RUNNING; Enter on it opens its popover and Enter completes it. The
// focus once fell to the page's body, so that Tab started again from the
// top; it goes back to a, drawn with its focus ring. Escape in a popover
// does the same.
func TestFocusStaysOnTheTaskAfterItsAction(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=6")
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#graph g[data-task="a"]`))); err != nil {
		t.Fatal(err)
	}
	enter(t, ctx)
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	enter(t, ctx)
	waitForStates(t, ctx, map[string]string{"a": "SUCCEEDED"})
	if got := eval[string](t, ctx, focused); got != "g a" {
		t.Fatalf("after Complete the focus is on %q, want the task a", got)
	}

	// b is READY at the front: Enter hands it out; Enter again opens its
	// popover, Escape closes it, and the focus is back on b.
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#graph g[data-task="b"]`)))
	enter(t, ctx)
	waitForStates(t, ctx, map[string]string{"b": "RUNNING"})
	enter(t, ctx)
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	press(t, ctx, kb.Escape)
	waitFor(t, ctx, `document.querySelector('#popover').hidden`)
	if got := eval[string](t, ctx, focused); got != "g b" {
		t.Errorf("after Escape the focus is on %q, want the task b", got)
	}
}

// TestEventLogLinesAreFocusable: Tab reaches the event log; ↑ and ↓ move
// between its lines, each drawn with a focus ring; Enter shows a line's
// step and the focus stays on that line.
func TestEventLogLinesAreFocusable(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=10")
	if got := eval[string](t, ctx, `document.querySelector('#event-log').tabIndex + ''`); got != "0" {
		t.Fatalf("the event log's tabindex is %s", got)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#event-log`))); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.ArrowDown)
	if got := eval[string](t, ctx, focused); got != "LI 10" {
		t.Fatalf("↓ in the log focuses %q, want the line of step 10", got)
	}
	press(t, ctx, kb.ArrowUp)
	press(t, ctx, kb.ArrowUp)
	line := eval[string](t, ctx, `document.activeElement.dataset.step || ''`)
	if line == "" || line == "10" {
		t.Fatalf("↑ moved the focus to %q", eval[string](t, ctx, focused))
	}
	if ring := eval[string](t, ctx, `getComputedStyle(document.activeElement).outlineStyle`); ring == "none" {
		t.Errorf("the focused line has no focus ring")
	}
	enter(t, ctx)
	waitFor(t, ctx, `document.body.dataset.step === "`+line+`"`)
	if got := eval[string](t, ctx, focused); got != "LI "+line {
		t.Errorf("after Enter the focus is on %q, want the line of step %s", got, line)
	}
}

// TestFocusStaysWhereTheKeyboardActs: a control that its own action
// hides, disables or draws afresh keeps the focus near it, not on the
// page's body, where Tab starts again from the top: Play's goes to Pause
// and back, a step button at the end to the slider, a DLQ console's
// button to what the console offers next, a dead letter's Redrive to the
// list's next button, and practice's Next question to the next question.
func TestFocusStaysWhereTheKeyboardActs(t *testing.T) {
	ctx, base := playground(t)
	at := func(what, want string) {
		t.Helper()
		if got := eval[string](t, ctx, focused); got != want {
			t.Errorf("after %s the focus is on %q, want %q", what, got, want)
		}
	}
	open(t, ctx, base, "/?scenario=diamond-redrive&step=0")
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#play`)))
	enter(t, ctx)
	waitFor(t, ctx, `document.querySelector('#play').hidden`)
	at("Enter on Play", "BUTTON pause")
	enter(t, ctx)
	waitFor(t, ctx, `!document.querySelector('#play').hidden`)
	at("Enter on Pause", "BUTTON play")

	open(t, ctx, base, "/?scenario=diamond-redrive&step=end")
	click(t, ctx, "#step-back")
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#step-forward`)))
	enter(t, ctx)
	waitFor(t, ctx, `document.querySelector('#step-forward').disabled`)
	at("Enter on → onto the last step", "INPUT step-slider")

	// A paced redrive of the outage's group 1, in progress: Next batch,
	// then Cancel.
	open(t, ctx, base, "/?scenario=outage&step=600")
	inConsole := `(e => e !== document.body && !!e.closest('#dlq-console') && e.tagName === 'BUTTON')(document.activeElement)`
	for _, label := range []string{"Next batch", "Cancel"} {
		sel := eval[string](t, ctx, `(() => { const b = [...document.querySelectorAll('#dlq-console button')].find(b => b.textContent.startsWith(`+"`"+label+"`"+`)); if (!b) return ''; b.id = b.id || 'focus-me'; return '#' + b.id; })()`)
		if sel == "" {
			t.Fatalf("the console at outage's step 600 offers no %s", label)
		}
		chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel)))
		step := stepShown(t, ctx)
		enter(t, ctx)
		waitFor(t, ctx, fmt.Sprintf(`+document.body.dataset.step !== %d`, step))
		if !eval[bool](t, ctx, inConsole) {
			t.Errorf("after Enter on %s the focus is on %q, not a button of the console", label, eval[string](t, ctx, focused))
		}
	}
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#dlq button[data-action]`)))
	step := stepShown(t, ctx)
	enter(t, ctx)
	waitFor(t, ctx, fmt.Sprintf(`+document.body.dataset.step !== %d`, step))
	if !eval[bool](t, ctx, `(e => e !== document.body && !!e.closest('#dlq'))(document.activeElement)`) {
		t.Errorf("after Enter on a dead letter's Redrive the focus is on %q, not in the DLQ", eval[string](t, ctx, focused))
	}

	open(t, ctx, base, "/?practice=L4&set=book&ex=1")
	click(t, ctx, `#practice-inputs input[value="resize"]`)
	click(t, ctx, "#practice-check")
	waitFor(t, ctx, `!document.querySelector('#practice-next').hidden`)
	if !eval[bool](t, ctx, `[...document.querySelectorAll('#practice-inputs input')].every(i => i.disabled)`) {
		t.Error("graded, the answer's choices can still be changed")
	}
	chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#practice-next`)))
	enter(t, ctx)
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith("Question 2 of")`)
	if !eval[bool](t, ctx, `(e => !!e.closest('#practice-inputs'))(document.activeElement)`) {
		t.Errorf("after Next question the focus is on %q, not the question's answer", eval[string](t, ctx, focused))
	}
}
