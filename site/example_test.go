package site_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/dagq/dagq/site"
)

// The handler serves the playground and its API; here the API runs a
// script with a mistake, and reads a scenario of the library.
func ExampleNew() {
	h := site.New(site.Options{})

	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/run", strings.NewReader("submit a\nnext b\n"))
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	h.ServeHTTP(rec, req)
	fmt.Print(rec.Code, " ", rec.Body.String())

	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/scenarios/tricky-cycle", nil))
	title, _, _ := strings.Cut(rec.Body.String(), "\n")
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), title)
	// Output:
	// 400 {"error":"next takes no arguments, got \"b\"","line":2,"col":6}
	// 200 text/plain; charset=utf-8 # A cycle closed through tasks that arrived first
}
