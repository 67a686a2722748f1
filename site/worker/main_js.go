//go:build js && wasm && !dagq_heaptest

package main

import "github.com/syumai/workers"

func main() {
	workers.Serve(handler())
}
