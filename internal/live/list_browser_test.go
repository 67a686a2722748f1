package live_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// TestTheListUpdatesAsWorkersComplete: the list of DAGs, opened with the
// token wq serve printed, shows each DAG's counts in the drawing's
// colours; as workers complete a DAG's tasks its SUCCEEDED count grows on
// the page, with no reload; the token leaves the address bar.
func TestTheListUpdatesAsWorkersComplete(t *testing.T) {
	skipShort(t)
	url := pgtest.New(t)
	db, err := durable.Open(bg, url, durable.Options{})
	must(t, err)
	t.Cleanup(db.Close)
	q, err := db.Queue(bg, "nightly", core.Config{MaxAttempts: 1})
	must(t, err)
	var tasks []durable.NewTask
	for i := range 40 {
		tasks = append(tasks, durable.NewTask{Name: fmt.Sprintf("t%02d", i)})
	}
	must(t, q.SubmitAll(bg, tasks))
	other, err := db.Queue(bg, "broken", core.Config{MaxAttempts: 1})
	must(t, err)
	must(t, other.Submit(bg, "root"))
	must(t, other.Submit(bg, "leaf", "root"))
	l, _, err := other.Next(bg)
	must(t, err)
	_, err = other.Fail(bg, l, errors.New("disk full"))
	must(t, err)

	srv := startServer(t, url)
	ctx := tab(t)
	navigate(t, ctx, srv.list)
	waitFor(t, ctx, `document.querySelector('#status').dataset.live === "1"`)
	waitFor(t, ctx, `document.querySelector('#mode').dataset.canAct === "true"`)
	if hash := eval[string](t, ctx, `location.hash`); hash != "" {
		t.Errorf("the token stays in the address bar: %q", hash)
	}
	rows := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#rows tr'), r => r.dataset.dag)`)
	if strings.Join(rows, " ") != "broken nightly" {
		t.Fatalf("rows %v, want broken and nightly", rows)
	}
	cell := func(dag, state string) string {
		return eval[string](t, ctx, `document.querySelector('#rows tr[data-dag="`+dag+`"] td[data-state="`+state+`"]').textContent.trim()`)
	}
	if cell("nightly", "READY") != "40" || cell("broken", "DEAD") != "1" || cell("broken", "BLOCKED") != "1" {
		t.Errorf("nightly READY %s, broken DEAD %s BLOCKED %s: want 40, 1, 1", cell("nightly", "READY"), cell("broken", "DEAD"), cell("broken", "BLOCKED"))
	}
	// A DEAD count is drawn in the drawing's DEAD colours.
	dead := render.StyleOf(core.Dead).Fill
	if got := eval[string](t, ctx, `getComputedStyle(document.querySelector('#rows tr[data-dag="broken"] td[data-state="DEAD"] span')).backgroundColor`); got != rgb(dead) {
		t.Errorf("the DEAD count's background is %s, want the drawing's DEAD fill %s (%s)", got, dead, rgb(dead))
	}
	screenshot(t, ctx, "list-before")

	// Workers complete nightly's tasks, one at a time, while the page
	// is open: its SUCCEEDED count grows without a reload.
	release := make(chan struct{})
	w := durable.NewWorker(db, func(ctx context.Context, t durable.Task) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}, durable.WorkerOptions{Workers: 2})
	wctx, stop := context.WithCancel(bg)
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(wctx) })
	t.Cleanup(func() { stop(); wg.Wait() })
	for range 10 {
		release <- struct{}{}
	}
	waitFor(t, ctx, `Number(document.querySelector('#rows tr[data-dag="nightly"] td[data-state="SUCCEEDED"]').textContent) >= 10`)
	updated := eval[string](t, ctx, `document.body.dataset.updated`)
	if updated == "" {
		t.Error("the rows were not swapped in by the page: did it reload?")
	}
	close(release)
	waitFor(t, ctx, `document.querySelector('#rows tr[data-dag="nightly"] td[data-state="SUCCEEDED"]').textContent.trim() === "40"`)
	screenshot(t, ctx, "list-after")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	// On a phone the table scrolls inside its frame: the page itself does not.
	if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the list is %v px wide on a 390 px screen", w)
	}
	screenshot(t, ctx, "list-phone")
}

// rgb writes a colour #rrggbb as getComputedStyle does: rgb(r, g, b).
func rgb(hex string) string {
	var r, g, b int
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return fmt.Sprintf("rgb(%d, %d, %d)", r, g, b)
}
