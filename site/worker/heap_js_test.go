//go:build js && wasm && dagq_heaptest

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/playground"
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
	picture := fanOutRedriven()
	tests := []struct {
		name, method, target, body string
		codes                      []int
	}{
		{"NameOver256Bytes", "POST", "/api/run", longRoot(100<<10, 100<<10), []int{400}},
		{"LongestNamesOnEveryLine", "POST", "/api/run", longRoot(256, 1<<20), []int{200}},
		{"RepeatedLongCycles", "POST", "/api/run", fill(chainOf(9000, "x"), "submit x c9000\n"), []int{200}},
		{"OutputAmplification", "POST", "/api/run", submits(1 << 20), []int{200}},
		{"PictureOfMillionsOfEvents", "GET", "/svg" + svgQuery(picture, false), "", []int{400}},
		{"AnimationOfMillionsOfEvents", "GET", "/svg" + svgQuery(picture, true), "", []int{400}},
		{"PictureOfTooManyTasks", "GET", "/svg" + svgQuery(shortSubmits(64<<10), true), "", []int{400}},
		{"PictureOf4000Tasks", "GET", "/svg" + svgQuery(submits(60<<10), true), "", []int{200}},
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

// The hostile inputs, as cmd/wq's attack tests make them.

// fanOutRedriven is a 2,500-task fan-out whose root fails and is redriven
// until the script is 64 KB: 7 million events.
func fanOutRedriven() string {
	var b strings.Builder
	b.WriteString("attempts 1\nsubmit r\n")
	for i := range 2500 {
		fmt.Fprintf(&b, "submit a%d r\n", i)
	}
	for b.Len()+len("next\nfail r\nredrive r\n") <= 64<<10 {
		b.WriteString("next\nfail r\nredrive r\n")
	}
	return b.String()
}

// svgQuery is the query of a picture of script, deflated as the
// playground's links are.
func svgQuery(script string, animate bool) string {
	enc, compressed := playground.EncodeScript(script)
	q := "?script=" + enc
	if compressed {
		q += "&enc=deflate"
	}
	if animate {
		q += "&animate=1"
	}
	return q
}

// longRoot is a root named with n bytes, a chain of dependents up to size
// bytes, then the root's death.
func longRoot(n, size int) string {
	root := strings.Repeat("r", n)
	var b strings.Builder
	fmt.Fprintf(&b, "attempts 1\nsubmit %s\nsubmit c1 %s\n", root, root)
	for i := 2; b.Len() < size-len("next\nfail  boom\n")-n-20; i++ {
		fmt.Fprintf(&b, "submit c%d c%d\n", i, i-1)
	}
	fmt.Fprintf(&b, "next\nfail %s boom\n", root)
	return b.String()
}

// chainOf submits a chain c1…cn, c1 waiting on first.
func chainOf(n int, first string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "submit c1 %s\n", first)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "submit c%d c%d\n", i, i-1)
	}
	return b.String()
}

// fill repeats line after head up to 1 MiB.
func fill(head, line string) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(line) <= 1<<20 {
		b.WriteString(line)
	}
	return b.String()
}

// submits returns at least size bytes of independent submits.
func submits(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "submit s%07d\n", i)
	}
	return b.String()
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
