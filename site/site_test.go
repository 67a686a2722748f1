package site

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dagq/dagq/core/scenario"
)

// fakeWasm is large and repetitive enough that gzip shrinks it.
var fakeWasm = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("dagq "), 4000)...)

// built is a static tree as `make wasm` leaves it.
func built() fstest.MapFS {
	return fstest.MapFS{
		"index.html":   {Data: []byte("<!doctype html><title>dagq</title>")},
		"style.css":    {Data: []byte("body{margin:0}")},
		"app.js":       {Data: []byte("'use strict';")},
		"favicon.svg":  {Data: []byte("<svg/>")},
		"main.wasm":    {Data: fakeWasm},
		"wasm_exec.js": {Data: []byte("// go")},
	}
}

// do sends a request to h and returns the recorded response.
func do(t *testing.T, h http.Handler, method, target string, body string, header ...string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	if method == "POST" {
		req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func readAll(t *testing.T, r *http.Response) string {
	t.Helper()
	data, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestStaticFiles(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	tests := []struct {
		name, path, ctype, body string
	}{
		{"RootIsTheIndex", "/", "text/html; charset=utf-8", "<title>dagq</title>"},
		{"Index", "/index.html", "text/html; charset=utf-8", "<title>dagq</title>"},
		{"Style", "/style.css", "text/css; charset=utf-8", "margin:0"},
		{"Script", "/app.js", "text/javascript; charset=utf-8", "use strict"},
		{"Icon", "/favicon.svg", "image/svg+xml", "<svg/>"},
		{"WasmExec", "/wasm_exec.js", "text/javascript; charset=utf-8", "// go"},
		{"Wasm", "/main.wasm", "application/wasm", "\x00asm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, "GET", tt.path, "")
			body := readAll(t, r)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200", r.StatusCode)
			}
			if got := r.Header.Get("Content-Type"); got != tt.ctype {
				t.Errorf("Content-Type %q, want %q", got, tt.ctype)
			}
			if r.Header.Get("Content-Encoding") != "" {
				t.Errorf("compressed without Accept-Encoding")
			}
			if !strings.Contains(body, tt.body) {
				t.Errorf("body %.60q lacks %q", body, tt.body)
			}
			if r.Header.Get("Cache-Control") != "no-cache" || r.Header.Get("ETag") == "" {
				t.Errorf("Cache-Control %q ETag %q, want no-cache and an ETag", r.Header.Get("Cache-Control"), r.Header.Get("ETag"))
			}
			if r.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Vary %q, want Accept-Encoding", r.Header.Get("Vary"))
			}
		})
	}
	t.Run("HTMLHasASecurityPolicyThatAllowsWasm", func(t *testing.T) {
		r := do(t, h, "GET", "/", "")
		if p := r.Header.Get("Content-Security-Policy"); !strings.Contains(p, "'wasm-unsafe-eval'") || !strings.Contains(p, "frame-ancestors *") {
			t.Fatalf("CSP %q", p)
		}
	})
	t.Run("RevalidationAnswers304", func(t *testing.T) {
		r := do(t, h, "GET", "/style.css", "")
		r2 := do(t, h, "GET", "/style.css", "", "If-None-Match", r.Header.Get("ETag"))
		if r2.StatusCode != http.StatusNotModified {
			t.Fatalf("status %d, want 304", r2.StatusCode)
		}
	})
	t.Run("HeadHasNoBody", func(t *testing.T) {
		r := do(t, h, "HEAD", "/main.wasm", "")
		if r.StatusCode != http.StatusOK || readAll(t, r) != "" {
			t.Fatalf("HEAD: status %d", r.StatusCode)
		}
	})
	t.Run("UnknownFileIs404Page", func(t *testing.T) {
		r := do(t, h, "GET", "/nope.txt", "")
		if r.StatusCode != http.StatusNotFound || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("status %d type %q", r.StatusCode, r.Header.Get("Content-Type"))
		}
		if body := readAll(t, r); !strings.Contains(body, "/nope.txt") {
			t.Fatalf("404 page does not name the path: %s", body)
		}
	})
	t.Run("NothingOutsideTheStaticFiles", func(t *testing.T) {
		for _, p := range []string{"/../site.go", "/static/index.html", "/%2e%2e/go.mod", "/./../doc.go"} {
			r := do(t, h, "GET", p, "")
			if r.StatusCode == http.StatusOK || strings.Contains(readAll(t, r), "package site") {
				t.Errorf("%s: status %d, want a redirect or 404", p, r.StatusCode)
			}
		}
	})
	t.Run("PostIsNotAllowed", func(t *testing.T) {
		if r := do(t, h, "POST", "/index.html", "x"); r.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("status %d, want 405", r.StatusCode)
		}
	})
}

func TestGzip(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	tests := []struct {
		name, accept string
		gz           bool
	}{
		{"Gzip", "gzip", true},
		{"BrowserList", "gzip, deflate, br, zstd", true},
		{"Star", "*", true},
		{"Refused", "gzip;q=0, identity", false},
		{"Other", "br", false},
		{"QualityWithSpaces", "br;q=1.0, gzip ; q=0.5", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", tt.accept)
			body := readAll(t, r)
			if got := r.Header.Get("Content-Encoding") == "gzip"; got != tt.gz {
				t.Fatalf("Content-Encoding %q, want gzip %v", r.Header.Get("Content-Encoding"), tt.gz)
			}
			if r.Header.Get("Content-Type") != "application/wasm" || r.Header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("Content-Type %q Vary %q", r.Header.Get("Content-Type"), r.Header.Get("Vary"))
			}
			if !tt.gz {
				if body != string(fakeWasm) {
					t.Fatal("identity body differs")
				}
				return
			}
			if len(body) >= len(fakeWasm)/10 {
				t.Errorf("gzip body is %d bytes of %d", len(body), len(fakeWasm))
			}
			zr, err := gzip.NewReader(strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(plain, fakeWasm) {
				t.Fatalf("gzip body does not decode to the file (%v)", err)
			}
			if r.Header.Get("Content-Length") != "" && r.Header.Get("Content-Length") != itoa(len(body)) {
				t.Errorf("Content-Length %s, body %d", r.Header.Get("Content-Length"), len(body))
			}
		})
	}
	t.Run("CompressedOnceAndCached", func(t *testing.T) {
		hd := New(Options{Static: built()}).(*handler)
		readAll(t, do(t, hd, "GET", "/main.wasm", "", "Accept-Encoding", "gzip"))
		first := hd.assets["main.wasm"].gz
		readAll(t, do(t, hd, "GET", "/main.wasm", "", "Accept-Encoding", "gzip"))
		if first == nil || &first[0] != &hd.assets["main.wasm"].gz[0] {
			t.Fatal("main.wasm was compressed again")
		}
	})
	t.Run("GzipETagDiffersFromIdentity", func(t *testing.T) {
		a := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", "gzip")
		b := do(t, h, "GET", "/main.wasm", "")
		if a.Header.Get("ETag") == b.Header.Get("ETag") {
			t.Fatal("gzip and identity share an ETag")
		}
		c := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", "gzip", "If-None-Match", a.Header.Get("ETag"))
		if c.StatusCode != http.StatusNotModified {
			t.Fatalf("revalidating the gzip answer: %d", c.StatusCode)
		}
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestNotBuilt(t *testing.T) {
	t.Parallel()
	files := built()
	delete(files, "main.wasm")
	delete(files, "wasm_exec.js")
	h := New(Options{Static: files})
	for _, p := range []string{"/", "/index.html", "/main.wasm", "/wasm_exec.js"} {
		t.Run(p, func(t *testing.T) {
			r := do(t, h, "GET", p, "")
			body := readAll(t, r)
			if r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "make wasm") {
				t.Fatalf("status %d body %q, want 503 saying make wasm", r.StatusCode, body)
			}
			if r.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", r.Header.Get("Cache-Control"))
			}
		})
	}
	t.Run("TheRestStillWorks", func(t *testing.T) {
		for _, p := range []string{"/style.css", "/api/scenarios", "/healthz"} {
			if r := do(t, h, "GET", p, ""); r.StatusCode != http.StatusOK {
				t.Errorf("%s: status %d", p, r.StatusCode)
			}
		}
	})
}

func TestEmbedded(t *testing.T) {
	t.Parallel()
	h := New(Options{})
	for _, p := range []string{"/style.css", "/app.js", "/favicon.svg"} {
		if r := do(t, h, "GET", p, ""); r.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", p, r.StatusCode)
		}
	}
	r := do(t, h, "GET", "/", "")
	body := readAll(t, r)
	switch r.StatusCode {
	case http.StatusOK:
		for _, id := range []string{"scenario-picker", "editor", "graph", "step-slider", "ready-line", "dlq", "event-log", "command", "strategy", "visits", "share-link", "embed-snippet"} {
			if !strings.Contains(body, `id="`+id+`"`) {
				t.Errorf("index.html lacks #%s", id)
			}
		}
	case http.StatusServiceUnavailable: // built before make wasm
	default:
		t.Fatalf("/: status %d", r.StatusCode)
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	r := do(t, New(Options{Static: built()}), "GET", "/healthz", "")
	if body := readAll(t, r); r.StatusCode != http.StatusOK || body != "ok\n" || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("status %d body %q cache %q", r.StatusCode, body, r.Header.Get("Cache-Control"))
	}
}

func TestScenariosAPI(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	t.Run("List", func(t *testing.T) {
		r := do(t, h, "GET", "/api/scenarios", "")
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("status %d type %q", r.StatusCode, r.Header.Get("Content-Type"))
		}
		var got []struct{ Name, Title string }
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		lib := scenario.Library()
		if len(got) != len(lib) {
			t.Fatalf("%d scenarios, want %d", len(got), len(lib))
		}
		for i, e := range lib {
			if got[i].Name != e.Name || got[i].Title != e.Title {
				t.Errorf("entry %d: %+v, want %s %q", i, got[i], e.Name, e.Title)
			}
		}
	})
	t.Run("OneAsText", func(t *testing.T) {
		r := do(t, h, "GET", "/api/scenarios/tricky-cycle", "")
		e, _ := scenario.Lookup("tricky-cycle")
		if body := readAll(t, r); r.StatusCode != http.StatusOK || body != e.Text {
			t.Fatalf("status %d body %.40q", r.StatusCode, body)
		}
		if r.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		}
	})
	t.Run("UnknownIs404JSON", func(t *testing.T) {
		r := do(t, h, "GET", "/api/scenarios/nope", "")
		var got map[string]string
		json.NewDecoder(r.Body).Decode(&got)
		if r.StatusCode != http.StatusNotFound || got["error"] != `no scenario "nope"` {
			t.Fatalf("status %d body %v", r.StatusCode, got)
		}
	})
	t.Run("WrongMethodIs405", func(t *testing.T) {
		r := do(t, h, "POST", "/api/scenarios", "x")
		if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
			t.Fatalf("status %d Allow %q", r.StatusCode, r.Header.Get("Allow"))
		}
	})
	t.Run("UnknownAPIIs404", func(t *testing.T) {
		if r := do(t, h, "GET", "/api/nope", ""); r.StatusCode != http.StatusNotFound {
			t.Fatalf("status %d", r.StatusCode)
		}
	})
}

func TestRunAPI(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	const script = "submit b a\nsubmit a\nnext\ncomplete a\nexpect b READY\n"
	t.Run("AnswersTheJSONTrace", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run", script)
		body := readAll(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/x-ndjson; charset=utf-8" {
			t.Fatalf("status %d type %q: %s", r.StatusCode, r.Header.Get("Content-Type"), body)
		}
		s, _ := scenario.Parse(script)
		tr, _ := scenario.Run(s, scenario.Options{})
		var want bytes.Buffer
		scenario.WriteJSON(&want, tr)
		if body != want.String() {
			t.Fatalf("trace\n%s\nwant\n%s", body, want.String())
		}
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("Cache-Control %q", r.Header.Get("Cache-Control"))
		}
	})
	t.Run("StrategyChangesOnlyVisits", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run?strategy=pk", script)
		if body := readAll(t, r); r.StatusCode != http.StatusOK || strings.Count(body, "\n") != 5 {
			t.Fatalf("status %d: %s", r.StatusCode, body)
		}
	})
	t.Run("Gzip", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run", script, "Accept-Encoding", "gzip")
		if r.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q", r.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if strings.Count(string(plain), "\n") != 5 || !strings.HasPrefix(string(plain), `{"line":1,"cmd":"submit"`) {
			t.Fatalf("trace %s", plain)
		}
	})
	t.Run("SyntaxErrorIs400WithLineAndCol", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run", "submit a\nnext now\n")
		var got struct {
			Error     string
			Line, Col int
		}
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		if r.StatusCode != http.StatusBadRequest || got.Line != 2 || got.Col != 6 || !strings.Contains(got.Error, "next takes no arguments") {
			t.Fatalf("status %d %+v", r.StatusCode, got)
		}
	})
	t.Run("UnknownStrategyIs400", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run?strategy=nope", script)
		var got map[string]any
		json.NewDecoder(r.Body).Decode(&got)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(got["error"].(string), "unknown strategy") {
			t.Fatalf("status %d %v", r.StatusCode, got)
		}
	})
	t.Run("FailedExpectAnswersTheTraceUpToIt", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run", "submit a\nexpect a DEAD\nnext\n")
		body := readAll(t, r)
		if r.StatusCode != http.StatusOK || strings.Count(body, "\n") != 2 {
			t.Fatalf("status %d: %s", r.StatusCode, body)
		}
		if got := r.Trailer.Get("Dagq-Stopped"); got != "2:1: expect a DEAD: got READY" {
			t.Fatalf("Dagq-Stopped %q", got)
		}
	})
	t.Run("TooLargeIs413", func(t *testing.T) {
		r := do(t, h, "POST", "/api/run", strings.Repeat("next\n", MaxScript/5+1))
		if r.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d", r.StatusCode)
		}
	})
	t.Run("GetIs405", func(t *testing.T) {
		r := do(t, h, "GET", "/api/run", "")
		if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "POST" {
			t.Fatalf("status %d Allow %q", r.StatusCode, r.Header.Get("Allow"))
		}
	})
}
