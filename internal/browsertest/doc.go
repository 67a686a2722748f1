// Package browsertest is test support for the pages dagq serves, driven in
// headless Chromium by chromedp (the site's browser tests and the worker's):
// [Watch] collects from a tab what must fail a browser test — a console
// error, an uncaught exception, or a console line telling of a Go panic or
// of the Go program having exited, which wasm_exec.js prints with
// console.log rather than as errors.
package browsertest
