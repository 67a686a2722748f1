package site_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/dagq/dagq/site"
)

// The handler serves the playground and its API; here the API runs a
// script with a typo, and reads a scenario of the library.
func ExampleNew() {
	h := site.New(site.Options{})

	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/run", strings.NewReader("submit a\nsumbit b a\n"))
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	h.ServeHTTP(rec, req)
	fmt.Print(rec.Code, " ", rec.Body.String())

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/scenarios/tricky-cycle", nil))
	title, _, _ := strings.Cut(rec.Body.String(), "\n")
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), title)
	// Output:
	// 400 {"error":"unknown command \"sumbit\" (want attempts, strategy, submit, next, complete, fail, redrive, expect, lease, backoff, jitter, advance or heartbeat)","line":2,"col":1}
	// 200 text/plain; charset=utf-8 # A cycle closed through tasks that arrived first
}
