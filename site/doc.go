// Package site serves the dagq playground: one [http.Handler] with the
// static files of the page (embedded from static/, the WebAssembly build
// included once `make wasm` has made it) and a small API over the scenario
// library and runner.
//
//	GET  /                        the playground (index.html)
//	GET  /main.wasm, /style.css…  static files, compressed as the client accepts (see below)
//	GET  /api/scenarios           the library: [{"name":…,"title":…}]
//	GET  /api/scenarios/{name}    one scenario's text
//	POST /api/run?strategy=NAME   run the script in the body; the JSON-lines trace
//	GET  /svg?scenario=NAME|script=…&step=N|end&animate=1&strategy=NAME
//	                              the scenario drawn at a step, or animated (image/svg+xml)
//	GET  /rubric                  what an answer to the interview question covers, level by level (HTML)
//	GET  /healthz                 "ok"
//
// POST /api/run takes the script as text/plain (at most [MaxScript] bytes)
// from the site's own pages or from a client that sends no Origin (curl, a
// program); [Options.Origins] adds others. It answers a script that does not
// parse with 400 and {"error":…,"line":…,"col":…}, and otherwise streams
// the trace as it runs. What one run may do is bounded ([DefaultLimits],
// [DefaultRunTimeout], the request's context), and so is how many run at
// once ([DefaultRuns]; the others wait [DefaultRunWait], then get 503 with
// Retry-After). A run stopped by a limit ends its trace with a line that
// says which; one stopped by a failed expect ends with that expect's step
// ("ok":false); either way the Dagq-Stopped trailer says why.
//
// A static file is answered in brotli, else gzip, as the request's
// Accept-Encoding allows. Brotli and gzip bodies come from FILE.br and
// FILE.gz beside the file, if they decompress to it: `make wasm` writes
// them for main.wasm with brotli at quality 11 (site/precompress), which a
// browser downloads at about a fifth of main.wasm's size. Other files are
// gzipped once, on first demand, and have no brotli body.
//
// The handler reads nothing but its embedded files, so the same handler
// runs under `wq serve` and inside a Cloudflare worker.
package site
