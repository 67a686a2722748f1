package site_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	pg "github.com/dagq/dagq/internal/playground"
)

// TestALongScriptShowsAsAViewUntilEdited: a script of ViewAbove lines or
// more is shown as the lines in sight, numbered, with the step's line
// marked; clicking it makes it the editor, the caret on the line clicked.
func TestALongScriptShowsAsAViewUntilEdited(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=1500")
	if shown(t, ctx, "#editor") || !shown(t, ctx, "#editor-view") {
		t.Fatal("wide-1000's 3,034 lines are not shown as a view")
	}
	view := text(t, ctx, "#editor-view")
	if !strings.Contains(view, "complete shard-0246") || strings.Contains(view, "submit shard-0001 download") {
		t.Errorf("the view does not hold just the lines around line 1514 (%d lines)", strings.Count(view, "\n"))
	}
	// The step's line is marked where the view shows it.
	if got := eval[bool](t, ctx, `(() => {
		const v = document.querySelector('#editor-view').getBoundingClientRect(), m = document.querySelector('#editor-mark').getBoundingClientRect();
		return m.top >= v.top && m.bottom <= v.bottom && !document.querySelector('#editor-mark').hidden })()`); !got {
		t.Error("the mark of line 1514 is not in sight")
	}
	// The gutter numbers the lines in sight, and follows a scroll to the
	// top.
	if g := text(t, ctx, "#gutter"); !strings.Contains(g, "1514\n") || strings.HasPrefix(g, "1\n") {
		t.Errorf("the gutter does not number the lines around 1514: starts %.20q", g)
	}
	// …level with the line it numbers.
	if d := eval[float64](t, ctx, `(() => {
		const lines = document.querySelector('#gutter .lines'), text = lines.firstChild.textContent;
		const at = ("\n" + text).indexOf("\n1514\n"), r = document.createRange();
		r.setStart(lines.firstChild, at); r.setEnd(lines.firstChild, at + 4);
		const g = r.getBoundingClientRect(), m = document.querySelector('#editor-mark').getBoundingClientRect();
		return Math.abs((g.top + g.bottom) / 2 - (m.top + m.bottom) / 2) })()`); d > 4 {
		t.Errorf("the gutter's 1514 is %.0f px off the marked line", d)
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(v => { v.scrollTop = 0; v.dispatchEvent(new Event('scroll')) })(document.querySelector('#editor-view'))`))
	waitFor(t, ctx, `document.querySelector('#gutter').textContent.startsWith("1\n2\n") && document.querySelector('#editor-view').textContent.startsWith("# 1,000 shards")`)

	// A click on the third line edits the script there.
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(v => { const r = v.getBoundingClientRect();
		v.dispatchEvent(new MouseEvent('mousedown', {clientX: r.left + 40, clientY: r.top + 8 + 2 * 20 + 10, bubbles: true})) })(document.querySelector('#editor-view'))`))
	waitFor(t, ctx, `!document.querySelector('#editor').hidden && document.querySelector('#editor-view').hidden && document.activeElement.id === 'editor'`)
	if line := eval[int](t, ctx, `(e => e.value.slice(0, e.selectionStart).split("\n").length)(document.querySelector('#editor'))`); line != 3 {
		t.Errorf("the caret is on line %d, want 3", line)
	}
	if len(editorText(t, ctx)) < 60000 {
		t.Error("the editor does not hold the whole script")
	}
	// Typing in it makes the script dirty, as in any editor.
	chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#editor"), "x"))
	waitFor(t, ctx, `document.querySelector('#run').classList.contains('primary')`)
}

// TestALongScriptViewIsEditedFromTheKeyboard: focusing the view with Tab
// makes it the editor.
func TestALongScriptViewIsEditedFromTheKeyboard(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=wide-1000&step=10")
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#run').focus()`))
	press(t, ctx, "\t")
	waitFor(t, ctx, `document.activeElement.id === 'editor' && document.querySelector('#editor-view').hidden`)
}

// TestSteppingBackKeepsTheLogExact: stepping back by one takes the undone
// step's lines off the log and brings back the earlier ones, without
// drawing it again; the log drawn is the log of the step, line for line.
func TestSteppingBackKeepsTheLogExact(t *testing.T) {
	ctx, base := playground(t)
	p := pg.New()
	if _, _, err := p.Open("?scenario=wide-1000", ""); err != nil {
		t.Fatal(err)
	}
	const k = 1200 // far past the log's limit
	open(t, ctx, base, fmt.Sprintf("/?scenario=wide-1000&step=%d", k+2))
	for _, want := range []int{k + 1, k} {
		click(t, ctx, "#step-back")
		waitStep(t, ctx, want)
		p.Seek(want)
		lines, more := p.Log()
		got := eval[[]string](t, ctx, `[...document.querySelectorAll('#event-log li')].map(li => li.dataset.step + (li.classList.contains('current') ? '*' : ''))`)
		if len(got) != len(lines) {
			t.Fatalf("step %d: %d log lines drawn, want %d", want, len(got), len(lines))
		}
		for i, l := range lines {
			w := strconv.Itoa(l.Step)
			if l.Step == want {
				w += "*"
			}
			if got[i] != w {
				t.Fatalf("step %d: log line %d is of step %s, want %s", want, i, got[i], w)
			}
		}
		if m := text(t, ctx, "#log-more"); m != more {
			t.Errorf("step %d: the log says %q, want %q", want, m, more)
		}
	}
}

// TestTheLogShowsItsLastLine: the event log is scrolled to the step's last
// line, whether the page opens there, steps there, or the step added
// hundreds of lines.
func TestTheLogShowsItsLastLine(t *testing.T) {
	ctx, base := playground(t)
	lastInSight := func(when string) {
		t.Helper()
		// The log scrolls in the frame after the step's drawing.
		const js = `(l => { const r = l.getBoundingClientRect(), last = l.lastElementChild.getBoundingClientRect();
			return last.bottom <= r.bottom + 1 && last.bottom > r.top })(document.querySelector('#event-log'))`
		for range 50 {
			if eval[bool](t, ctx, js) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("%s: the log's last line is out of sight", when)
	}
	open(t, ctx, base, "/?scenario=wide-1000&step=end")
	lastInSight("opened at the end")
	p := pg.New()
	p.Open("?scenario=wide-1000", "")
	rel := releaseStepOf(p)
	open(t, ctx, base, fmt.Sprintf("/?scenario=wide-1000&step=%d", rel-1))
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, rel)
	lastInSight("after the release step")
	for range 3 {
		click(t, ctx, "#step-forward")
	}
	waitStep(t, ctx, rel+3)
	lastInSight("three steps on")
}

// releaseStepOf is the step of p's session with the most events.
func releaseStepOf(p *pg.Page) int {
	s := p.Session()
	best, at := 0, 1
	for k := 1; k <= s.Len(); k++ {
		if n := len(s.Step(k).Events); n > best {
			best, at = n, k
		}
	}
	return at
}

// TestChangingTheSpeedWhilePlaying: play goes on at the new speed, and a
// pause stops it.
func TestChangingTheSpeedWhilePlaying(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=chain-200")
	choose(t, ctx, "#speed", "800")
	click(t, ctx, "#play")
	waitFor(t, ctx, `document.body.dataset.step >= 1`)
	choose(t, ctx, "#speed", "50")
	waitFor(t, ctx, `document.body.dataset.step >= 20`)
	click(t, ctx, "#pause")
	at := stepShown(t, ctx)
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`new Promise(done => setTimeout(done, 400))`, chromedp.EvalAwaitPromise))
	if now := stepShown(t, ctx); now != at {
		t.Errorf("after pause the step moved from %d to %d", at, now)
	}
}
