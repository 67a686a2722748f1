//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/browsertest"
	"github.com/dagq/dagq/site"
)

// The worker's test builds it as `make worker` does, serves it with
// wrangler dev (the locked wrangler in node_modules, which `make
// worker-npm` or `npm ci` installs) on a free loopback port, and checks
// what it answers against package site's handler served here, natively:
// the edge must answer as `wq serve` does.

// workerBudget is the most the worker's bundle may weigh gzipped: the
// Workers free plan's limit, 3 MB (the paid plan allows 10 MB).
const workerBudget = 3_000_000

// wasmBudget is the most a browser may download of main.wasm: what package
// site's TestWasmSizeBudget holds wq serve to.
const wasmBudget = 1_350_000

// client bounds every request: a worker that hangs fails the test in
// time rather than stalling it.
var client = &http.Client{Timeout: 30 * time.Second}

func TestWorker(t *testing.T) {
	base := startWorker(t)
	native := httptest.NewServer(site.New(site.Options{}))
	t.Cleanup(native.Close)

	t.Run("TheBundleFitsTheFreePlan", func(t *testing.T) {
		n := bundleGzip(t)
		t.Logf("the worker's bundle is %s gzipped (Workers' limits: 3 MB free, 10 MB paid)", size(n))
		if n > workerBudget {
			t.Errorf("the worker's bundle is %d bytes gzipped, over the %d of the free plan", n, workerBudget)
		}
	})

	t.Run("TheWorkerEmbedsNoStaticFile", func(t *testing.T) {
		out, err := exec.Command("go", "list", "-tags", "dagq_noembed", "-f", "{{.EmbedFiles}}", "../../site").CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "[]" {
			t.Errorf("built with -tags dagq_noembed, package site embeds %s", got)
		}
	})

	for _, path := range []string{"/healthz", "/api/scenarios", "/api/scenarios/diamond-redrive", "/api/scenarios/nope", "/api/nope", "/no-such-file.txt"} {
		t.Run("AnswersAsSiteDoes"+path, func(t *testing.T) {
			want, got := get(t, native.URL+path), get(t, base+path)
			if got.code != want.code || got.body != want.body {
				t.Errorf("GET %s: the worker answered %d %q, site answers %d %q", path, got.code, clip(got.body), want.code, clip(want.body))
			}
			if got.Get("Content-Type") != want.Get("Content-Type") {
				t.Errorf("GET %s: Content-Type %q, site's is %q", path, got.Get("Content-Type"), want.Get("Content-Type"))
			}
		})
	}

	t.Run("ThePageHasTheHeadersSiteGivesIt", func(t *testing.T) {
		got, want := get(t, base+"/"), get(t, native.URL+"/")
		if got.code != http.StatusOK {
			t.Fatalf("GET /: %d", got.code)
		}
		for _, name := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Content-Type"} {
			if got.Get(name) != want.Get(name) {
				t.Errorf("GET /: %s is %q, site's is %q (site/worker/_headers)", name, got.Get(name), want.Get(name))
			}
		}
		wasm := get(t, base+"/main.wasm")
		if wasm.code != http.StatusOK || wasm.Get("Content-Type") != "application/wasm" || !strings.HasPrefix(wasm.body, "\x00asm") {
			t.Errorf("GET /main.wasm: %d, %q, %d bytes", wasm.code, wasm.Get("Content-Type"), len(wasm.body))
		}
	})

	// Cloudflare's front line, which wrangler dev imitates, hands a worker
	// every request with Accept-Encoding "br, gzip", and encodes what it
	// answers for the client: it passes a brotli body through to a client
	// that takes brotli, and re-encodes it for one that does not. Under
	// wrangler dev it keeps the first of gzip and br in the client's list:
	// gzip for Chromium ("gzip, deflate, br, zstd"), which therefore gets
	// gzip here, compressed by wrangler.
	t.Run("MainWasmIsPrecompressed", func(t *testing.T) {
		wasm, err := os.ReadFile("build/assets/main.wasm")
		if err != nil {
			t.Fatal(err)
		}
		br, err := os.ReadFile("build/assets/main.wasm.br")
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct{ accept, coding string }{
			{"br, gzip", "br"},
			{"br", "br"},
			{"gzip", "gzip"},
			{"identity", ""},
		} {
			req, _ := http.NewRequest(http.MethodGet, base+"/main.wasm", nil)
			// Set by hand, the Go client leaves the body as it came.
			req.Header.Set("Accept-Encoding", tt.accept)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			got := resp.Header.Get("Content-Encoding")
			if resp.StatusCode != http.StatusOK || got != tt.coding || resp.Header.Get("Content-Type") != "application/wasm" ||
				resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("GET /main.wasm accepting %q: %s, Content-Encoding %q (want %q), Content-Type %q, Vary %q, X-Content-Type-Options %q",
					tt.accept, resp.Status, got, tt.coding, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"), resp.Header.Get("X-Content-Type-Options"))
			}
			plain, err := decode(got, raw)
			if err != nil || !bytes.Equal(plain, wasm) {
				t.Fatalf("GET /main.wasm accepting %q: the %q body does not decode to main.wasm (%v)", tt.accept, got, err)
			}
			t.Logf("GET /main.wasm accepting %q: %d bytes, %q", tt.accept, len(raw), got)
			if got == "br" {
				if !bytes.Equal(raw, br) {
					t.Errorf("GET /main.wasm accepting %q: the brotli body (%d bytes) is not main.wasm.br (%d)", tt.accept, len(raw), len(br))
				}
				if len(raw) > wasmBudget {
					t.Errorf("a browser downloads %d bytes of main.wasm from the worker (brotli), over the budget of %d", len(raw), wasmBudget)
				}
				// A browser revalidates what it has with the ETag it was given.
				req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
				again, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				again.Body.Close()
				if resp.Header.Get("ETag") == "" || again.StatusCode != http.StatusNotModified {
					t.Errorf("GET /main.wasm accepting %q, with its ETag %q: %s, want 304", tt.accept, resp.Header.Get("ETag"), again.Status)
				}
			}
		}
	})

	t.Run("RunOfTrickyCycleIsWqRunJSON", func(t *testing.T) {
		text, want := trickyCycle(t)
		for _, gz := range []bool{false, true} {
			req, _ := http.NewRequest(http.MethodPost, base+"/api/run", strings.NewReader(text))
			req.Header.Set("Content-Type", "text/plain; charset=utf-8")
			if gz {
				// Set by hand, the Go client leaves the body as it came.
				req.Header.Set("Accept-Encoding", "gzip")
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := readBody(resp)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-ndjson; charset=utf-8" {
				t.Fatalf("POST /api/run (gzip %v): %s, %q: %s", gz, resp.Status, resp.Header.Get("Content-Type"), clip(body))
			}
			if body != want {
				t.Errorf("POST /api/run (gzip %v): the trace differs from wq run --json's\n got: %s\nwant: %s", gz, body, want)
			}
		}
	})

	t.Run("RunRefusesAnotherSitesPage", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/run", strings.NewReader("submit a\n"))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("Origin", "https://elsewhere.example")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST /api/run from another site's page: %s, want 403", resp.Status)
		}
		// The site's own page may: the worker sees the host it serves.
		req, _ = http.NewRequest(http.MethodPost, base+"/api/run", strings.NewReader("submit a\n"))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("Origin", base)
		resp, err = client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("POST /api/run from the site's own page: %s, want 200", resp.Status)
		}
	})

	t.Run("ThePlaygroundDrawsInChromium", func(t *testing.T) {
		ctx := tab(t)
		for _, path := range []string{"/", "/?scenario=diamond-redrive&step=end"} {
			if err := chromedp.Do(ctx, chromedp.Navigate(base+path)); err != nil {
				t.Fatalf("navigate %s: %v", path, err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ready === "1"`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
				failed, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.failed + " " + (document.getElementById("boot")||{}).textContent`))
				t.Fatalf("%s: the page did not draw: %v (%s)", path, err, failed)
			}
			n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#graph g[data-task]').length`))
			if err != nil || n == 0 {
				t.Errorf("%s: %d tasks drawn (%v)", path, n, err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource")
				.filter(e => e.name.endsWith("/main.wasm")).reduce((n, e) => Math.max(n, e.encodedBodySize), 0)`))
			// Under wrangler dev, gzip, as MainWasmIsPrecompressed explains.
			if err != nil || got == 0 || got >= 6_000_000 {
				t.Errorf("%s: Chromium downloaded %d bytes of main.wasm (%v), not a compressed body", path, got, err)
			}
			t.Logf("%s: Chromium downloaded %d bytes of main.wasm", path, got)
		}
		states, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries(Array.from(
			document.querySelectorAll('#graph g[data-task]'), g => [g.dataset.task, g.dataset.state]))`))
		if err != nil {
			t.Fatal(err)
		}
		for task, st := range states {
			if st != "SUCCEEDED" {
				t.Errorf("diamond-redrive at its end: %s is %s, want every task SUCCEEDED (%v)", task, st, states)
				break
			}
		}
	})

	for _, path := range []string{"/svg?scenario=diamond-redrive&step=end", "/svg?scenario=diamond-redrive&animate=1"} {
		t.Run("SVGIsSites"+strings.TrimPrefix(path, "/svg"), func(t *testing.T) {
			want, got := get(t, native.URL+path), get(t, base+path)
			if want.code != http.StatusOK || !strings.HasPrefix(want.Get("Content-Type"), "image/svg+xml") {
				t.Fatalf("GET %s from site itself: %d %q: %s", path, want.code, want.Get("Content-Type"), clip(want.body))
			}
			if got.code != http.StatusOK || got.Get("Content-Type") != want.Get("Content-Type") || got.body != want.body {
				t.Errorf("GET %s: the worker answered %d %q (%d bytes), site answers %d %q (%d bytes)",
					path, got.code, got.Get("Content-Type"), len(got.body), want.code, want.Get("Content-Type"), len(want.body))
			}
			if got.Get("ETag") != want.Get("ETag") || got.Get("Cache-Control") != want.Get("Cache-Control") {
				t.Errorf("GET %s: ETag %q and Cache-Control %q, site's are %q and %q",
					path, got.Get("ETag"), got.Get("Cache-Control"), want.Get("ETag"), want.Get("Cache-Control"))
			}
			req, _ := http.NewRequest(http.MethodGet, base+path, nil)
			req.Header.Set("If-None-Match", want.Get("ETag"))
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotModified {
				t.Errorf("GET %s with its ETag: %s, want 304", path, resp.Status)
			}
		})
	}
}

// trickyCycle returns the library's tricky-cycle scenario and what
// `wq run --json` prints for it.
func trickyCycle(t testing.TB) (text, trace string) {
	t.Helper()
	e, ok := scenario.Lookup("tricky-cycle")
	if !ok {
		t.Fatal("no tricky-cycle in the library")
	}
	s, err := scenario.NewStream(e.Text, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := s.Run(context.Background(), &b, scenario.JSON, scenario.Limits{}); err != nil {
		t.Fatal(err)
	}
	return e.Text, b.String()
}

// answer is a response, read.
type answer struct {
	code int
	http.Header
	body string
}

// get returns the answer to GET url.
func get(t testing.TB, url string) answer {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	body, err := readBody(resp)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return answer{resp.StatusCode, resp.Header, body}
}

// readBody reads and closes a response's body, gunzipping it if it came
// compressed.
func readBody(resp *http.Response) (string, error) {
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return "", err
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

// decode returns body decoded from the content coding name ("", "br" or
// "gzip").
func decode(name string, body []byte) ([]byte, error) {
	var r io.Reader = bytes.NewReader(body)
	switch name {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	return io.ReadAll(r)
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// root is the repository's root.
func root(t testing.TB) string {
	t.Helper()
	r, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wrangler returns the command that runs the locked wrangler, or skips the
// test, saying why, where there is no Node.js.
func wrangler(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skip("the worker's test builds it and runs wrangler dev: not with -short")
	}
	for _, tool := range []string{"node", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED: the worker's test runs wrangler, which needs Node.js 20 and npm (%s is missing)", tool)
		}
	}
	if _, err := os.Stat(filepath.Join("node_modules", "wrangler", "package.json")); err != nil {
		t.Fatal("wrangler is not installed in site/worker/node_modules: run `make worker-npm` (npm ci in site/worker)")
	}
	cmd := exec.Command("npx", append([]string{"--no-install", "wrangler"}, args...)...)
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "NO_COLOR=1")
	return cmd
}

var buildOnce struct {
	sync.Once
	err error
}

// build runs `make worker`, once per test binary.
func build(t testing.TB) {
	t.Helper()
	buildOnce.Do(func() {
		cmd := exec.Command("make", "--no-print-directory", "worker")
		cmd.Dir = root(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildOnce.err = fmt.Errorf("make worker: %v\n%s", err, out)
		}
	})
	if buildOnce.err != nil {
		t.Fatal(buildOnce.err)
	}
}

// bundleGzip returns the gzipped size of the worker's bundle, as wrangler
// reports it for an upload (wrangler deploy --dry-run).
func bundleGzip(t testing.TB) int64 {
	t.Helper()
	cmd := wrangler(t, "deploy", "--dry-run", "--outdir", t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, out)
	}
	// "Total Upload: 7012.49 KiB / gzip: 1960.20 KiB"
	_, after, ok := strings.Cut(string(out), "gzip: ")
	var kib float64
	if ok {
		_, err = fmt.Sscanf(after, "%f KiB", &kib)
	}
	if !ok || err != nil {
		t.Fatalf("no gzip size in wrangler's output:\n%s", out)
	}
	return int64(kib * 1024)
}

// freePort returns a loopback port that nothing listens on.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startWorker builds the worker and serves it with wrangler dev on a free
// loopback port until the test ends; it returns the base URL.
func startWorker(t testing.TB) string {
	t.Helper()
	port := fmt.Sprint(freePort(t))
	cmd := wrangler(t, "dev", "--ip", "127.0.0.1", "--port", port,
		"--inspector-port", fmt.Sprint(freePort(t)), "--show-interactive-dev-session=false")
	build(t)
	base := "http://127.0.0.1:" + port
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &syncWriter{w: &log}, &syncWriter{w: &log}
	// wrangler starts workerd: stop them together.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	t.Cleanup(stop)
	// Bounded: wrangler dev starts in a few seconds here.
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := client.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-done:
			t.Fatalf("wrangler dev exited before it answered:\n%s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrangler dev did not answer /healthz on %s within 90 s:\n%s", base, log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// tab returns a headless chromium tab; every console error, uncaught
// exception, and console line that tells of a Go panic fails the test.
func tab(t testing.TB) context.Context {
	t.Helper()
	opts, err := browsertest.Chromium()
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	if err := chromedp.Do(ctx); err != nil {
		cancelTimeout()
		cancel()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	problems := browsertest.Watch(ctx)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
		for _, p := range problems() {
			t.Errorf("the page logged an error: %s", p)
		}
	})
	return ctx
}

// BenchmarkLatency measures what a request costs at the edge, under
// wrangler dev on this machine, against `wq serve`: one request a loop,
// for each route and server, named so that benchstat can pivot them:
//
//	go test ./site/worker -run '^$' -bench Latency -count 10 > lat.txt
//	benchstat -col /server lat.txt
//
// It needs wrangler (make worker-npm), as TestWorker does.
func BenchmarkLatency(b *testing.B) {
	worker := startWorker(b)
	wq := startWqServe(b)
	text, _ := trickyCycle(b)
	routes := []struct {
		name string
		req  func(base string) *http.Request
	}{
		{"run-tricky-cycle", func(base string) *http.Request {
			r, _ := http.NewRequest(http.MethodPost, base+"/api/run", strings.NewReader(text))
			r.Header.Set("Content-Type", "text/plain")
			return r
		}},
		{"svg-diamond-redrive", func(base string) *http.Request {
			r, _ := http.NewRequest(http.MethodGet, base+"/svg?scenario=diamond-redrive&step=end", nil)
			return r
		}},
	}
	servers := []struct{ name, base string }{{"wrangler", worker}, {"wq", wq}}
	for _, rt := range routes {
		for _, srv := range servers {
			b.Run("route="+rt.name+"/server="+srv.name, func(b *testing.B) {
				for b.Loop() {
					resp, err := client.Do(rt.req(srv.base))
					if err != nil {
						b.Fatalf("%s on %s: %v", rt.name, srv.name, err)
					}
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != http.StatusOK {
						b.Fatalf("%s on %s: %s %v", rt.name, srv.name, resp.Status, err)
					}
				}
			})
		}
	}
	b.Logf("the worker's bundle: %s gzipped", size(bundleGzip(b)))
}

// size formats a size in bytes in MB, and in KiB as wrangler does.
func size(n int64) string { return fmt.Sprintf("%.2f MB (%.0f KiB)", float64(n)/1e6, float64(n)/1024) }

// startWqServe builds wq and serves the site with it on a free loopback
// port until the test ends; it returns the base URL.
func startWqServe(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wq")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wq")
	cmd.Dir = root(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/wq: %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	server := exec.Command(bin, "serve", "--addr", addr)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	base := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := client.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("wq serve did not answer /healthz on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
