package live_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// BenchmarkOpenBigDAG opens the live view of a DAG of n tasks (every task
// but the first hundred waiting on one of them; its tasks READY and
// PENDING) from a real Postgres in headless Chromium, and reports
// ms-first-draw: from the start of navigation until the first drawing is
// painted, the server's read of the DAG included; ms-state-read and
// ms-wasm-read, when the state's answer and main.wasm had arrived, in
// the same time. main.wasm is compiled
// once beforehand, on a small DAG, so that each op finds it in the
// browser's caches as a second visit does. Run it alone:
//
//	go test ./internal/live -run '^$' -bench OpenBigDAG -benchtime 1x
//
// With DAGQ_SHOTS=DIR it saves a screenshot of each DAG opened there.
func BenchmarkOpenBigDAG(b *testing.B) {
	skipShort(b)
	tabTimeout = 15 * time.Minute
	url := pgtest.New(b)
	db, err := durable.Open(bg, url, durable.Options{})
	must(b, err)
	b.Cleanup(db.Close)
	sizes := []int{5_000, 20_000, 100_000}
	for _, n := range append([]int{10}, sizes...) {
		q, err := db.Queue(bg, "big-"+strconv.Itoa(n), core.Config{MaxAttempts: 3})
		must(b, err)
		tasks := make([]durable.NewTask, n)
		for i := range tasks {
			tasks[i].Name = "t-" + strconv.Itoa(i)
			if i >= 100 {
				tasks[i].Deps = []string{"t-" + strconv.Itoa(i%100)}
			}
		}
		must(b, q.SubmitAll(bg, tasks))
	}
	srv := startServer(b, url)
	ctx := tab(b)
	// open opens a DAG's live view and returns its time from navigation
	// to the first drawing painted.
	open := func(dag string) map[string]float64 {
		b.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.base+"/?live="+dag)); err != nil {
			b.Fatal(err)
		}
		var err error
		for range 5 { // the poll may start in the blank page, gone as the page loads
			if _, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`, chromedp.WithPollingTimeout(80*time.Second))); err == nil {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil {
			b.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[+document.body.dataset.firstDrawMs,
			Math.max(0, ...performance.getEntriesByType('resource').filter(e => e.name.includes('/state')).map(e => e.responseEnd)),
			Math.max(0, ...performance.getEntriesByType('resource').filter(e => e.name.includes('main.wasm')).map(e => e.responseEnd))]`))
		if err != nil {
			b.Fatal(err)
		}
		return map[string]float64{"ms-first-draw": got[0], "ms-state-read": got[1], "ms-wasm-read": got[2]}
	}
	open("big-10")
	for _, n := range sizes {
		b.Run("tasks="+strconv.Itoa(n), func(b *testing.B) {
			sum := map[string]float64{}
			for b.Loop() {
				for k, v := range open("big-" + strconv.Itoa(n)) {
					sum[k] += v
				}
			}
			for k, v := range sum {
				b.ReportMetric(v/float64(b.N), k)
			}
			if os.Getenv("DAGQ_SHOTS") != "" {
				screenshot(b, ctx, "live-big-"+strconv.Itoa(n))
			}
		})
	}
}
