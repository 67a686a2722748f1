package site_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/internal/practice"
)

// TestMockInterviewForAPair: an interviewer starts a mock interview and
// sees the clock at L4, the question, the probes and the scoring sheet;
// a click marks a point, coloured, and the address keeps it; the
// candidate's link shows the same clock and question and no sheet; an
// interview twenty minutes in is at L5, its points first.
func TestMockInterviewForAPair(t *testing.T) {
	ctx, base := playground(t)
	stages := practice.InterviewStages()
	// The practice bar leads to it, and to a queue of one's own.
	open(t, ctx, base, "/?practice=L4")
	waitFor(t, ctx, `!document.querySelector('#practice').hidden`)
	for sel, href := range map[string]string{"#practice-interview": "./?interview=new", "#practice-own": "rubric#your-own-queue"} {
		if got := eval[string](t, ctx, `(() => { const a = document.querySelector(`+strconv.Quote(sel)+`), r = a.getBoundingClientRect();
			return r.width > 0 && r.bottom <= innerHeight + scrollY && getComputedStyle(a).display !== "none" ? a.getAttribute("href") : "hidden" })()`); got != href {
			t.Errorf("the practice bar's %s: %q, want a visible link to %s", sel, got, href)
		}
	}
	click(t, ctx, "#practice-interview")
	// The link loads the page anew: wait for the new page, across the load.
	for deadline := time.Now().Add(15 * time.Second); ; {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.search.startsWith("?interview=") && document.body.dataset.ready === "1"`))
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the practice bar's Mock interview did not open one: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitFor(t, ctx, `!document.querySelector('#interview').hidden && document.querySelectorAll('#interview-sheet li[data-point]').length > 0`)
	visible := func(sel string) bool {
		return eval[bool](t, ctx, `(() => { const el = document.querySelector(`+strconv.Quote(sel)+`); if (!el) return false;
			const r = el.getBoundingClientRect(), s = getComputedStyle(el);
			return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0 })()`)
	}
	clock := eval[string](t, ctx, `document.querySelector('#interview-clock').textContent`)
	waitFor(t, ctx, `document.querySelector('#interview-clock').textContent !== `+strconv.Quote(clock)) // it ticks
	clock = eval[string](t, ctx, `document.querySelector('#interview-clock').textContent`)
	if !regexp.MustCompile(`^4[45]:\d\d left · L4 · one worker, 1[12]:\d\d left in it$`).MatchString(clock) {
		t.Errorf("the clock says %q", clock)
	}
	if got := eval[string](t, ctx, `document.querySelector('#interview-ask').textContent`); got != stages[0].Ask {
		t.Errorf("asked %q, want %q", got, stages[0].Ask)
	}
	for _, sel := range []string{"#interview-clock", "#interview-ask", "#interview-probes li", "#interview-sheet", `#interview-sheet button[data-point="count"][data-mark="h"]`, "#interview-candidate-link"} {
		if !visible(sel) {
			t.Errorf("the interviewer does not see %s", sel)
		}
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#interview-sheet li[data-point]').length`); n != 16 {
		t.Errorf("the sheet has %d points, want the rubric's 16", n)
	}
	if first := eval[string](t, ctx, `document.querySelector('#interview-sheet section').dataset.level`); first != "L4" {
		t.Errorf("the sheet begins with %s, want L4", first)
	}
	search := eval[string](t, ctx, `location.search`)
	if !regexp.MustCompile(`^\?interview=\d{13}&role=interviewer$`).MatchString(search) {
		t.Fatalf("the address is %q, want the interview's start", search)
	}
	start, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(search, "?interview="), "&role=interviewer"), 10, 64)
	if d := time.Since(time.UnixMilli(start)); d < 0 || d > time.Minute {
		t.Errorf("the interview began %v ago", d)
	}

	unpressed := eval[string](t, ctx, `getComputedStyle(document.querySelector('#interview-sheet button[data-point="count"][data-mark="h"]')).backgroundColor`)
	click(t, ctx, `#interview-sheet button[data-point="count"][data-mark="h"]`)
	waitFor(t, ctx, `document.querySelector('#interview-sheet button[data-point="count"][data-mark="h"]').getAttribute('aria-pressed') === "true"`)
	if bg := eval[string](t, ctx, `getComputedStyle(document.querySelector('#interview-sheet button[data-point="count"][data-mark="h"]')).backgroundColor`); bg != "rgb(230, 244, 234)" || bg == unpressed {
		t.Errorf("a point marked heard is drawn %s (unmarked: %s)", bg, unpressed)
	}
	click(t, ctx, `#interview-sheet button[data-point="fifo"][data-mark="n"]`)
	waitFor(t, ctx, `location.search.includes("&marks=count:h,fifo:n")`)
	click(t, ctx, "#interview-keep summary")
	summary := eval[string](t, ctx, `document.querySelector('#interview-summary').textContent`)
	for _, want := range []string{"Mock interview, ", "  heard    count: ", "  not      fifo: ", "Mid-level (L4): 1 heard, 0 partly, 1 not, 3 unmarked"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q:\n%s", want, summary)
		}
	}
	if !visible("#interview-summary") {
		t.Error("the summary, opened, is not shown")
	}

	// The candidate's view: the same clock and question, no sheet.
	cand := eval[string](t, ctx, `document.querySelector('#interview-candidate-link').href`)
	if want := base + "/?interview=" + strconv.FormatInt(start, 10) + "&role=candidate"; cand != want {
		t.Fatalf("the candidate's link is %s, want %s", cand, want)
	}
	open(t, ctx, cand, "")
	waitFor(t, ctx, `!document.querySelector('#interview').hidden && document.querySelector('#interview-clock').textContent.includes("L4")`)
	if got := eval[string](t, ctx, `document.querySelector('#interview-ask').textContent`); got != stages[0].Ask {
		t.Errorf("the candidate is asked %q", got)
	}
	for _, sel := range []string{"#interview-sheet", "#interview-probes", "#interview-links", "#interview-keep"} {
		if visible(sel) {
			t.Errorf("the candidate sees %s", sel)
		}
	}
	if got := eval[string](t, ctx, `document.querySelector('#interview-role').textContent`); got != "· candidate's view" {
		t.Errorf("the candidate's view says %q", got)
	}

	// The interviewer's address, reloaded, keeps the marks; twenty
	// minutes in, the interview is at L5.
	early := time.Now().Add(-20 * time.Minute).UnixMilli()
	open(t, ctx, base, "/?interview="+strconv.FormatInt(early, 10)+"&role=interviewer&marks=count:h,fifo:n")
	waitFor(t, ctx, `document.querySelectorAll('#interview-sheet li[data-point]').length === 16`)
	if got := eval[string](t, ctx, `document.querySelector('#interview-ask').textContent`); got != stages[1].Ask {
		t.Errorf("twenty minutes in, asked %q, want L5's", got)
	}
	if first := eval[string](t, ctx, `document.querySelector('#interview-sheet section.current').dataset.level + document.querySelector('#interview-sheet section').dataset.level`); first != "L5L5" {
		t.Errorf("twenty minutes in, the sheet's current and first levels are %s, want L5", first)
	}
	if !eval[bool](t, ctx, `document.querySelector('#interview-sheet button[data-point="count"][data-mark="h"]').getAttribute('aria-pressed') === "true"`) {
		t.Error("the marks of the address are not on the sheet")
	}
	if c := eval[string](t, ctx, `document.querySelector('#interview-clock').textContent`); !strings.HasPrefix(c, "25:") && !strings.HasPrefix(c, "24:") {
		t.Errorf("twenty minutes in, the clock says %q", c)
	}
}
