package live_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
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

	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/browsertest"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/site"
)

// The browser tests drive Debian's chromium, headless, against the live
// routes on a real PostgreSQL (pgtest), with workers of the test's own
// (durable.NewWorker) changing the DAGs. The server is the handler wq
// serve --db makes (live.New over site.New), in this process, serving the
// playground's wasm built into a directory of its own: site/static is
// left alone, since the site's browser tests build into it meanwhile.
// (cmd/wq's TestServeDBPrintsTheTokenAndGuardsTheQueue runs wq serve
// --db's own code.)

var build struct {
	once sync.Once
	err  error
	dir  string // the static files, main.wasm built
}

// buildStatic builds the playground's wasm, once, into a directory with a
// copy of site/static's files, and returns it.
func buildStatic(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			build.err = err
			return
		}
		build.dir, build.err = os.MkdirTemp("", "dagq-live-browser-")
		if build.err != nil {
			return
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			build.err = fmt.Errorf("go env GOROOT: %v", err)
			return
		}
		for _, f := range []string{"index.html", "style.css", "app.js", "favicon.svg"} {
			data, err := os.ReadFile(filepath.Join(root, "site", "static", f))
			if err == nil {
				err = os.WriteFile(filepath.Join(build.dir, f), data, 0o644)
			}
			if err != nil {
				build.err = err
				return
			}
		}
		for i, s := range [][]string{
			{"go", "build", "-ldflags=-s -w", "-o", filepath.Join(build.dir, "main.wasm"), "./wasm"},
			{"cp", filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), build.dir},
		} {
			cmd := exec.Command(s[0], s[1:]...)
			cmd.Dir = root
			cmd.Env = os.Environ()
			if i == 0 {
				cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				build.err = fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out)
				return
			}
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.dir
}

// liveServer is a running server of the live routes.
type liveServer struct {
	base string // http://localhost:PORT
	list string // the list's address as wq serve --db prints it: /dags#token=…, or /dags read-only
	log  *syncLog
}

// browserToken is the browser tests' servers' token.
const browserToken = "5eb1c0ffee5eb1c0ffee5eb1c0ffee00"

// startServer serves the site and the live routes of the database at
// dbURL on a loopback port, as wq serve --db does (read-only with
// "--read-only"), until the test ends.
func startServer(t testing.TB, dbURL string, args ...string) liveServer {
	t.Helper()
	dir := buildStatic(t)
	db, err := durable.Open(bg, dbURL, durable.Options{})
	must(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	_, port, _ := net.SplitHostPort(l.Addr().String())
	s := liveServer{base: "http://localhost:" + port, log: &syncLog{}}
	opt := live.Options{Token: browserToken, Log: s.log, Hosts: []string{"localhost:" + port, "127.0.0.1:" + port}}
	s.list = s.base + "/dags#token=" + browserToken
	if len(args) == 1 && args[0] == "--read-only" {
		opt.Token, opt.ReadOnly = "", true
		s.list = s.base + "/dags"
	}
	ctx, cancel := context.WithCancel(bg)
	srv := &http.Server{Handler: live.New(ctx, db, site.New(site.Options{Static: os.DirFS(dir)}), opt), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() {
		cancel()
		_ = srv.Close()
		db.Close()
		if t.Failed() {
			t.Logf("the server logged:\n%s", s.log)
		}
	})
	return s
}

// skipShort skips a browser test under -short.
func skipShort(t testing.TB) {
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
}

// tabTimeout bounds a tab's life: a test's, or a benchmark's (longer).
var tabTimeout = 90 * time.Second

// tab returns a fresh chromium tab; what it logs as an error fails the
// test.
func tab(t testing.TB) context.Context {
	t.Helper()
	opts, err := browsertest.Chromium()
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	problems := browsertest.Watch(ctx)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		for _, p := range problems() { // once the tab is closed
			t.Errorf("the page logged an error: %s", p)
		}
		cancelAlloc()
	})
	return ctx
}

func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigate %s: %v", url, err)
	}
}

// waitFor polls a JavaScript condition until it is true.
func waitFor(t *testing.T, ctx context.Context, cond string) {
	t.Helper()

	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// waitAcross is waitFor across a navigation, whose page may not exist
// yet when polling starts.
func waitAcross(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: %v", cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eval returns the value of a JavaScript expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// screenshot saves the tab's viewport as NAME.png under the test's
// temporary directory (or DAGQ_SHOTS, to keep them) and returns it.
func screenshot(t testing.TB, ctx context.Context, name string) image.Image {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("DAGQ_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	_ = os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// get fetches a URL and returns its status.
func get(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	must(t, err)
	resp.Body.Close()
	return resp.StatusCode
}
