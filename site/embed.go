//go:build !dagq_noembed

package site

import "embed"

// embedded holds static/: the page, its style and script, and, once `make
// wasm` has run, main.wasm and wasm_exec.js (which git ignores).
//
//go:embed static
var embedded embed.FS
