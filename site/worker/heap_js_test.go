//go:build js && wasm && dagq_heaptest

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/hostile"
)

// heapBudget is the most Go heap the worker may take for any single
// request: half of an isolate's 128 MB.
const heapBudget = 64 << 20

// TestHeapOfHostileRequests runs the worker's handler, built for js/wasm,
// under node (TestHeapUnderNode starts it), with each hostile input of the
// bounded-memory attacks, and checks the heap Go took from the system:
// under wasm it never gives any back, so that after every request it is
// the peak so far. Were 1,192 MB for a 100 KB POST and 4 GB for a 64 KB
// picture.
func TestHeapOfHostileRequests(t *testing.T) {
	h := handler()
	picture := hostile.FanOutRedriven()
	tests := []struct {
		name, method, target, body string
		codes                      []int
	}{
		{"NameOver256Bytes", "POST", "/api/run", hostile.LongRoot(100<<10, 100<<10), []int{400}},
		{"LongestNamesOnEveryLine", "POST", "/api/run", hostile.LongRoot(256, 1<<20), []int{200}},
		{"RepeatedLongCycles", "POST", "/api/run", hostile.Fill(hostile.ChainOf(9000, "x"), "submit x c9000\n"), []int{200}},
		{"OutputAmplification", "POST", "/api/run", hostile.Submits(1 << 20), []int{200}},
		{"PictureOfMillionsOfEvents", "GET", "/svg" + hostile.SVGQuery(picture, false), "", []int{400}},
		{"AnimationOfMillionsOfEvents", "GET", "/svg" + hostile.SVGQuery(picture, true), "", []int{400}},
		{"PictureOfTooManyTasks", "GET", "/svg" + hostile.SVGQuery(shortSubmits(64<<10), true), "", []int{400}},
		{"PictureOf4000Tasks", "GET", "/svg" + hostile.SVGQuery(hostile.Submits(60<<10), true), "", []int{200}},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
		req.Header.Set("Content-Type", "text/plain")
		w := &discard{header: http.Header{}, code: 200}
		h.ServeHTTP(w, req)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		t.Logf("%s: %d, %d bytes (%s); Go heap %d MB", tt.name, w.code, w.n, clip(w.first.String()), m.HeapSys>>20)
		if !contains(tt.codes, w.code) {
			t.Errorf("%s: answered %d, want %v", tt.name, w.code, tt.codes)
		}
		if m.HeapSys > heapBudget {
			t.Errorf("%s: the Go heap reached %d MB, over %d MB", tt.name, m.HeapSys>>20, heapBudget>>20)
		}
	}
}

// discard is a ResponseWriter that keeps the status, counts the body and
// keeps its first 200 bytes.
type discard struct {
	header http.Header
	code   int
	n      int
	first  strings.Builder
}

func (d *discard) Header() http.Header  { return d.header }
func (d *discard) WriteHeader(code int) { d.code = code }
func (d *discard) Write(p []byte) (int, error) {
	if d.first.Len() < 200 {
		d.first.Write(p[:min(len(p), 200-d.first.Len())])
	}
	d.n += len(p)
	return len(p), nil
}

func contains(codes []int, c int) bool {
	for _, x := range codes {
		if x == c {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// shortSubmits returns up to size bytes of independent submits of short
// names: more tasks than a picture may draw.
func shortSubmits(size int) string {
	var b strings.Builder
	for i := 0; b.Len()+len("submit t99999\n") <= size; i++ {
		fmt.Fprintf(&b, "submit t%d\n", i)
	}
	return b.String()
}
