package live_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
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
// `wq serve --db` built from this tree (the playground's wasm built
// first), on a real PostgreSQL (pgtest), with workers of the test's own
// (durable.NewWorker) changing the DAGs.

var build struct {
	once sync.Once
	err  error
	wq   string // the wq binary
	dir  string
}

// buildWQ builds the playground's wasm into site/static and wq, once.
func buildWQ(t testing.TB) string {
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
		build.wq = filepath.Join(build.dir, "wq")
		for i, s := range [][]string{
			{"go", "build", "-ldflags=-s -w", "-o", "site/static/main.wasm", "./wasm"},
			{"cp", filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), "site/static/"},
			{"go", "run", "./site/precompress", "site/static/main.wasm"},
			{"go", "build", "-o", build.wq, "./cmd/wq"},
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
	return build.wq
}

// liveServer is a running `wq serve --db`.
type liveServer struct {
	base string // http://localhost:PORT
	list string // the address it printed: /dags#token=…, or /dags read-only
	log  *syncLog
}

// startServer runs `wq serve --db dbURL --addr 127.0.0.1:PORT args…` until
// the test ends, and returns it once it has printed where it serves.
func startServer(t *testing.T, dbURL string, args ...string) liveServer {
	t.Helper()
	wq := buildWQ(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(wq, append([]string{"serve", "--db", dbURL, "--addr", addr}, args...)...)
	out, err := cmd.StdoutPipe()
	must(t, err)
	s := liveServer{log: &syncLog{}}
	cmd.Stderr = s.log
	must(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("wq serve logged:\n%s", s.log)
		}
	})
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if i := strings.Index(line, "http://"); i >= 0 && strings.Contains(line, "/dags") {
			s.list = line[i:]
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	if s.list == "" {
		t.Fatalf("wq serve --db printed no address of the list; it logged:\n%s", s.log)
	}
	s.base = s.list[:strings.Index(s.list, "/dags")]
	return s
}

// skipShort skips a browser test under -short.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
}

// tab returns a fresh chromium tab; what it logs as an error fails the
// test.
func tab(t *testing.T) context.Context {
	t.Helper()
	opts, err := browsertest.Chromium()
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
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
func screenshot(t *testing.T, ctx context.Context, name string) image.Image {
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
