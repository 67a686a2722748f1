// Command worker is the dagq site on Cloudflare Workers: the handler of
// package site, the same one `wq serve` runs, served with
// github.com/syumai/workers from a Go program built for js/wasm.
//
// The page and the playground's main.wasm are Workers static assets, not
// part of the worker: `make worker` gathers them in build/assets (with
// _headers, which gives the page the headers site gives it), builds the
// worker itself into build/worker with the glue that workers-assets-gen
// writes, and wrangler.jsonc ties the two together. `make worker-dev`
// serves both with wrangler dev on 127.0.0.1; `npx wrangler deploy`, from
// this directory after `make worker`, deploys them.
//
// Workers static assets serve a file as it is, so entry.mjs, the worker's
// entry, answers /main.wasm itself (wrangler.jsonc routes it there first):
// with main.wasm.br or main.wasm.gz, written beside it by `make worker`,
// sent as they are (encodeBody "manual"), the rest going to the Go program.
//
// Workers runs a new instance of the Go program for every request, so the
// worker keeps no state between requests. A worker has 128 MB of memory:
// the limits of its runs ([Limits]) are sized for it, tighter than
// site's defaults (a tenth of the tasks, an eighth of the output), and
// its time limit is site's ([site.DefaultRunTimeout]).
package main
