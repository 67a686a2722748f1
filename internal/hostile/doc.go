// Package hostile makes the scripts an attacker would send dagq's
// servers and command line: the inputs that once took `wq serve`, `wq run`
// or the Workers handler to gigabytes of memory or out of memory. The
// attack tests of cmd/wq (against real processes) and the heap test of
// site/worker (the js/wasm handler under node) send the same ones, so
// that every route is held to the same inputs.
//
// Every function returns a script in the scenario language, or a query of
// the site's /svg; none does any I/O.
package hostile
