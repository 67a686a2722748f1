//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says how to build the worker: it runs only on Cloudflare Workers
// (or wrangler dev). Built natively it exists so that go vet ./... and
// go build ./... cover it, and so that its test can call handler.
func main() {
	fmt.Fprintln(os.Stderr, "worker: the site's Cloudflare worker runs under wrangler: make worker builds it, make worker-dev serves it")
	os.Exit(2)
}
