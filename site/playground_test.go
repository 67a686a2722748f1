package site_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dagq/dagq/core/scenario"
)

// stepAfter returns the step (1-based count of commands run) right after
// the n-th command of a library scenario that matches.
func stepAfter(t *testing.T, name string, n int, match func(scenario.Command) bool) int {
	t.Helper()
	e, ok := scenario.Lookup(name)
	if !ok {
		t.Fatalf("no library scenario %q", name)
	}
	s, err := scenario.Parse(e.Text)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range s.Commands {
		if match(c) {
			if n--; n == 0 {
				return i + 1
			}
		}
	}
	t.Fatalf("%s has no such command", name)
	return 0
}

func TestPlaygroundDrawsALibraryScenario(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive")
	got := states(t, ctx)
	if len(got) != 4 {
		t.Fatalf("drawn tasks %v, want a, b, c, d", got)
	}
	if v := eval[string](t, ctx, `document.querySelector('#scenario-picker').value`); v != "diamond-redrive" {
		t.Errorf("picker shows %q", v)
	}
	if v := eval[string](t, ctx, `document.querySelector('#editor').value`); !strings.Contains(v, "submit d b c") {
		t.Errorf("editor holds %q, want the scenario's text", v)
	}
	// Every state is told by a label or icon too, not by colour alone.
	labels := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#graph g[data-task]'), g => g.textContent)`)
	for i, l := range labels {
		if !strings.ContainsAny(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ…●▶✓✗⛔") {
			t.Errorf("task %d shows %q: no state label or icon", i, l)
		}
	}
}

func TestTrickyCycleShowsTheRejection(t *testing.T) {
	ctx, base := playground(t)
	step := stepAfter(t, "tricky-cycle", 1, func(c scenario.Command) bool {
		return c.Op == scenario.OpSubmit && c.Task == "c"
	})
	open(t, ctx, base, fmt.Sprintf("/?scenario=tricky-cycle&step=%d", step))
	waitFor(t, ctx, `document.querySelector('#event-log').textContent.includes('cycle: c -> a -> b -> c')`)
	got := states(t, ctx)
	if got["a"] != "PENDING" || got["b"] != "PENDING" {
		t.Errorf("after the refused submit: %v, want a and b PENDING", got)
	}
	if s, ok := got["c"]; ok && s != "" {
		t.Errorf("the refused c is drawn as %s, want no state", s)
	}
}

func TestDiamondDiesAndIsRedriven(t *testing.T) {
	ctx, base := playground(t)
	isFail := func(c scenario.Command) bool { return c.Op == scenario.OpFail }
	death := stepAfter(t, "diamond-redrive", 3, isFail)
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", death))
	waitFor(t, ctx, fmt.Sprintf(`document.body.dataset.step === "%d"`, death))
	want := map[string]string{"a": "DEAD", "b": "BLOCKED", "c": "BLOCKED", "d": "BLOCKED"}
	waitForStates(t, ctx, want)
	dlq := eval[[][]string](t, ctx, `Array.from(document.querySelectorAll('#dlq li[data-task]'),
		li => [li.dataset.task, li.dataset.reason, li.dataset.blocks || ""])`)
	wantDLQ := [][]string{{"a", "failed after 3 attempts: connection reset", "3"},
		{"b", "blocked by a", ""}, {"c", "blocked by a", ""}, {"d", "blocked by a", ""}}
	if fmt.Sprint(dlq) != fmt.Sprint(wantDLQ) && !sameDLQ(dlq, wantDLQ) {
		t.Errorf("DLQ shows %v, want %v", dlq, wantDLQ)
	}

	// Step on to the redrive with the timeline's button.
	redrive := stepAfter(t, "diamond-redrive", 1, func(c scenario.Command) bool { return c.Op == scenario.OpRedrive })
	for s := death; s < redrive; s++ {
		click(t, ctx, "#step-forward")
	}
	waitFor(t, ctx, fmt.Sprintf(`document.body.dataset.step === "%d"`, redrive))
	waitForStates(t, ctx, map[string]string{"a": "READY", "b": "PENDING", "c": "PENDING", "d": "PENDING"})
	if n := eval[int](t, ctx, `document.querySelectorAll('#dlq li[data-task]').length`); n != 0 {
		t.Errorf("DLQ has %d entries after the redrive, want none", n)
	}

	// End runs the rest: the whole diamond succeeds.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	waitForStates(t, ctx, map[string]string{"a": "SUCCEEDED", "b": "SUCCEEDED", "c": "SUCCEEDED", "d": "SUCCEEDED"})
}

// sameDLQ compares DLQ rows, taking the blocked count of a blocked entry as
// optional.
func sameDLQ(got, want [][]string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i][0] != want[i][0] || got[i][1] != want[i][1] || (want[i][2] != "" && got[i][2] != want[i][2]) {
			return false
		}
	}
	return true
}

// waitForStates waits until the drawing shows exactly these states (the
// animation may still be running when the step changes).
func waitForStates(t *testing.T, ctx context.Context, want map[string]string) {
	t.Helper()
	var cond []string
	for task, s := range want {
		cond = append(cond, fmt.Sprintf(`(document.querySelector('#graph g[data-task=%q]')||{dataset:{}}).dataset.state === %q`, task, s))
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](strings.Join(cond, " && "), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("states %v, want %v: %v", states(t, ctx), want, err)
	}
}

func TestClickingActsAndExtendsTheScript(t *testing.T) {
	ctx, base := playground(t)
	script := "submit a\nsubmit b a\n"
	open(t, ctx, base, "/#script="+base64.RawURLEncoding.EncodeToString([]byte(script))+"&step=end")
	waitForStates(t, ctx, map[string]string{"a": "READY", "b": "PENDING"})

	click(t, ctx, `#graph g[data-task="a"]`) // the front of the READY line: hand it out
	waitForStates(t, ctx, map[string]string{"a": "RUNNING"})
	click(t, ctx, `#graph g[data-task="a"]`) // RUNNING: offers complete or fail
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll('button'))
		.find(b => b.offsetParent !== null && /complete/i.test(b.textContent)).click()`)); err != nil {
		t.Fatalf("no visible complete button: %v", err)
	}
	waitForStates(t, ctx, map[string]string{"a": "SUCCEEDED", "b": "READY"})

	// A typed command is appended the same way.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#command"), "next\n")); err != nil {
		t.Fatal(err)
	}
	waitForStates(t, ctx, map[string]string{"b": "RUNNING"})

	text := eval[string](t, ctx, `document.querySelector('#editor').value`)
	var cmds []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			cmds = append(cmds, line)
		}
	}
	want := []string{"submit a", "submit b a", "next", "complete a", "next"}
	if strings.Join(cmds, "|") != strings.Join(want, "|") {
		t.Errorf("the script reads %q, want the exact record %q", cmds, want)
	}
}

func TestShareLinkRoundTrips(t *testing.T) {
	ctx, base := playground(t)
	death := stepAfter(t, "diamond-redrive", 3, func(c scenario.Command) bool { return c.Op == scenario.OpFail })
	open(t, ctx, base, fmt.Sprintf("/?scenario=diamond-redrive&step=%d", death))
	click(t, ctx, "#share")
	waitFor(t, ctx, `document.querySelector('#share-link').value !== ""`)
	link := eval[string](t, ctx, `document.querySelector('#share-link').value`)
	snippet := eval[string](t, ctx, `document.querySelector('#embed-snippet').value || document.querySelector('#embed-snippet').textContent`)
	if !strings.Contains(snippet, "<iframe") || !strings.Contains(snippet, "embed=1") {
		t.Errorf("embed snippet %q, want an iframe with embed=1", snippet)
	}
	editor := eval[string](t, ctx, `document.querySelector('#editor').value`)
	before := states(t, ctx)

	ctx2, _ := playground(t)
	if !strings.HasPrefix(link, base) {
		t.Fatalf("share link %q is not on %s", link, base)
	}
	open(t, ctx2, base, strings.TrimPrefix(link, base))
	waitFor(t, ctx2, fmt.Sprintf(`document.body.dataset.step === "%d"`, death))
	if got := eval[string](t, ctx2, `document.querySelector('#editor').value`); got != editor {
		t.Errorf("shared script %q, want %q", got, editor)
	}
	waitForStates(t, ctx2, before)
}

func TestEmbedShowsOnlyTheDrawingAndTimeline(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&embed=1&step=end")
	visible := func(sel string) bool {
		return eval[bool](t, ctx, fmt.Sprintf(`(e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')(document.querySelector(%q))`, sel))
	}
	for _, sel := range []string{"#graph", "#step-forward", "#play"} {
		if !visible(sel) {
			t.Errorf("%s is hidden in embed mode", sel)
		}
	}
	for _, sel := range []string{"#editor", "#scenario-picker", "#event-log", "#share"} {
		if visible(sel) {
			t.Errorf("%s shows in embed mode", sel)
		}
	}
}

func TestSyntaxErrorIsShownAtItsLineAndColumn(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=end")
	before := states(t, ctx)
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#editor"), "submit a\nsumbit b a\n"),
		chromedp.Click(chromedp.CSS("#run")),
	); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#editor-error').textContent.includes('2:1')`)
	msg := eval[string](t, ctx, `document.querySelector('#editor-error').textContent`)
	if !strings.Contains(msg, "sumbit") {
		t.Errorf("error %q does not name the bad word", msg)
	}
	if got := states(t, ctx); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("a script with a syntax error changed the drawing: %v, was %v", got, before)
	}
}

// TestWasmSizeBudget holds what a browser downloads of main.wasm, asking
// for it as Chromium does (Accept-Encoding: gzip, deflate, br, zstd), to
// 1.35 MB (a size, not a time): the brotli body that wq serve answers with,
// built by make wasm at brotli's best quality. A client without brotli
// gets gzip's, about a third larger, and is told it.
func TestWasmSizeBudget(t *testing.T) {
	ctx, base := playground(t) // builds site/static/main.wasm and serves it
	wasm, err := os.ReadFile("static/main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	for _, accept := range []string{"gzip, deflate, br, zstd", "gzip, deflate"} {
		req, _ := http.NewRequest(http.MethodGet, base+"/main.wasm", nil)
		req.Header.Set("Accept-Encoding", accept) // set by hand: the body stays as it came
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		coding := resp.Header.Get("Content-Encoding")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /main.wasm accepting %q: %s", accept, resp.Status)
		}
		var plain io.Reader = bytes.NewReader(body)
		switch coding {
		case "br":
			plain = brotli.NewReader(plain)
		case "gzip":
			if plain, err = gzip.NewReader(plain); err != nil {
				t.Fatal(err)
			}
		}
		got, err := io.ReadAll(plain)
		if err != nil || !bytes.Equal(got, wasm) {
			t.Fatalf("GET /main.wasm accepting %q: the %q body does not decode to site/static/main.wasm (%v)", accept, coding, err)
		}
		sizes[coding] = len(body)
	}
	t.Logf("main.wasm: %d bytes, %d with gzip, %d with brotli", len(wasm), sizes["gzip"], sizes["br"])
	if sizes["br"] == 0 || sizes["gzip"] == 0 {
		t.Fatalf("main.wasm was not answered with brotli and with gzip: %v", sizes)
	}
	const budget = 1_350_000
	if sizes["br"] > budget {
		t.Errorf("a browser downloads %d bytes of main.wasm (brotli), over the budget of %d", sizes["br"], budget)
	}
	// Chromium itself, loading the page.
	open(t, ctx, base, "/")
	got := eval[int](t, ctx, `performance.getEntriesByType("resource").filter(e => e.name.endsWith("/main.wasm"))
		.reduce((n, e) => Math.max(n, e.encodedBodySize), 0)`)
	t.Logf("Chromium downloaded %d bytes of main.wasm", got)
	if got != sizes["br"] {
		t.Errorf("Chromium downloaded %d bytes of main.wasm, not the %d of its brotli body", got, sizes["br"])
	}
}

// BenchmarkFirstDraw measures the time from navigation to the first drawn
// scenario, reloading one tab (the browser may cache main.wasm, as it would
// for a returning visitor). Run: go test ./site -run '^$' -bench FirstDraw
func BenchmarkFirstDraw(b *testing.B) {
	ctx, base := playground(b)
	var total time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?scenario=diamond-redrive")); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`)); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		n++
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(n), "ms-to-draw")
}

// TestStrategyViewHighlightsWhatTheCheckVisited: on the refused submit of
// the tricky cycle, the textbook dfs reaches a and b; the page highlights
// them and shows the count.
func TestStrategyViewHighlightsWhatTheCheckVisited(t *testing.T) {
	ctx, base := playground(t)
	step := stepAfter(t, "tricky-cycle", 1, func(c scenario.Command) bool {
		return c.Op == scenario.OpSubmit && c.Task == "c"
	})
	open(t, ctx, base, fmt.Sprintf("/?scenario=tricky-cycle&strategy=dfs&step=%d", step))
	waitFor(t, ctx, `document.querySelector('#graph g[data-task="a"]').classList.contains('visited')`)
	if !eval[bool](t, ctx, `document.querySelector('#graph g[data-task="b"]').classList.contains('visited')`) {
		t.Error("b, on the cycle dfs walked, is not highlighted")
	}
	if got := eval[string](t, ctx, `document.querySelector('#visits').textContent.trim()`); got == "" || got == "—" {
		t.Errorf("#visits shows %q, want the count", got)
	}
}

// BenchmarkStepping300 plays a 300-task scenario (a random DAG, each task
// waiting on up to three earlier ones, then every task run) at the fastest
// speed and reports the frame rate the page keeps while it animates: the
// median frame time as fps, and the share of frames over 1/60 s.
// Run: go test ./site -run '^$' -bench Stepping300 -benchtime 1x
func BenchmarkStepping300(b *testing.B) {
	ctx, base := playground(b)
	var script strings.Builder
	rng := uint64(7)
	next := func(n int) int { rng = rng*6364136223846793005 + 1442695040888963407; return int(rng>>33) % n }
	for i := range 300 {
		fmt.Fprintf(&script, "submit t%d", i)
		for range min(i, 3) {
			fmt.Fprintf(&script, " t%d", next(i))
		}
		script.WriteString("\n")
	}
	for range 300 {
		script.WriteString("next\n")
	}
	open(b, ctx, base, "/#script="+base64.RawURLEncoding.EncodeToString([]byte(script.String()))+"&step=250")
	var fps, slow float64
	for b.Loop() {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`new Promise(done => {
			const sel = document.querySelector('#speed');
			sel.value = '50'; sel.dispatchEvent(new Event('change'));
			document.querySelector('#play').click();
			const t = [];
			const tick = now => { t.push(now); if (t.length < 241) requestAnimationFrame(tick); else {
				document.querySelector('#pause').click();
				const d = t.slice(1).map((x, i) => x - t[i]).sort((a, b) => a - b);
				done([1000 / d[d.length >> 1], d.filter(x => x > 1000 / 60 + 2).length / d.length]);
			} };
			requestAnimationFrame(tick);
		})`, chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		fps, slow = got[0], got[1]
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(fps, "fps")
	b.ReportMetric(slow*100, "%slow-frames")
}
