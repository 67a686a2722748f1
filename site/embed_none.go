//go:build dagq_noembed

package site

import "embed"

// embedded is empty: built with -tags dagq_noembed, the site embeds none of
// static/, so a program that serves the files some other way does not carry
// them. The Cloudflare worker (site/worker) is built so: Workers static
// assets serve the page and main.wasm, and only what they do not have
// reaches the handler, which then answers as if `make wasm` had not run.
var embedded embed.FS
