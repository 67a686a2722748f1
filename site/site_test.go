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

	"github.com/andybalholm/brotli"

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

// compressed returns data in coding name ("br" or "gzip").
func compressed(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	if name == "br" {
		w = brotli.NewWriterLevel(&b, brotli.BestCompression)
	} else {
		w, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// decoded returns body decoded from the coding name ("", "br" or "gzip").
func decoded(t *testing.T, name, body string) []byte {
	t.Helper()
	var r io.Reader = strings.NewReader(body)
	switch name {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("the %s body does not decode: %v", name, err)
	}
	return plain
}

func TestContentCoding(t *testing.T) {
	t.Parallel()
	pre := built()
	br, gz := compressed(t, "br", fakeWasm), compressed(t, "gzip", fakeWasm)
	pre["main.wasm.br"] = &fstest.MapFile{Data: br}
	pre["main.wasm.gz"] = &fstest.MapFile{Data: gz}
	// A file whose compressed bodies were left by an earlier build.
	pre["app.js"] = &fstest.MapFile{Data: bytes.Repeat([]byte("'use strict'; "), 100)}
	pre["app.js.br"] = &fstest.MapFile{Data: compressed(t, "br", []byte("'use strict'; stale"))}
	pre["app.js.gz"] = &fstest.MapFile{Data: compressed(t, "gzip", []byte("'use strict'; stale"))}
	trees := []struct {
		name  string
		files fstest.MapFS
		// bodies are the precompressed bodies the site must answer with, by coding.
		bodies map[string][]byte
	}{
		{"GzippedOnDemand", built(), nil},
		{"Precompressed", pre, map[string][]byte{"br": br, "gzip": gz}},
	}
	tests := []struct {
		name, accept            string
		precompressed, onDemand string // the coding answered with
	}{
		{"Gzip", "gzip", "gzip", "gzip"},
		{"BrowserList", "gzip, deflate, br, zstd", "br", "gzip"},
		{"Star", "*", "br", "gzip"},
		{"Refused", "gzip;q=0, identity", "", ""},
		{"BrOnly", "br", "br", ""},
		{"BrRefused", "br;q=0, *", "gzip", "gzip"},
		{"QualityWithSpaces", "br;q=1.0, gzip ; q=0.5", "br", "gzip"},
		{"StarRefusedGzipNamed", "gzip, *;q=0", "gzip", "gzip"},
		{"None", "", "", ""},
	}
	for _, tree := range trees {
		h := New(Options{Static: tree.files})
		for _, tt := range tests {
			t.Run(tree.name+"/"+tt.name, func(t *testing.T) {
				want := tt.onDemand
				if tree.bodies != nil {
					want = tt.precompressed
				}
				r := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", tt.accept)
				body := readAll(t, r)
				if got := r.Header.Get("Content-Encoding"); got != want {
					t.Fatalf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.accept, got, want)
				}
				if r.Header.Get("Content-Type") != "application/wasm" || r.Header.Get("Vary") != "Accept-Encoding" {
					t.Fatalf("Content-Type %q Vary %q", r.Header.Get("Content-Type"), r.Header.Get("Vary"))
				}
				if !bytes.Equal(decoded(t, want, body), fakeWasm) {
					t.Fatalf("the %q body does not decode to the file", want)
				}
				if want != "" && len(body) >= len(fakeWasm)/10 {
					t.Errorf("the %s body is %d bytes of %d", want, len(body), len(fakeWasm))
				}
				if pre, ok := tree.bodies[want]; ok && body != string(pre) {
					t.Errorf("the %s body is not main.wasm%s", want, map[string]string{"br": ".br", "gzip": ".gz"}[want])
				}
				if r.Header.Get("Content-Length") != "" && r.Header.Get("Content-Length") != itoa(len(body)) {
					t.Errorf("Content-Length %s, body %d", r.Header.Get("Content-Length"), len(body))
				}
			})
		}
	}
	t.Run("StaleBodiesAreNotServed", func(t *testing.T) {
		h := New(Options{Static: pre})
		r := do(t, h, "GET", "/app.js", "", "Accept-Encoding", "br, gzip")
		body := readAll(t, r)
		if got := r.Header.Get("Content-Encoding"); got != "gzip" {
			t.Fatalf("app.js, whose .br is stale: Content-Encoding %q, want gzip, compressed on demand", got)
		}
		if !bytes.Equal(decoded(t, "gzip", body), pre["app.js"].Data) {
			t.Fatal("app.js was answered with its stale .gz")
		}
	})
	t.Run("CompressedOnceAndCached", func(t *testing.T) {
		hd := New(Options{Static: built()}).(*handler)
		readAll(t, do(t, hd, "GET", "/main.wasm", "", "Accept-Encoding", "gzip"))
		first := hd.assets["main.wasm"].bodies[gzipIndex]
		readAll(t, do(t, hd, "GET", "/main.wasm", "", "Accept-Encoding", "gzip"))
		if first == nil || &first[0] != &hd.assets["main.wasm"].bodies[gzipIndex][0] {
			t.Fatal("main.wasm was compressed again")
		}
	})
	t.Run("ETagsDifferByCoding", func(t *testing.T) {
		h := New(Options{Static: pre})
		tags := map[string]string{}
		for _, accept := range []string{"br", "gzip", ""} {
			a := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", accept)
			tag := a.Header.Get("ETag")
			if other, ok := tags[tag]; ok {
				t.Fatalf("%q and %q share the ETag %s", other, accept, tag)
			}
			tags[tag] = accept
			c := do(t, h, "GET", "/main.wasm", "", "Accept-Encoding", accept, "If-None-Match", tag)
			if c.StatusCode != http.StatusNotModified {
				t.Fatalf("revalidating the %q answer: %d", accept, c.StatusCode)
			}
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
