package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The handler's own rules, natively and fast; worker_test.go runs the
// worker itself.

func TestHandlerLeavesCompressionToWorkers(t *testing.T) {
	t.Parallel()
	req := httptest.NewRequest(http.MethodPost, "/api/run", strings.NewReader("submit a\nnext\ncomplete a\n"))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	handler().ServeHTTP(w, req)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "" {
		t.Fatalf("POST /api/run accepting gzip: %d, Content-Encoding %q; want 200 and no encoding (Workers compresses)",
			w.Code, w.Header().Get("Content-Encoding"))
	}
	if !strings.HasPrefix(w.Body.String(), `{"line":1,`) {
		t.Errorf("the trace is not plain JSON lines: %.80q", w.Body.String())
	}
}

func TestHandlerTakesTheHostFromTheURLWhenNoHostHeaderCame(t *testing.T) {
	t.Parallel()
	req := httptest.NewRequest(http.MethodPost, "https://dagq.example/api/run", strings.NewReader("submit a\n"))
	req.Host = ""
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Origin", "https://dagq.example")
	w := httptest.NewRecorder()
	handler().ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Errorf("POST /api/run from the site's own page, no Host header: %d %s, want 200", w.Code, w.Body)
	}
}

// countingWriter counts the writes that reach it.
type countingWriter struct {
	*httptest.ResponseRecorder
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.ResponseRecorder.Write(p)
}

func TestNoEmptyWritesDropsOnlyWritesOfNoBytes(t *testing.T) {
	t.Parallel()
	c := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	w := noEmptyWrites{c}
	for _, s := range []string{"", "a", "", "bc", ""} {
		if n, err := io.WriteString(w, s); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if c.writes != 2 || c.Body.String() != "abc" {
		t.Errorf("%d writes reached the writer, with %q; want 2, with \"abc\"", c.writes, c.Body.String())
	}
	if http.NewResponseController(w).Flush() != nil {
		t.Error("the writer underneath is not reachable: Flush failed")
	}
}
