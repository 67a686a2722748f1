package live_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// fillOf returns the computed fill of a task's box in the drawing.
func fillOf(t *testing.T, ctx context.Context, task string) string {
	t.Helper()
	return eval[string](t, ctx, `(g => g ? getComputedStyle(g.querySelector('rect')).fill : "")(document.querySelector('#graph g[data-task="`+task+`"]'))`)
}

// waitFill waits until a task's box is drawn in a state's fill.
func waitFill(t *testing.T, ctx context.Context, task string, st core.State) {
	t.Helper()
	want := rgb(render.StyleOf(st).Fill)
	waitFor(t, ctx, `(g => !!g && getComputedStyle(g.querySelector('rect')).fill === "`+want+`")(document.querySelector('#graph g[data-task="`+task+`"]'))`)
}

// gatedWorkers runs workers on db whose handler waits for a name on
// release (or fails it with the error fail says, if any) before it
// returns, until the test ends.
func gatedWorkers(t *testing.T, db *durable.DB, release chan string, fail func(name string) error) {
	t.Helper()
	var mu sync.Mutex
	released := map[string]int{}
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		if fail != nil {
			if err := fail(task.Name); err != nil {
				return err
			}
		}
		for {
			mu.Lock()
			if released[task.Name] > 0 {
				released[task.Name]--
				mu.Unlock()
				return nil
			}
			mu.Unlock()
			select {
			case name := <-release:
				mu.Lock()
				released[name]++
				mu.Unlock()
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}, durable.WorkerOptions{Workers: 4, Poll: 100 * time.Millisecond})
	ctx, stop := context.WithCancel(bg)
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(ctx) })
	t.Cleanup(func() { stop(); wg.Wait() })
}

// TestALiveDAGIsRedrawnAsItsTasksComplete: a diamond in Postgres, its
// workers holding each task until the test lets it go. The live view
// draws it as the database has it; as the workers complete tasks, their
// boxes turn SUCCEEDED's colour and the dependents' READY's, with no
// reload of the page.
func TestALiveDAGIsRedrawnAsItsTasksComplete(t *testing.T) {
	skipShort(t)
	url := pgtest.New(t)
	db, err := durable.Open(bg, url, durable.Options{})
	must(t, err)
	t.Cleanup(db.Close)
	q, err := db.Queue(bg, "diamond", core.Config{MaxAttempts: 2})
	must(t, err)
	must(t, q.SubmitAll(bg, []durable.NewTask{{Name: "fetch"}, {Name: "left", Deps: []string{"fetch"}},
		{Name: "right", Deps: []string{"fetch"}}, {Name: "join", Deps: []string{"left", "right"}}}))
	srv := startServer(t, url)
	release := make(chan string)
	gatedWorkers(t, db, release, nil)
	ctx := tab(t)
	navigate(t, ctx, srv.base+"/?live=diamond")
	waitFor(t, ctx, `document.body.dataset.ready === "1"`)
	if title := eval[string](t, ctx, `document.querySelector('#scenario-title').textContent`); title != "Live: diamond" {
		t.Errorf("title %q", title)
	}
	waitFill(t, ctx, "fetch", core.Running) // a worker holds it
	if got, want := fillOf(t, ctx, "join"), rgb(render.StyleOf(core.Pending).Fill); got != want {
		t.Errorf("join is drawn %s, want PENDING's %s", got, want)
	}
	loads := eval[string](t, ctx, `document.body.dataset.liveLoads`)
	screenshot(t, ctx, "live-before")
	// Where each box is drawn, in the drawing's own units.
	const boxes = `[...document.querySelectorAll('#graph g[data-task]')].map(g => g.dataset.task + " " + getComputedStyle(g).transform).sort().join("; ")`
	before := eval[string](t, ctx, boxes)

	release <- "fetch"
	waitFill(t, ctx, "fetch", core.Succeeded)
	waitFill(t, ctx, "left", core.Running)
	if eval[string](t, ctx, `document.body.dataset.liveLoads`) == loads {
		t.Error("the page was not loaded again")
	}
	if nav := eval[int](t, ctx, `performance.getEntriesByType("navigation").length`); nav != 1 {
		t.Errorf("%d navigations: the page reloaded", nav)
	}
	release <- "left"
	release <- "right"
	release <- "join"
	waitFill(t, ctx, "join", core.Succeeded)
	screenshot(t, ctx, "live-after")
	if after := eval[string](t, ctx, boxes); after != before {
		t.Errorf("the boxes moved as their tasks changed state:\n%s\nthen\n%s", before, after)
	}

	// Export as script downloads the DAG as wq db export writes it.
	if got := eval[string](t, ctx, `(a => a.getAttribute('href') + ' ' + a.download)(document.querySelector('#live-export'))`); got != "/api/live/dags/diamond/script diamond.dagq" {
		t.Errorf("Export as script: %q", got)
	}
	eval[bool](t, ctx, `(fetch(document.querySelector('#live-export').href).then(r => r.text()).then(s => window.exported = s), true)`)
	waitFor(t, ctx, `typeof window.exported === "string"`)
	if got := eval[string](t, ctx, `window.exported`); !strings.Contains(got, "submit join left right") {
		t.Errorf("Export as script gives %q, not the DAG's script", got)
	}

	// Share gives the DAG as a script: in the editor, and in the link.
	if err := chromedp.Do(ctx, chromedp.Click(`#share`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#share-link').value.includes("#script=")`)
	if ed := eval[string](t, ctx, `document.querySelector('#editor').value || document.querySelector('#editor-view').textContent`); !strings.Contains(ed, "submit join left right") {
		t.Errorf("after Share the editor holds %q, not the DAG's script", ed)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#share-close`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}

	// On a phone: the bar and the drawing are on the screen.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	for _, sel := range []string{"#live-bar", `#graph g[data-task="join"]`} {
		if r := eval[[]float64](t, ctx, `(r => [r.left, r.right])(document.querySelector('`+sel+`').getBoundingClientRect())`); r[0] < 0 || r[1] > 390 {
			t.Errorf("%s spans %v, off a 390 px screen", sel, r)
		}
	}
	screenshot(t, ctx, "live-phone")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}

	// A click on a task says the workers change it; the command box is gone.
	if err := chromedp.Do(ctx, chromedp.Click(`#graph g[data-task="left"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && document.querySelector('#task-panel').dataset.task === "left"`)
	if n := eval[string](t, ctx, `document.querySelector('#task-panel').textContent`); !strings.Contains(n, "its workers change it") {
		t.Errorf("a click on a task says %q", n)
	}
	if shown := eval[bool](t, ctx, `getComputedStyle(document.querySelector('#command-form')).display !== "none"`); shown {
		t.Error("the command box is shown in a live view")
	}
}

// incidentDB is a database with the DAG "incident": three fetches that
// die of "HTTP 503" (each blocking its parse), failed by real workers,
// which complete everything once redriven.
func incidentDB(t *testing.T) (string, *durable.DB, *durable.Queue) { return incidentOf(t, 3) }

// incidentOf is incidentDB with n fetches, each with its parse.
func incidentOf(t *testing.T, n int) (string, *durable.DB, *durable.Queue) {
	t.Helper()
	url := pgtest.New(t)
	db, err := durable.Open(bg, url, durable.Options{})
	must(t, err)
	t.Cleanup(db.Close)
	q, err := db.Queue(bg, "incident", core.Config{MaxAttempts: 1})
	must(t, err)
	var tasks []durable.NewTask
	for i := range n {
		fetch := "fetch-" + strconv.Itoa(i)
		tasks = append(tasks, durable.NewTask{Name: fetch}, durable.NewTask{Name: "parse-" + strconv.Itoa(i), Deps: []string{fetch}})
	}
	must(t, q.SubmitAll(bg, tasks))
	var mu sync.Mutex
	failed := map[string]bool{}
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(task.Name, "fetch") && !failed[task.Name] {
			failed[task.Name] = true
			return errors.New("HTTP 503 from 10.0.0.7")
		}
		return nil
	}, durable.WorkerOptions{Workers: 2, Poll: 100 * time.Millisecond, ID: "worker-7"})
	ctx, stop := context.WithCancel(bg)
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(ctx) })
	t.Cleanup(func() { stop(); wg.Wait() })
	for {
		g, err := q.DeadLetterGroups(bg)
		must(t, err)
		if len(g) == 1 && g[0].Count == n {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return url, db, q
}

// TestALiveRedriveFromTheConsole: the console of a page opened with the
// token previews the group (marking what would move, changing nothing),
// then redrives it: the database's tasks run again and the drawing shows
// them SUCCEEDED.
func TestALiveRedriveFromTheConsole(t *testing.T) {
	skipShort(t)
	url, _, q := incidentDB(t)
	srv := startServer(t, url)
	ctx := tab(t)
	navigate(t, ctx, srv.list) // keeps the token
	waitFor(t, ctx, `document.querySelector('#mode').dataset.canAct === "true"`)
	if err := chromedp.Do(ctx, chromedp.Click(`#rows a[href="/?live=incident"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitAcross(t, ctx, `location.search === "?live=incident" && document.body.dataset.ready === "1" && document.body.dataset.canAct === "true"`)
	waitFill(t, ctx, "fetch-1", core.Dead)
	waitFill(t, ctx, "parse-1", core.Blocked)
	if n := eval[int](t, ctx, `document.querySelectorAll('#dlq-console .dlq-group').length`); n != 1 {
		t.Fatalf("%d groups in the console, want 1", n)
	}

	if err := chromedp.Do(ctx, chromedp.Click(`#dlq-console button[data-preview]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelectorAll('#graph g.task.would-redrive').length === 3 && document.querySelectorAll('#graph g.task.would-release').length === 3`)
	if n := eval[string](t, ctx, `document.querySelector('#notice-text').textContent`); !strings.Contains(n, "nothing changed") {
		t.Errorf("the preview says %q", n)
	}
	screenshot(t, ctx, "live-preview")
	if st, _, err := q.Status(bg, "fetch-1"); err != nil || st != core.Dead {
		t.Fatalf("after the preview fetch-1 is %s (%v), want DEAD", st, err)
	}

	if err := chromedp.Do(ctx, chromedp.Click(`#dlq-console button[data-command^="redrive group"]:not([data-command*=" at "])`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFill(t, ctx, "parse-1", core.Succeeded)
	for _, task := range []string{"fetch-0", "fetch-1", "fetch-2", "parse-0", "parse-2"} {
		if st, _, err := q.Status(bg, task); err != nil || st != core.Succeeded {
			t.Errorf("%s is %s in the database (%v), want SUCCEEDED", task, st, err)
		}
	}
	if n := eval[string](t, ctx, `document.querySelector('#notice-text').textContent`); !strings.Contains(n, "redrove 3") {
		t.Errorf("the notice says %q, want what the redrive did", n)
	}
	screenshot(t, ctx, "live-redriven")

	// A task's detail is the database's: its attempts with their errors
	// and the worker that held each, which a script does not know.
	if err := chromedp.Do(ctx, chromedp.Click(`#graph g[data-task="fetch-1"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `!document.querySelector('#task-panel').hidden && document.querySelector('#task-panel').textContent.includes("worker-7")`)
	panel := eval[string](t, ctx, `document.querySelector('#task-panel').textContent`)
	for _, want := range []string{"HTTP 503 from 10.0.0.7", "Waited on by", "parse-1"} {
		if !strings.Contains(panel, want) {
			t.Errorf("fetch-1's detail lacks %q: %s", want, panel)
		}
	}
	// The database keeps no start of the attempt that succeeded: the
	// panel says when it ended, not that it started at 0s.
	ok := eval[string](t, ctx, `document.querySelector('#task-panel li[data-outcome="succeeded"]').textContent`)
	if !strings.Contains(ok, "ended ") || strings.Contains(ok, "0s") {
		t.Errorf("fetch-1's attempt that succeeded reads %q, want when it ended and no start", ok)
	}
	screenshot(t, ctx, "live-detail")
	if log := srv.log.String(); !strings.Contains(log, "DAG incident: redrove 3 of group") {
		t.Errorf("the server did not log the redrive:\n%s", log)
	}
}

// deadFetches counts the fetches of an incident that are DEAD in the
// database.
func deadFetches(t *testing.T, q *durable.Queue) int {
	t.Helper()
	tasks, _, err := q.Tasks(bg)
	must(t, err)
	n := 0
	for _, task := range tasks {
		if task.State == core.Dead && strings.HasPrefix(task.Name, "fetch") {
			n++
		}
	}
	return n
}

// TestALiveRedriveAtARateIsCancelledFromTheConsole: the console's
// "Redrive at 2/s" starts a redrive at that rate in the database; the page
// shows it in progress with its Cancel button, whose click stops it there:
// the database has no redrive any more, and the fetches it had not reached
// stay DEAD.
func TestALiveRedriveAtARateIsCancelledFromTheConsole(t *testing.T) {
	skipShort(t)
	const fetches = 30 // at 2 a second, 15 s: time for the page to show it under load
	url, _, q := incidentOf(t, fetches)
	srv := startServer(t, url)
	ctx := tab(t)
	navigate(t, ctx, srv.list) // keeps the token
	navigate(t, ctx, srv.base+"/?live=incident")
	waitFor(t, ctx, `document.body.dataset.ready === "1" && document.body.dataset.canAct === "true"`)
	waitFill(t, ctx, "fetch-29", core.Dead)
	if err := chromedp.Do(ctx, chromedp.Click(`#dlq-console button[data-command="redrive group 1 at 2/1s"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#dlq-console .paced button[data-command="redrive cancel"]') !== null`)
	job, running, err := q.Redriving(bg)
	if err != nil || !running || job.Rate != (core.Rate{N: 2, Per: time.Second}) || len(job.Tasks) != fetches {
		t.Fatalf("the database's redrive: %+v running %v (%v), want %d tasks at 2/1s", job, running, err, fetches)
	}
	if label := eval[string](t, ctx, `document.querySelector('#dlq-console .paced-progress').textContent`); label == "" {
		t.Error("the redrive in progress has no label")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#dlq-console .dlq-group button[data-command]').length`); n != 0 {
		t.Errorf("%d redrive buttons are enabled while a redrive runs", n)
	}
	screenshot(t, ctx, "live-redrive-at-rate")

	if err := chromedp.Do(ctx, chromedp.Click(`#dlq-console .paced button[data-command="redrive cancel"]`, chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `document.querySelector('#notice-text').textContent.includes("cancelled the redrive")`)
	if _, running, err := q.Redriving(bg); err != nil || running {
		t.Fatalf("after Cancel the database still redrives (%v)", err)
	}
	dead := deadFetches(t, q)
	if dead == 0 || dead == fetches {
		t.Fatalf("%d of %d fetches DEAD after Cancel: want the redrive stopped part way", dead, fetches)
	}
	waitFor(t, ctx, `document.querySelector('#dlq-console .paced') === null && document.querySelector('#dlq-console .dlq-group button[data-command]') !== null`)
	time.Sleep(1500 * time.Millisecond) // three batches' worth, had it gone on
	if again := deadFetches(t, q); again != dead {
		t.Errorf("%d fetches DEAD after Cancel, %d 1.5 s later: the redrive went on", dead, again)
	}
	if log := srv.log.String(); !strings.Contains(log, "DAG incident: redriving 30 of group") || !strings.Contains(log, "DAG incident: cancelled the redrive of group") {
		t.Errorf("the server did not log the redrive and its cancel:\n%s", log)
	}
}

// TestAPageWithoutTheTokenIsReadOnly: a page opened without the token,
// and one of a --read-only server with it, say read-only and why; the
// console's buttons are disabled, and a click on one changes nothing.
func TestAPageWithoutTheTokenIsReadOnly(t *testing.T) {
	skipShort(t)
	url, _, q := incidentDB(t)
	for _, tt := range []struct {
		name string
		args []string
		why  string
	}{
		{"NoToken", nil, "has no token"},
		{"ReadOnlyServer", []string{"--read-only"}, "--read-only"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := startServer(t, url, tt.args...)
			ctx := tab(t)
			navigate(t, ctx, srv.list) // with the token when the server has one
			navigate(t, ctx, srv.base+"/?live=incident")
			if tt.name == "NoToken" {
				// Forget the token the list kept: a page that never had it.
				eval[bool](t, ctx, `(localStorage.removeItem("dagq-token"), true)`)
				navigate(t, ctx, srv.base+"/?live=incident")
			}
			waitFor(t, ctx, `document.body.dataset.ready === "1" && document.querySelector('#live-mode').textContent === "read-only"`)
			waitFill(t, ctx, "fetch-1", core.Dead)
			waitFor(t, ctx, `document.querySelector('#dlq-console button[data-command]') !== null && document.querySelector('#dlq-console button[data-command]').disabled`)
			if why := eval[string](t, ctx, `document.querySelector('#live-why').textContent`); !strings.Contains(why, tt.why) {
				t.Errorf("the page says %q, not why it is read-only (%q)", why, tt.why)
			}
			title := eval[string](t, ctx, `document.querySelector('#dlq-console button[data-command]').title`)
			if !strings.Contains(title, tt.why) {
				t.Errorf("a disabled button's title %q does not say %q", title, tt.why)
			}
			if bg := eval[string](t, ctx, `getComputedStyle(document.querySelector('#live-mode')).backgroundColor`); bg != "rgb(255, 243, 205)" {
				t.Errorf("the read-only badge is drawn on %s", bg)
			}
			screenshot(t, ctx, "live-readonly-"+tt.name)
			// A real click at the button's centre.
			xy := eval[[]float64](t, ctx, `(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('#dlq-console button[data-command]').getBoundingClientRect())`)
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			if st, _, err := q.Status(bg, "fetch-1"); err != nil || st != core.Dead {
				t.Fatalf("after a click on a disabled Redrive fetch-1 is %s (%v), want DEAD", st, err)
			}
			// Asked directly, the server refuses too.
			code, _ := post(t, srv.base+"/api/live/dags/incident/force", `{"task":"fetch-1"}`)
			if code != 403 {
				t.Errorf("a forced redrive without the token: %d, want 403", code)
			}
		})
	}
}
