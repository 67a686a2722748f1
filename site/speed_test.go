package site_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core/scenario"
	pg "github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/session"
)

// BenchmarkPlayground measures the playground on big graphs, against the
// goals of the README: the first drawing, a step forward and back, the
// step of wide-1000 that makes 1,000 shards READY (ms-release, its first
// frame; ms-release-wave-end, the end of the wave of changes it animates),
// and playing at 16×, beside the same page left idle for as long in the
// same run (%idle-frames-over-20ms): a loaded machine drops frames of an
// idle page too, and the difference is the playground's. Each op opens
// the page afresh. Run it alone, once:
//
//	go test ./site -run '^$' -bench Playground -benchtime 1x
func BenchmarkPlayground(b *testing.B) {
	tabTimeout = 10 * time.Minute
	for _, tt := range speedScenarios(b) {
		b.Run("scenario="+tt.name, func(b *testing.B) {
			ctx, base := playground(b)
			var m map[string]float64
			for b.Loop() {
				m = measure(b, ctx, base, tt.path, tt.release)
			}
			for _, k := range []string{"ms-first-draw", "ms-first-draw-again", "ms-forward", "ms-back", "ms-release", "ms-release-wave-end", "ms-handler", "ms-play-frame-p50", "%play-frames-over-20ms", "%idle-frames-over-20ms", "play-steps/5s"} {
				if v, ok := m[k]; ok {
					b.ReportMetric(v, k)
				}
			}
		})
	}
}

// measure opens path and times it; see BenchmarkPlayground.
func measure(b *testing.B, ctx context.Context, base, path string, release int) map[string]float64 {
	b.Helper()
	m := map[string]float64{}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		b.Fatal(err)
	}
	// firstDrawMs is performance.now() once the first drawing has been
	// painted: from the start of navigation. The first visit compiles
	// main.wasm afresh; a second one finds it in the browser's caches.
	m["ms-first-draw"] = evalB[float64](b, ctx, `+document.body.dataset.firstDrawMs`)
	for _, u := range []string{"about:blank", base + path} {
		if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
			b.Fatal(err)
		}
	}
	// The poll may start in the blank page's context, gone as the page
	// loads: it is tried again.
	var err error
	for range 5 {
		if _, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`, chromedp.WithPollingTimeout(60*time.Second))); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		b.Fatal(err)
	}
	m["ms-first-draw-again"] = evalB[float64](b, ctx, `+document.body.dataset.firstDrawMs`)

	// A step: the click's handler, then the frame that shows it.
	var handler []float64 // the Go handler's own time (renderMs) of each step timed
	timeStep := func(js string) float64 {
		got := evalB[[]float64](b, ctx, `new Promise(done => {
			const t0 = performance.now();
			`+js+`;
			requestAnimationFrame(() => setTimeout(() => done([performance.now() - t0, +document.body.dataset.renderMs]), 0));
		})`)
		handler = append(handler, got[1])
		return got[0]
	}
	seek := func(k int) {
		evalB[bool](b, ctx, fmt.Sprintf(`(s => { s.value = "%d"; s.dispatchEvent(new Event('input')); return true })(document.querySelector('#step-slider'))`, k))
	}
	n := evalB[int](b, ctx, `+document.querySelector('#step-slider').max`)
	var fwd, back []float64
	for i := range 10 {
		seek(n / 2)
		_ = i
		fwd = append(fwd, timeStep(`document.querySelector('#step-forward').click()`))
		back = append(back, timeStep(`document.querySelector('#step-back').click()`))
	}
	m["ms-forward"], m["ms-back"] = median(fwd), median(back)
	m["ms-handler"] = median(handler)
	b.Logf("first draw %.0f ms, again %.0f ms; forward %v; back %v; handler %v", m["ms-first-draw"], m["ms-first-draw-again"], fwd, back, handler)
	if release > 0 {
		var rel, wave []float64
		for range 5 {
			seek(release - 1)
			t0 := evalB[float64](b, ctx, `performance.now()`)
			rel = append(rel, timeStep(`document.querySelector('#step-forward').click()`))
			// The wave's end: the page notes it when the step's last
			// change is drawn.
			end := evalB[float64](b, ctx, fmt.Sprintf(`new Promise(done => { const t = () => +document.body.dataset.waveEndMs > %f ? done(+document.body.dataset.waveEndMs) : setTimeout(t, 10); t(); })`, t0))
			wave = append(wave, end-t0)
		}
		m["ms-release"], m["ms-release-wave-end"] = median(rel), median(wave)
		b.Logf("release: first frame %v, wave's end %v", rel, wave)
	}

	// The baseline: the page idle for 5 s, its frames timed as play's are.
	idle := evalB[float64](b, ctx, `new Promise(done => {
		const t = [];
		const tick = now => { t.push(now); if (now - t[0] < 5000) requestAnimationFrame(tick); else {
			const d = t.slice(1).map((x, i) => x - t[i]);
			done(d.filter(x => x > 20).length / d.length);
		} };
		requestAnimationFrame(tick);
	})`)
	m["%idle-frames-over-20ms"] = idle * 100

	// Play at 16× for 5 s from the middle (or from the release step).
	from := n / 2
	if release > 0 {
		from = release - 1
	}
	seek(from)
	got := evalB[[]float64](b, ctx, `new Promise(done => {
		const sel = document.querySelector('#speed');
		sel.value = '50'; sel.dispatchEvent(new Event('change'));
		const start = +document.body.dataset.step;
		document.querySelector('#play').click();
		const t = [];
		const tick = now => { t.push(now); if (now - t[0] < 5000) requestAnimationFrame(tick); else {
			document.querySelector('#pause').click();
			const d = t.slice(1).map((x, i) => x - t[i]).sort((a, b) => a - b);
			done([d[d.length >> 1], d.filter(x => x > 20).length / d.length, +document.body.dataset.step - start]);
		} };
		requestAnimationFrame(tick);
	})`)
	m["ms-play-frame-p50"], m["%play-frames-over-20ms"], m["play-steps/5s"] = got[0], got[1]*100, got[2]
	return m
}

func evalB[T any](b *testing.B, ctx context.Context, expr string) T {
	b.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("evaluate %.60s…: %v", expr, err)
	}
	return v
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// A speedScenario is a page the speed benchmarks play.
type speedScenario struct {
	name, path string
	release    int // the step that makes many tasks READY; 0 for none
}

// speedScenarios are the pages the speed benchmarks play: wide-1000, from
// the step that releases its 1,000 shards, and a random 5,000-task script.
func speedScenarios(b *testing.B) []speedScenario {
	return []speedScenario{
		{"wide-1000", "/?scenario=wide-1000", releaseStep(b, "wide-1000")},
		{"random-5000", "/" + (pg.Link{Script: randomScript(5000), HasScript: true}).Fragment(), 0},
	}
}

// releaseStep is the step after which a library scenario's first complete
// makes the most tasks READY: for wide-1000, download's.
func releaseStep(b *testing.B, name string) int {
	e, _ := scenario.Lookup(name)
	s, err := session.New(e.Text, scenario.Options{})
	if err != nil {
		b.Fatal(err)
	}
	best, at := 0, 0
	for k := 1; k <= s.Len(); k++ {
		if n := len(s.Step(k).Events); n > best {
			best, at = n, k
		}
	}
	return at
}

// randomScript submits n tasks, each waiting on up to three earlier ones
// (a fixed seed), then hands out and completes every one of them, in the
// order the READY line gives them.
func randomScript(n int) string {
	rng := rand.New(rand.NewPCG(5000, 1))
	var b strings.Builder
	waiting := make([]int, n)
	dependents := make([][]int, n)
	var ready []int
	for i := range n {
		fmt.Fprintf(&b, "submit t%d", i)
		seen := map[int]bool{}
		for range min(i, rng.IntN(4)) {
			d := rng.IntN(i)
			fmt.Fprintf(&b, " t%d", d)
			if !seen[d] {
				seen[d] = true
				waiting[i]++
				dependents[d] = append(dependents[d], i)
			}
		}
		b.WriteString("\n")
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		t := ready[0]
		ready = ready[1:]
		fmt.Fprintf(&b, "next\ncomplete t%d\n", t)
		for _, d := range dependents[t] {
			if waiting[d]--; waiting[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	return b.String()
}
