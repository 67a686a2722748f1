package site_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dagq/dagq/core/scenario"
	pg "github.com/dagq/dagq/internal/playground"
)

// Every control of the page, touched as a user would; each test also
// fails on a console error or a Go panic (see playground).

// stepShown returns the step the page shows.
func stepShown(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := strconv.Atoi(eval[string](t, ctx, `document.body.dataset.step`))
	if err != nil {
		t.Fatalf("body.dataset.step: %v", err)
	}
	return n
}

func waitStep(t *testing.T, ctx context.Context, k int) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`document.body.dataset.step === "%d"`, k))
}

// press sends a key to the focused element.
func press(t *testing.T, ctx context.Context, key string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key, opts...)); err != nil {
		t.Fatalf("key %q: %v", key, err)
	}
}

// choose picks an option of a select as a user does: the value changes and
// a change event fires; the select keeps the focus.
func choose(t *testing.T, ctx context.Context, sel, value string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(s => { s.focus(); s.value = %q;
		s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true})); })(document.querySelector(%q))`, value, sel))); err != nil {
		t.Fatalf("choose %s in %s: %v", value, sel, err)
	}
}

func shown(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return eval[bool](t, ctx, fmt.Sprintf(`(e => !!e && !e.closest('[hidden]') && e.getClientRects().length > 0)(document.querySelector(%q))`, sel))
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel))
}

func editorText(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, `document.querySelector('#editor').value`)
}

// scriptLink is the address of a script, as an old (uncompressed) link.
func scriptLink(script, rest string) string {
	l := "/#script=" + strings.TrimPrefix(pg.Link{Script: script, HasScript: true}.Fragment(), "#script=")
	if strings.Contains(l, "&enc=") {
		panic("scriptLink: keep test scripts short")
	}
	return l + rest
}

// deathStep is the step of diamond-redrive at which a is DEAD and b, c, d
// BLOCKED.
func deathStep(t *testing.T) int {
	return stepAfter(t, "diamond-redrive", 1, func(c scenario.Command) bool { return c.String() == "expect a DEAD" })
}

func libraryLen(t *testing.T, name string) int {
	e, _ := scenario.Lookup(name)
	s, err := scenario.Parse(e.Text)
	if err != nil {
		t.Fatal(err)
	}
	return len(s.Commands)
}

// TestTimelineSliderSeeksByClickDragAndKeys: the slider's value is a
// string; touching it once killed the Go program.
func TestTimelineSliderSeeksByClickDragAndKeys(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive")
	n := libraryLen(t, "diamond-redrive")

	click(t, ctx, "#step-slider")
	waitFor(t, ctx, `document.body.dataset.step !== "0"`)
	if got, v := stepShown(t, ctx), eval[string](t, ctx, `document.querySelector('#step-slider').value`); strconv.Itoa(got) != v {
		t.Errorf("a click on the slider shows step %d, the slider says %s", got, v)
	}

	r := eval[[]float64](t, ctx, `(r => [r.left, r.right, r.top + r.height / 2])(document.querySelector('#step-slider').getBoundingClientRect())`)
	left, right, y := r[0]+3, r[1]-2, r[2]
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MousePressed, left, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 8; i++ {
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, left+(right+10-left)*float64(i)/8, y, chromedp.ButtonLeft))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, right+10, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
	waitStep(t, ctx, n)

	// With the focus on the slider, the keys step the timeline.
	press(t, ctx, kb.ArrowLeft)
	waitStep(t, ctx, n-1)
	press(t, ctx, kb.Home)
	waitStep(t, ctx, 0)
	press(t, ctx, kb.ArrowRight)
	waitStep(t, ctx, 1)
	press(t, ctx, kb.End)
	waitStep(t, ctx, n)
	if v := eval[string](t, ctx, `document.querySelector('#step-slider').value`); v != strconv.Itoa(n) {
		t.Errorf("slider at %s after End, want %d", v, n)
	}
}

func TestTimelineButtonsAndKeys(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=two-roots")
	n := libraryLen(t, "two-roots")
	for _, tt := range []struct {
		sel  string
		want int
	}{{"#step-forward", 1}, {"#step-forward", 2}, {"#step-back", 1}, {"#step-last", n}, {"#step-first", 0}} {
		click(t, ctx, tt.sel)
		waitStep(t, ctx, tt.want)
	}
	if !eval[bool](t, ctx, `document.querySelector('#step-back').disabled && document.querySelector('#step-first').disabled`) {
		t.Error("back and first are enabled at step 0")
	}
	// Keys, with the focus on the page.
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	for _, tt := range []struct {
		key  string
		want int
	}{{kb.ArrowRight, 1}, {kb.ArrowRight, 2}, {kb.ArrowLeft, 1}, {kb.End, n}, {kb.Home, 0}} {
		press(t, ctx, tt.key)
		waitStep(t, ctx, tt.want)
	}
	// Play and pause, by button and by space.
	choose(t, ctx, "#speed", "50")
	click(t, ctx, "#play")
	waitFor(t, ctx, `document.body.dataset.step >= 3`)
	click(t, ctx, "#pause")
	at := stepShown(t, ctx)
	if !shown(t, ctx, "#play") || shown(t, ctx, "#pause") {
		t.Error("after pause, the play button is not back")
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	press(t, ctx, " ")
	waitFor(t, ctx, fmt.Sprintf(`document.body.dataset.step > %d`, at))
	press(t, ctx, " ")
	waitFor(t, ctx, `!document.querySelector('#play').hidden`)
	// Escape closes the share panel.
	click(t, ctx, "#share")
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	press(t, ctx, kb.Escape)
	waitFor(t, ctx, `document.querySelector('#share-panel').hidden`)
}

// TestArrowAfterChoosingASpeedSteps: the speed picker keeps the focus, and
// → once changed the speed instead of stepping.
func TestArrowAfterChoosingASpeedSteps(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=two-roots")
	choose(t, ctx, "#speed", "200")
	press(t, ctx, kb.ArrowRight)
	waitStep(t, ctx, 1)
	if v := eval[string](t, ctx, `document.querySelector('#speed').value`); v != "200" {
		t.Errorf("→ changed the speed to %s", v)
	}
	press(t, ctx, kb.ArrowLeft)
	waitStep(t, ctx, 0)
}

func TestStrategyAndScenarioPickers(t *testing.T) {
	ctx, base := playground(t)
	step := stepAfter(t, "tricky-cycle", 1, func(c scenario.Command) bool { return c.Op == scenario.OpSubmit && c.Task == "c" })
	open(t, ctx, base, fmt.Sprintf("/?scenario=tricky-cycle&step=%d", step))
	choose(t, ctx, "#strategy", "dfs")
	waitFor(t, ctx, `document.querySelector('#visits').dataset.strategy === "dfs"`)
	waitFor(t, ctx, `document.querySelector('#graph g[data-task="a"]').classList.contains('visited')`)
	// The address is written once the page pauses.
	waitFor(t, ctx, fmt.Sprintf(`location.search.includes("strategy=dfs") && location.search.includes("step=%d")`, step))
	choose(t, ctx, "#scenario-picker", "two-roots")
	waitFor(t, ctx, `location.search.startsWith("?scenario=two-roots&step=0")`)
	e, _ := scenario.Lookup("two-roots")
	if got := text(t, ctx, "#scenario-title"); got != e.Title {
		t.Errorf("title %q, want %q", got, e.Title)
	}
	if editorText(t, ctx) != e.Text {
		t.Error("the editor does not hold the chosen scenario")
	}
}

// TestClicksOnTasksInEveryState: what a click does, for every state.
func TestClicksOnTasksInEveryState(t *testing.T) {
	ctx, base := playground(t)
	script := "attempts 1\nsubmit g\nsubmit e\nsubmit a\nsubmit b\nsubmit c\nsubmit d a\nsubmit f e\nsubmit h zz\n" +
		"next\ncomplete g\nnext\nfail e boom\nnext\n"
	open(t, ctx, base, scriptLink(script, "&step=end"))
	waitForStates(t, ctx, map[string]string{"a": "RUNNING", "b": "READY", "c": "READY", "d": "PENDING",
		"e": "DEAD", "f": "BLOCKED", "g": "SUCCEEDED", "zz": ""})
	for _, tt := range []struct{ task, notice string }{
		{"c", "c is number 2 in line"},
		{"d", "d is PENDING: it waits on a."},
		{"f", "f is BLOCKED by e"},
		{"g", "g has SUCCEEDED"},
		{"zz", "zz has not been submitted"},
	} {
		// What the click says is in the task's detail, not over the page.
		click(t, ctx, fmt.Sprintf(`#graph g[data-task=%q]`, tt.task))
		waitFor(t, ctx, fmt.Sprintf(`!document.querySelector('#task-panel').hidden && document.querySelector('#task-panel .detail-note').textContent.includes(%q)`, tt.notice))
	}
	n := stepShown(t, ctx)

	// RUNNING: fail it with an error text.
	click(t, ctx, `#graph g[data-task="a"]`)
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#pop-error"), "time out\n")); err != nil {
		t.Fatal(err)
	}
	waitForStates(t, ctx, map[string]string{"a": "DEAD", "d": "BLOCKED"})
	// DEAD: redrive it from its popover.
	click(t, ctx, `#graph g[data-task="e"]`)
	waitFor(t, ctx, `!document.querySelector('#popover').hidden && document.querySelector('#popover').textContent.includes('boom')`)
	click(t, ctx, `#popover button[data-action="redrive"]`)
	waitForStates(t, ctx, map[string]string{"e": "READY", "f": "PENDING"})
	// The front READY task, from the READY line.
	click(t, ctx, `#ready-line li.front`)
	waitForStates(t, ctx, map[string]string{"b": "RUNNING"})
	// RUNNING: complete it.
	click(t, ctx, `#graph g[data-task="b"]`)
	click(t, ctx, `#popover button[data-action="complete"]`)
	waitForStates(t, ctx, map[string]string{"b": "SUCCEEDED"})
	waitStep(t, ctx, n+4)
	if got := editorText(t, ctx); !strings.HasSuffix(got, "fail a time out\nredrive e\nnext\ncomplete b\n") {
		t.Errorf("the script ends %q", got[max(0, len(got)-60):])
	}
}

// TestDLQRedriveAtAnEarlierStepBranches: at the death of a, Redrive acts
// there, dropping the later commands; Undo brings them back.
func TestDLQRedriveAtAnEarlierStepBranches(t *testing.T) {
	ctx, base := playground(t)
	death, n := deathStep(t), libraryLen(t, "diamond-redrive")
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", death))
	full := editorText(t, ctx)
	click(t, ctx, `#dlq button[data-action="redrive"]`)
	waitStep(t, ctx, death+1)
	waitForStates(t, ctx, map[string]string{"a": "READY", "b": "PENDING", "c": "PENDING", "d": "PENDING"})
	if got := text(t, ctx, "#step-label"); got != fmt.Sprintf("step %d / %d", death+1, death+1) {
		t.Errorf("timeline %q: the later commands were not dropped", got)
	}
	if !strings.HasSuffix(editorText(t, ctx), "\nexpect a DEAD\nredrive a\n") {
		t.Errorf("the script does not end with the one redrive: %q", editorText(t, ctx))
	}
	if got := text(t, ctx, "#notice"); !strings.Contains(got, "dropped") || !strings.Contains(got, "Undo") {
		t.Errorf("notice %q", got)
	}
	click(t, ctx, "#undo")
	waitStep(t, ctx, death)
	if got := text(t, ctx, "#step-label"); got != fmt.Sprintf("step %d / %d", death, n) {
		t.Errorf("after Undo the timeline says %q", got)
	}
	if editorText(t, ctx) != full {
		t.Error("Undo did not bring the script back")
	}
	waitForStates(t, ctx, map[string]string{"a": "DEAD", "b": "BLOCKED"})
}

func TestCommandBox(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\nsubmit b a\n", "&step=end"))
	typeCommand := func(cmd string) {
		t.Helper()
		chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#command').value = ''`))
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#command"), cmd+"\n")); err != nil {
			t.Fatal(err)
		}
	}
	typeCommand("sumbit x")
	waitFor(t, ctx, `!document.querySelector('#command-error').hidden`)
	if got := text(t, ctx, "#command-error"); !strings.Contains(got, "sumbit") {
		t.Errorf("command error %q", got)
	}
	typeCommand("expect a DEAD")
	waitFor(t, ctx, `document.querySelector('#command-error').textContent.includes('it is READY (not added)')`)
	if stepShown(t, ctx) != 2 {
		t.Error("a command not taken moved the timeline")
	}

	// A refused command is recorded, said, and can be undone, by the
	// button or by Ctrl+Z.
	typeCommand("complete b")
	waitStep(t, ctx, 3)
	waitFor(t, ctx, `document.querySelector('#notice').textContent.includes('refused')`)
	if !strings.HasSuffix(editorText(t, ctx), "complete b\n") {
		t.Errorf("the refused command is not in the script: %q", editorText(t, ctx))
	}
	click(t, ctx, "#undo")
	waitStep(t, ctx, 2)
	if got := editorText(t, ctx); got != "submit a\nsubmit b a\n" {
		t.Errorf("after Undo the script is %q", got)
	}
	typeCommand("complete b")
	waitStep(t, ctx, 3)
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	press(t, ctx, "z", chromedp.KeyModifiers(kb.ModifierCtrl))
	waitStep(t, ctx, 2)
	typeCommand("next")
	waitForStates(t, ctx, map[string]string{"a": "RUNNING"})
}

// TestABadLinkParameterIsReportedAndTheRestKept: one bad parameter once
// threw the whole shared script away.
func TestABadLinkParameterIsReportedAndTheRestKept(t *testing.T) {
	ctx, base := playground(t)
	script := "submit a\nsubmit b a\nnext\n"
	open(t, ctx, base, scriptLink(script, "&step=last"))
	waitStep(t, ctx, 3)
	if editorText(t, ctx) != script {
		t.Errorf("step=last: the editor holds %q", editorText(t, ctx))
	}

	open(t, ctx, base, "/?scenario=two-roots&strategy=DFS&step=2")
	waitStep(t, ctx, 2)
	if got := eval[string](t, ctx, `document.querySelector('#scenario-picker').value + " " + document.querySelector('#strategy').value`); got != "two-roots dfs" {
		t.Errorf("strategy=DFS: shows %q", got)
	}

	open(t, ctx, base, "/?scenario=two-roots&step=abc")
	if got := eval[string](t, ctx, `document.querySelector('#scenario-picker').value`); got != "two-roots" {
		t.Errorf("step=abc: shows %q", got)
	}
	waitFor(t, ctx, `!document.querySelector('#notice').hidden`)
	if got := text(t, ctx, "#notice"); !strings.Contains(got, "step") || !strings.Contains(got, "left out") {
		t.Errorf("notice %q does not report the step", got)
	}
	// It stays while the user looks around, and can be closed.
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 1)
	if !shown(t, ctx, "#notice") {
		t.Error("the report of the bad link went at the first step")
	}
	click(t, ctx, "#notice-close")
	waitFor(t, ctx, `document.querySelector('#notice').hidden`)
}

// TestShareLinksAScenarioByNameAndAScriptCompressed.
func TestShareLinksAScenarioByNameAndAScriptCompressed(t *testing.T) {
	ctx, base := playground(t)
	death := deathStep(t)
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", death))
	click(t, ctx, "#share")
	waitFor(t, ctx, `document.querySelector('#share-link').value !== ""`)
	if got, want := eval[string](t, ctx, `document.querySelector('#share-link').value`), fmt.Sprintf("%s/?scenario=diamond-redrive&step=%d", base, death); got != want {
		t.Errorf("share link %q, want %q", got, want)
	}
	click(t, ctx, "#share-close")

	// Changed, it links by its script, deflated.
	click(t, ctx, `#dlq button[data-action="redrive"]`)
	waitStep(t, ctx, death+1)
	click(t, ctx, "#share")
	waitFor(t, ctx, `document.querySelector('#share-link').value.includes('#script=')`)
	link := eval[string](t, ctx, `document.querySelector('#share-link').value`)
	if !strings.Contains(link, "&enc=deflate") {
		t.Errorf("the link of a long script is not compressed: %s", link)
	}
	if embed := eval[string](t, ctx, `document.querySelector('#embed-snippet').value`); !strings.Contains(embed, "embed=1") {
		t.Errorf("embed snippet %q", embed)
	}
	script := editorText(t, ctx)
	ctx2, _ := playground(t)
	open(t, ctx2, base, strings.TrimPrefix(link, base))
	waitStep(t, ctx2, death+1)
	if editorText(t, ctx2) != script {
		t.Error("the shared link does not open the same script")
	}
}

// TestAddressFollowsStepStrategyAndScript: a reload shows the same place.
func TestAddressFollowsStepStrategyAndScript(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=two-roots")
	click(t, ctx, "#step-forward")
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 2)
	choose(t, ctx, "#strategy", "pk")
	waitFor(t, ctx, `location.search === "?scenario=two-roots&step=2&strategy=pk"`)
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.body.dataset.ready === "1"`)
	waitStep(t, ctx, 2)
	if got := eval[string](t, ctx, `document.querySelector('#strategy').value`); got != "pk" {
		t.Errorf("after a reload the strategy is %s", got)
	}
	// Acting makes the script one's own: the address carries it.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#command"), "submit zz\n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `location.hash.startsWith("#script=") && location.hash.includes("step=3")`)
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.body.dataset.ready === "1"`)
	waitStep(t, ctx, 3)
	if !strings.HasSuffix(editorText(t, ctx), "submit zz\n") {
		t.Error("after a reload the script lost the command")
	}
}

// TestANoticeGoesAtTheNextAction: notices once lingered for 6 s over later
// actions. So does not what a click on a task says in its detail.
func TestANoticeGoesAtTheNextAction(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\nsubmit b a\n", "&step=end"))
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "nothing-like-it"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!document.querySelector('#notice').hidden`)
	click(t, ctx, "#step-back")
	waitStep(t, ctx, 1)
	if shown(t, ctx, "#notice") {
		t.Errorf("the notice %q stays after stepping", text(t, ctx, "#notice"))
	}
	click(t, ctx, `#graph g[data-task="b"]`) // not submitted at step 1: nothing to do
	waitFor(t, ctx, `document.querySelector('#task-panel .detail-note') !== null`)
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 2)
	if eval[bool](t, ctx, `document.querySelector('#task-panel .detail-note') !== null`) {
		t.Errorf("what the click said stays in the detail after stepping: %q", text(t, ctx, "#task-panel .detail-note"))
	}
}

func TestClickingALogLineSeeksToItsStep(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=end")
	click(t, ctx, `#event-log li[data-step="3"]`)
	waitStep(t, ctx, 3)
	if !eval[bool](t, ctx, `document.querySelector('#event-log li[data-step="3"]').classList.contains('current')`) {
		t.Error("the line of step 3 is not marked current")
	}
	// The log is listed afresh; the focus is on the line clicked, from
	// where the arrow keys go on, not on the page's body.
	if got := eval[string](t, ctx, focused); got != "LI 3" {
		t.Errorf("after the click the focus is on %q, want the line of step 3", got)
	}
}

// TestTasksAreFocusableAndActWithTheKeyboard: tasks have a tabindex, a
// role and a label; Enter and space act as a click.
func TestTasksAreFocusableAndActWithTheKeyboard(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, scriptLink("submit a\nsubmit b a\n", "&step=end"))
	bad := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#graph g[data-task]')).filter(g =>
		g.getAttribute('tabindex') !== '0' || g.getAttribute('role') !== 'button' || !(g.getAttribute('aria-label') || '').includes(g.dataset.task)).map(g => g.dataset.task)`)
	if len(bad) > 0 {
		t.Errorf("tasks without tabindex, role or label: %v", bad)
	}
	if got := eval[string](t, ctx, `document.querySelector('#graph g[data-task="a"]').getAttribute('aria-label')`); !strings.Contains(got, "READY") {
		t.Errorf("a's label %q does not say its state", got)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#graph g[data-task="a"]`))); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.Enter)
	waitForStates(t, ctx, map[string]string{"a": "RUNNING"})
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#graph g[data-task="a"]`))); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, " ")
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	if got := eval[string](t, ctx, `document.activeElement.dataset.action || ""`); got != "complete" {
		t.Errorf("the popover's first button does not have the focus (%q)", got)
	}
	press(t, ctx, kb.Enter)
	waitForStates(t, ctx, map[string]string{"a": "SUCCEEDED", "b": "READY"})
	// Escape closes a popover.
	click(t, ctx, `#graph g[data-task="b"]`)
	waitForStates(t, ctx, map[string]string{"b": "RUNNING"})
	click(t, ctx, `#graph g[data-task="b"]`)
	waitFor(t, ctx, `!document.querySelector('#popover').hidden`)
	press(t, ctx, kb.Escape)
	waitFor(t, ctx, `document.querySelector('#popover').hidden`)
}

// TestAPanicInAHandlerIsShownAndThePageKeepsWorking makes a handler panic
// on purpose, through a hook only a test can switch on.
func TestAPanicInAHandlerIsShownAndThePageKeepsWorking(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "window.dagqTestHooks = true"})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?scenario=two-roots")
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.dispatchEvent(new Event('dagq-test-panic'))`))
	waitFor(t, ctx, `!document.querySelector('#crash').hidden`)
	if got := text(t, ctx, "#crash-text"); !strings.Contains(got, onPurpose) || !strings.Contains(got, "report") {
		t.Errorf("crash report %q", got)
	}
	if got := text(t, ctx, "#crash-detail"); !strings.Contains(got, "goroutine") {
		t.Errorf("crash details %q hold no stack", got)
	}
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 1)
	click(t, ctx, "#crash-close")
	waitFor(t, ctx, `document.querySelector('#crash').hidden`)
}

// TestNarrowViewportDoesNotScrollSideways at 390 px, a phone's width.
func TestNarrowViewportDoesNotScrollSideways(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/?scenario=diamond-redrive&step=14", "/?scenario=wide-1000&step=40", "/?scenario=outage&step=530", "/?scenario=worker-crash&step=7"} {
		open(t, ctx, base, path)
		sideways := `document.documentElement.scrollWidth > document.documentElement.clientWidth`
		if eval[bool](t, ctx, sideways) {
			wide := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)`)
			t.Errorf("%s scrolls sideways at 390 px: %v", path, wide)
		}
		click(t, ctx, "#step-forward")
		if eval[bool](t, ctx, sideways) {
			t.Errorf("%s scrolls sideways at 390 px after a step", path)
		}
	}
}

// TestNarrowHeaderInPracticeHasNoEmptyRow: at 390 px, practising, the
// header held an empty row where the hidden Share button had wrapped.
func TestNarrowHeaderInPracticeHasNoEmptyRow(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?practice=L4&set=book&ex=1")
	got := eval[[]float64](t, ctx, `[document.querySelector('.top').getBoundingClientRect().bottom,
		Math.max(...Array.from(document.querySelectorAll('.top > *')).filter(e => getComputedStyle(e).visibility !== 'hidden' && e.getClientRects().length > 0).map(e => e.getBoundingClientRect().bottom))]`)
	if header, content := got[0], got[1]; header-content > 16 {
		t.Errorf("the header ends %v px below what it shows", header-content)
	}
	click(t, ctx, "#mode-watch")
	waitFor(t, ctx, `getComputedStyle(document.querySelector('#share')).display !== 'none'`)
}

// TestEmbeddedInA600x400Iframe: documentation embeds a scenario in a small
// frame; the drawing and the timeline fit and work.
func TestEmbeddedInA600x400Iframe(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.body.innerHTML =
		'<iframe id="f" src="/?scenario=diamond-redrive&embed=1&step=14" width="600" height="400" style="border:0"></iframe>'`))
	doc := `document.querySelector('#f').contentDocument`
	waitFor(t, ctx, `(d => !!d && !!d.body && d.body.dataset.ready === "1")(`+doc+`)`)
	got := eval[map[string]float64](t, ctx, `(d => {
		const r = s => d.querySelector(s).getBoundingClientRect();
		return {sideways: d.documentElement.scrollWidth - d.documentElement.clientWidth,
			graphW: r('#graph').width, forwardBottom: r('#step-forward').bottom, sliderW: r('#step-slider').width,
			editor: d.querySelector('#editor').getClientRects().length};
	})(`+doc+`)`)
	if got["sideways"] > 0 {
		t.Errorf("the embed scrolls sideways by %v px", got["sideways"])
	}
	if got["graphW"] < 100 || got["sliderW"] < 60 {
		t.Errorf("drawing %v px and slider %v px wide", got["graphW"], got["sliderW"])
	}
	if got["forwardBottom"] > 400 {
		t.Errorf("the timeline is below the frame (bottom at %v px)", got["forwardBottom"])
	}
	if got["editor"] != 0 {
		t.Error("the editor shows in the embed")
	}
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](doc+`.querySelector('#step-forward').click()`))
	waitFor(t, ctx, doc+`.body.dataset.step === "15"`)
	if href := eval[string](t, ctx, doc+`.querySelector('#open-full').href`); !strings.Contains(href, "step=15") || strings.Contains(href, "embed") {
		t.Errorf("open-full links %q", href)
	}
}

// TestAnEmbedFitsItsFrame: in a 600×400 frame, the drawing gives up room
// so that the rest fits: once, a script's clock, the link to the
// playground, and with the dead-letter queue beside the drawing the
// timeline's slider, were below the frame's bottom.
func TestAnEmbedFitsItsFrame(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/healthz")); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"/?scenario=diamond-redrive&embed=1&step=14",
		"/?scenario=worker-crash&embed=1&step=7",
		"/?scenario=outage&embed=1&panels=dlq,title&step=543",
	} {
		chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.body.innerHTML =
			'<iframe id="f" src="%s" width="600" height="400" style="border:0"></iframe>'`, src)))
		doc := `document.querySelector('#f').contentDocument`
		waitFor(t, ctx, `(d => !!d && !!d.body && d.body.dataset.ready === "1")(`+doc+`)`)
		got := eval[map[string]float64](t, ctx, `(d => {
			const out = {scroll: d.documentElement.scrollHeight - d.documentElement.clientHeight};
			for (const s of ['#stage', '#step-slider', '#step-forward', '#speed', '#time-row', '#open-full']) {
				const e = d.querySelector(s);
				if (e.getClientRects().length > 0) out[s] = e.getBoundingClientRect().bottom;
			}
			return out;
		})(`+doc+`)`)
		if got["scroll"] > 0 {
			t.Errorf("%s: the frame scrolls by %v px", src, got["scroll"])
		}
		for sel, bottom := range got {
			if sel != "scroll" && bottom > 400 {
				t.Errorf("%s: %s ends at %v px, below the frame", src, sel, bottom)
			}
		}
		if got["#stage"] < 150 {
			t.Errorf("%s: the drawing ends at %v px: too little of it is left", src, got["#stage"])
		}
		if strings.Contains(src, "worker-crash") {
			if _, ok := got["#time-row"]; !ok {
				t.Errorf("%s: the clock is not shown", src)
			}
		}
	}
}

// TestTabCrossesABigGraph: with every one of wide-1000's tasks in the Tab
// order, the timeline was a thousand presses of Tab past the find box.
func TestTabCrossesABigGraph(t *testing.T) {
	ctx, base := playground(t)
	release := stepAfter(t, "wide-1000", 1, func(c scenario.Command) bool { return c.String() == "complete download" })
	open(t, ctx, base, fmt.Sprintf("/?scenario=wide-1000&step=%d", release))
	stops := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#graph g[data-task][tabindex="0"]'), g => g.dataset.task)`)
	if len(stops) == 0 || len(stops) > pg.TabStopsMax {
		t.Errorf("%d tasks in the Tab order: %v", len(stops), stops)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#find"))); err != nil {
		t.Fatal(err)
	}
	var path []string
	for range 30 {
		press(t, ctx, kb.Tab)
		at := eval[string](t, ctx, `document.activeElement.id || document.activeElement.dataset.task || document.activeElement.tagName`)
		path = append(path, at)
		if at == "step-first" {
			break
		}
	}
	if path[len(path)-1] != "step-first" {
		t.Fatalf("30 presses of Tab from the find box went through %v, not to the timeline", path)
	}
	if !strings.Contains(strings.Join(path, " "), "download") {
		t.Errorf("Tab went %v: not through the task the step is about", path)
	}
	// Find still reaches a task out of the Tab order, and Enter acts on it.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#find"), "shard-0500"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.activeElement && document.activeElement.dataset.task === "shard-0500"`)
	press(t, ctx, kb.Enter)
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && document.querySelector('#task-panel .detail-note').textContent.includes('shard-0500')`)
}

// TestTheTimelineHoldsStill: nothing in the timeline moves when Play
// becomes Pause and back, or as the step's number gains digits: the step
// buttons stayed 5 px apart from where they were, and the slider, so
// that its thumb left the pointer that dragged it; nor when the caption
// grows, which is drawn under the timeline and the clock.
func TestTheTimelineHoldsStill(t *testing.T) {
	ctx, base := playground(t)
	boxes := `['#step-forward', '#step-last', '#step-slider', '#step-label', '#speed'].map(s => { const r = document.querySelector(s).getBoundingClientRect(); return [s, Math.round(r.left * 10) / 10, Math.round(r.width * 10) / 10].join(' '); })`
	open(t, ctx, base, "/?scenario=chain-200&step=5")
	before := eval[[]string](t, ctx, boxes)
	click(t, ctx, "#play")
	waitFor(t, ctx, `document.querySelector('#play').hidden`)
	playing := eval[[]string](t, ctx, boxes)
	click(t, ctx, "#pause")
	for i := range before {
		if playing[i] != before[i] {
			t.Errorf("Play became Pause: %s moved to %s", before[i], playing[i])
		}
	}
	open(t, ctx, base, "/?scenario=chain-200&step=500")
	for i, now := range eval[[]string](t, ctx, boxes) {
		if now != before[i] {
			t.Errorf("at step 500 against step 5: %s is %s", before[i], now)
		}
	}

	// A caption of one line, then of three or more: the timeline and the
	// clock's buttons stay under the pointer, the caption below them.
	const tops = `['#step-forward', '#advance'].map(s => Math.round(document.querySelector(s).getBoundingClientRect().top))`
	open(t, ctx, base, "/?scenario=outage&step=560")
	short := eval[[]int](t, ctx, tops)
	click(t, ctx, "#step-forward")
	waitStep(t, ctx, 561)
	if h := eval[float64](t, ctx, `document.querySelector('#caption').getBoundingClientRect().height`); h < 60 {
		t.Fatalf("step 561's caption is %.0f px tall: the test needs one of three lines or more", h)
	}
	if long := eval[[]int](t, ctx, tops); fmt.Sprint(long) != fmt.Sprint(short) {
		t.Errorf("the caption grew: → and the clock's buttons moved from y = %v to %v", short, long)
	}
}

// TestTheTimelineFitsItsPanel: at every width the timeline's controls lie
// inside it, and it inside its panel. Between 770 and 870 px the speed
// picker and the step label stuck out into the side panel.
func TestTheTimelineFitsItsPanel(t *testing.T) {
	ctx, base := playground(t)
	for _, w := range []int64{390, 770, 820, 870, 1024, 1280} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
			t.Fatal(err)
		}
		open(t, ctx, base, "/?scenario=outage&step=500")
		out := eval[[]string](t, ctx, `(() => {
			const tl = document.querySelector('.timeline'), r = tl.getBoundingClientRect(), p = tl.parentElement.getBoundingClientRect();
			const out = [];
			// One row where the stage is wide (a desktop's, beside the side panel).
			const mids = [...tl.children].map(e => e.getBoundingClientRect()).filter(e => e.height).map(e => e.top + e.height / 2);
			if (innerWidth >= 1024 && Math.max(...mids) - Math.min(...mids) > 12) out.push('the timeline takes more than a row: its controls centred at y = ' + mids.map(Math.round));
			if (r.left < p.left - 0.5 || r.right > p.right + 0.5) out.push('the timeline ' + [r.left, r.right] + ' in its panel ' + [p.left, p.right]);
			for (const el of tl.querySelectorAll('button:not([hidden]), input, select, .step-label')) {
				const e = el.getBoundingClientRect();
				if (e.width && (e.left < r.left - 0.5 || e.right > r.right + 0.5)) out.push((el.id || el.className) + ' ' + [e.left, e.right] + ' in the timeline ' + [r.left, r.right]);
			}
			return out;
		})()`)
		for _, o := range out {
			t.Errorf("%d px wide: %s", w, o)
		}
	}
}

// TestALiveLinkThatCannotBeReadSaysSo: ?live= names a DAG this server
// cannot show (it runs without --db): the page said "Loading…" under
// its loading overlay for ever. It says what went wrong instead.
func TestALiveLinkThatCannotBeReadSaysSo(t *testing.T) {
	ctx, base := playground(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?live=nope")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!document.querySelector('#notice').hidden`)
	if got := text(t, ctx, "#notice-text"); !strings.Contains(got, "Could not read the live DAG nope") || !strings.Contains(got, "--db") {
		t.Errorf("the notice says %q", got)
	}
	if eval[bool](t, ctx, `!document.querySelector('#boot').hidden`) {
		t.Error("the loading overlay stays")
	}
	if got := text(t, ctx, "#scenario-title"); got != "Live DAG nope not loaded" {
		t.Errorf("the title says %q", got)
	}
}
