//go:build js && wasm && dagq_heaptest

package main

// main is empty in the build of the heap test (heap_js_test.go), which
// runs the handler under node: the workers package expects the Workers
// runtime's globals from its first moment, which node has not.
func main() {}
