package site_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/internal/browsertest"
)

// The browser tests drive Debian's chromium, headless, against a real
// `wq serve` built from this tree, with the playground's wasm built first.
// They share one server and one browser; each test has its own tab.

var browser struct {
	once    sync.Once
	err     error
	base    string // http://127.0.0.1:PORT
	alloc   context.Context
	cleanup []func()
	// serverLog holds what wq serve said (a line per request), printed
	// only when the tests fail.
	serverLog serverLog
}

// serverLog is a buffer safe for the server's writes and a final read.
type serverLog struct {
	mu sync.Mutex
	b  []byte
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

// tail returns its last n lines.
func (l *serverLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(strings.TrimSuffix(string(l.b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// tabTimeout bounds the life of a tab; benchmarks of big graphs raise it.
var tabTimeout = 60 * time.Second

// playground returns a fresh tab and the server's base URL. The tab's
// console errors, uncaught exceptions, and any console line that tells of a
// Go panic (recovered ones included: the page prints them) or of the Go
// program having exited fail the test when it ends.
func playground(t testing.TB) (context.Context, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
	browser.once.Do(startBrowser)
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	// Open the tab before subscribing to its events.
	if err := chromedp.Do(ctx); err != nil {
		cancelTimeout()
		cancel()
		t.Fatalf("open a tab: %v", err)
	}
	problems := browsertest.Watch(ctx, onPurpose)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		for _, p := range problems() {
			t.Errorf("the page logged an error: %s", p)
		}
	})
	return ctx, browser.base
}

// onPurpose is what the panic a test causes on purpose says (see
// TestAPanicInAHandlerIsShownAndThePageKeepsWorking).
const onPurpose = "a panic on purpose, from a test"

// startBrowser builds the playground and wq, starts `wq serve` on a free
// loopback port, and starts chromium.
func startBrowser() {
	fail := func(err error) { browser.err = err }
	opts, err := browsertest.Chromium()
	if err != nil {
		fail(err)
		return
	}
	root, err := filepath.Abs("..")
	if err != nil {
		fail(err)
		return
	}
	tmp, err := os.MkdirTemp("", "dagq-browser-")
	if err != nil {
		fail(err)
		return
	}
	browser.cleanup = append(browser.cleanup, func() { os.RemoveAll(tmp) })

	// The wasm must be built before wq, which embeds site/static.
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		fail(fmt.Errorf("go env GOROOT: %v", err))
		return
	}
	steps := [][]string{
		{"go", "build", "-trimpath", "-tags", "dagq_nojson", "-ldflags=-s -w", "-o", "site/static/main.wasm", "./wasm"}, // as make wasm builds it
		{"cp", filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), "site/static/"},
		{"go", "run", "./site/precompress", "site/static/main.wasm"},
		{"go", "build", "-o", filepath.Join(tmp, "wq"), "./cmd/wq"},
	}
	for i, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Dir = root
		cmd.Env = os.Environ()
		if i == 0 {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			fail(fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out))
			return
		}
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail(err)
		return
	}
	addr := l.Addr().String()
	l.Close()
	server := exec.Command(filepath.Join(tmp, "wq"), "serve", "--addr", addr)
	server.Stdout, server.Stderr = &browser.serverLog, &browser.serverLog
	if err := server.Start(); err != nil {
		fail(err)
		return
	}
	browser.cleanup = append(browser.cleanup, func() { server.Process.Kill(); server.Wait() })
	browser.base = "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(browser.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			fail(fmt.Errorf("wq serve did not answer /healthz on %s: %v", addr, err))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}

	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	browser.alloc = alloc
	browser.cleanup = append(browser.cleanup, cancel)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if code != 0 && browser.base != "" {
		fmt.Fprintf(os.Stderr, "the last lines wq serve logged:\n%s\n", browser.serverLog.tail(40))
	}
	for i := len(browser.cleanup) - 1; i >= 0; i-- {
		browser.cleanup[i]()
	}
	os.Exit(code)
}

// open navigates to path and waits until the playground has drawn.
func open(t testing.TB, ctx context.Context, base, path string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
		t.Fatalf("navigate %s: %v", path, err)
	}
	waitFor(t, ctx, `document.body.dataset.ready === "1"`)
}

// waitFor polls a JavaScript condition until it is true, for 15 s. A poll
// whose page went away under it (a navigation that had not finished when
// the condition was first asked, on a loaded machine) is asked again of
// the new page.
func waitFor(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		if !navigatedAway(err) || time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %v", cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// navigatedAway reports whether err is Chromium's answer to a script asked
// of a page that a navigation has replaced.
func navigatedAway(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Cannot find context with specified id") || strings.Contains(s, "Execution context was destroyed")
}

// eval returns the value of a JavaScript expression.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// evalAwait returns the value a JavaScript promise resolves to.
func evalAwait[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// states returns the drawn state of every task.
func states(t testing.TB, ctx context.Context) map[string]string {
	t.Helper()
	return eval[map[string]string](t, ctx, `Object.fromEntries(Array.from(
		document.querySelectorAll('#graph g[data-task]'), g => [g.dataset.task, g.dataset.state]))`)
}

func click(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}
