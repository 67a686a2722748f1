package main

import (
	"net/http"

	"github.com/dagq/dagq/site"
)

// handler is the site's handler as the worker serves it. Built with
// -tags dagq_noembed, package site carries none of its static files:
// Workers static assets serve them (wrangler.jsonc), and a request reaches
// the worker only for a path that no asset has.
//
// The worker is instantiated afresh for every request, so nothing may be
// kept between requests; nothing is: every route of site is stateless.
func handler() http.Handler {
	h := site.New(site.Options{})
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
