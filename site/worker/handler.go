package main

import (
	"net/http"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/site"
)

// handler is the site's handler as the worker serves it. Built with
// -tags dagq_noembed, package site carries none of its static files:
// Workers static assets serve them (wrangler.jsonc), and a request reaches
// the worker only for a path that no asset has.
//
// The worker is instantiated afresh for every request, so nothing may be
// kept between requests; nothing is: every route of site is stateless.
// Its runs are bounded by Limits, sized for the 128 MB of an isolate.
func handler() http.Handler {
	h := site.New(site.Options{Limits: &Limits})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Workers compresses what a worker answers, as the client
		// accepts; a body that site had compressed already would be
		// compressed twice.
		r.Header.Del("Accept-Encoding")
		if r.Host == "" {
			// The origin check of POST /api/run compares the page's
			// Origin with the host it was served from.
			r.Host = r.URL.Host
		}
		h.ServeHTTP(noEmptyWrites{w}, r)
	})
}

// Limits bound each run of the worker (POST /api/run, GET /svg), sized
// for a Workers isolate's 128 MB: with a script of at most site.MaxScript
// bytes they keep the Go heap of any single request under 64 MB (its test
// runs the js/wasm handler under node with each hostile input of the
// bounded-memory attacks and checks so). A run's memory is about its
// tasks × 2 KB, plus its longest trace line, at most Output bytes.
var Limits = scenario.Limits{
	Tasks:  10_000,
	Steps:  100_000,
	Events: 500_000,
	Output: 8 << 20,
}

// noEmptyWrites drops writes of no bytes. workers turns the body into a
// ReadableStream whose pull reads the handler's writes one at a time; a
// pull that reads nothing enqueues nothing, and the stream then never
// pulls again, so the response hangs until Workers cancels it. A run's
// trace begins with such a write (the JSON trace has no header).
type noEmptyWrites struct{ http.ResponseWriter }

func (w noEmptyWrites) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the writer underneath.
func (w noEmptyWrites) Unwrap() http.ResponseWriter { return w.ResponseWriter }
