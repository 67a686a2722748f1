// Package site serves the dagq playground: one [http.Handler] with the
// static files of the page (embedded from static/, the WebAssembly build
// included once `make wasm` has made it) and a small API over the scenario
// library and runner.
//
//	GET  /                        the playground (index.html)
//	GET  /main.wasm, /style.css…  static files; gzip-compressed when the client accepts it
//	GET  /api/scenarios           the library: [{"name":…,"title":…}]
//	GET  /api/scenarios/{name}    one scenario's text
//	POST /api/run?strategy=NAME   run the script in the body; the JSON-lines trace
//	GET  /healthz                 "ok"
//
// POST /api/run answers a script that does not parse with 400 and
// {"error":…,"line":…,"col":…}; a run stopped by a failed expect answers
// the trace up to it (its last line has "ok":false) with the expect's error
// in the Dagq-Stopped header.
//
// The handler reads nothing but its embedded files, so the same handler
// runs under `wq serve` and inside a Cloudflare worker.
package site
