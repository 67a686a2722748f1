package site_test

import (
	"context"
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
