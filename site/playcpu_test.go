package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// BenchmarkPlayCPU says where the time of play at 16× goes: it plays 5 s
// as BenchmarkPlayground does, under Chromium's tracing, and reports the
// CPU time (thread time, which a loaded machine changes far less than
// the frames' wall time) of the page's threads per step shown: the main
// thread (cpu-ms-main/step) and within it the page's Go and its calls
// into JavaScript (cpu-ms-script/step), styling and layout
// (cpu-ms-style-layout/step) and painting (cpu-ms-paint/step); raster
// on the workers (cpu-ms-raster/step); and every thread of the browser
// (cpu-ms-all/step). It logs each busy thread's events by their own CPU
// time. Run it alone, once:
//
//	go test ./site -run '^$' -bench PlayCPU -benchtime 1x -v
func BenchmarkPlayCPU(b *testing.B) {
	tabTimeout = 10 * time.Minute
	for _, tt := range speedScenarios(b) {
		b.Run("scenario="+tt.name, func(b *testing.B) {
			ctx, base := playground(b)
			var m map[string]float64
			for b.Loop() {
				m = playCPU(b, ctx, base, tt.path, tt.release)
			}
			for k, v := range m {
				b.ReportMetric(v, k)
			}
		})
	}
}

// traceEvent is an event of Chromium's trace (its JSON trace format).
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`   // "X" for a complete event, "M" for metadata
	TS   float64         `json:"ts"`   // start, µs
	Dur  float64         `json:"dur"`  // wall time, µs
	TDur float64         `json:"tdur"` // thread time, µs
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// playCPU opens path, plays 5 s at 16× from wide-1000's release step or
// the middle, traced, and returns the CPU per step; see BenchmarkPlayCPU.
func playCPU(b *testing.B, ctx context.Context, base, path string, release int) map[string]float64 {
	b.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		b.Fatal(err)
	}
	n := evalB[int](b, ctx, `+document.querySelector('#step-slider').max`)
	from := n / 2
	if release > 0 {
		from = release - 1
	}
	evalB[bool](b, ctx, fmt.Sprintf(`(s => { s.value = "%d"; s.dispatchEvent(new Event('input')); return true })(document.querySelector('#step-slider'))`, from))
	time.Sleep(time.Second) // the page settles: the run-ahead, the address

	var mu sync.Mutex
	var evs []traceEvent
	done := make(chan struct{})
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				var t traceEvent
				if json.Unmarshal([]byte(v), &t) == nil {
					evs = append(evs, t)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	}); err != nil {
		b.Fatal(err)
	}
	cats := []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink", "cc", "viz", "__metadata", "toplevel"}
	if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: &tracing.TraceConfig{IncludedCategories: cats}}); err != nil {
		b.Fatal(err)
	}
	steps := evalB[float64](b, ctx, `new Promise(done => {
		const sel = document.querySelector('#speed');
		sel.value = '50'; sel.dispatchEvent(new Event('change'));
		const start = +document.body.dataset.step;
		document.querySelector('#play').click();
		setTimeout(() => { document.querySelector('#pause').click(); done(+document.body.dataset.step - start); }, 5000);
	})`)
	if _, err := chromedp.Call(ctx, tracing.End, cdp.Empty{}); err != nil {
		b.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		b.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	self, names := selfCPU(evs)
	per := func(ms float64) float64 { return ms / max(steps, 1) }
	m := map[string]float64{"steps": steps}
	var all, raster, mainCPU float64
	var log strings.Builder
	var threads []string
	for th := range self {
		threads = append(threads, th)
	}
	sort.Strings(threads)
	for _, th := range threads {
		total := 0.0
		for _, v := range self[th] {
			total += v
		}
		all += total
		raster += self[th]["DisplayItemList::Raster"] + self[th]["RasterTask"]
		if names[th] == "CrRendererMain" && total > mainCPU {
			// The page's renderer: the busiest, should there be others.
			mainCPU = total
			s := self[th]
			m["cpu-ms-main/step"] = per(total)
			m["cpu-ms-script/step"] = per(s["FunctionCall"] + s["v8.callFunction"] + s["TimerFire"] + s["FireAnimationFrame"])
			m["cpu-ms-style-layout/step"] = per(s["Document::recalcStyle"] + s["Document::updateStyle"] + s["Document::rebuildLayoutTree"] + s["UpdateLayoutTree"] +
				s["LocalFrameView::performLayout"] + s["Layout"] + s["ParseHTML"] + s["HTMLDocumentParser::HTMLDocumentParser"] + s["InlineNode::ShapeTextIncludingFirstLine"])
			m["cpu-ms-paint/step"] = per(s["Paint"] + s["PaintArtifactCompositor::Update"] + s["Blink.Paint.UpdateTime"] + s["Blink.PrePaint.UpdateTime"] + s["Blink.CompositingInputs.UpdateTime"])
		}
		if total < 0.02*5000 {
			continue // a thread idle in all but 2% of the 5 s
		}
		fmt.Fprintf(&log, "%s: %.0f ms of CPU\n", names[th], total)
		var ns []string
		for n := range self[th] {
			ns = append(ns, n)
		}
		sort.Slice(ns, func(i, j int) bool { return self[th][ns[i]] > self[th][ns[j]] })
		for _, n := range ns[:min(len(ns), 12)] {
			fmt.Fprintf(&log, "    %-44s %6.0f ms\n", n, self[th][n])
		}
	}
	m["cpu-ms-raster/step"], m["cpu-ms-all/step"] = per(raster), per(all)
	b.Logf("%v steps in 5 s; CPU by thread and event (each event's own, its callees' taken off):\n%s", steps, log.String())
	return m
}

// selfCPU returns, for each thread, the CPU time of the trace's complete
// events by name, each without the events nested in it (its own), in ms;
// and the threads' names.
func selfCPU(evs []traceEvent) (self map[string]map[string]float64, names map[string]string) {
	key := func(e traceEvent) string { return fmt.Sprint(e.Pid, "/", e.Tid) }
	names = map[string]string{}
	byThread := map[string][]traceEvent{}
	for _, e := range evs {
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				var a struct {
					Name string `json:"name"`
				}
				if json.Unmarshal(e.Args, &a) == nil {
					names[key(e)] = a.Name
				}
			}
		case "X":
			byThread[key(e)] = append(byThread[key(e)], e)
		}
	}
	self = map[string]map[string]float64{}
	for th, es := range byThread {
		sort.Slice(es, func(i, j int) bool {
			if es[i].TS != es[j].TS {
				return es[i].TS < es[j].TS
			}
			return es[i].Dur > es[j].Dur
		})
		own := make([]float64, len(es))
		var open []int // the events that hold the one at hand, outermost first
		for i, e := range es {
			for len(open) > 0 && es[open[len(open)-1]].TS+es[open[len(open)-1]].Dur <= e.TS {
				open = open[:len(open)-1]
			}
			own[i] = e.TDur
			if len(open) > 0 {
				own[open[len(open)-1]] -= e.TDur
			}
			open = append(open, i)
		}
		self[th] = map[string]float64{}
		for i, e := range es {
			self[th][e.Name] += own[i] / 1000
		}
	}
	return self, names
}
