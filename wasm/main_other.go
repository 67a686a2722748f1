//go:build !(js && wasm)

// Command wasm is the dagq playground; it runs only in a browser. Built
// natively it says how to build it, so that go vet ./... and go build ./...
// cover the module on every platform.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "wasm: the playground runs in a browser: build it with GOOS=js GOARCH=wasm (make wasm)")
	os.Exit(2)
}
