//go:build unix

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeapUnderNode runs TestHeapOfHostileRequests (heap_js_test.go): the
// worker's handler built for js/wasm, as Workers runs it, under node, with
// each hostile input of the bounded-memory attacks, its Go heap held to
// 64 MB. It needs node, which the worker's other tests need too.
func TestHeapUnderNode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("the heap test runs the js/wasm handler under node, which is not installed")
	}
	if testing.Short() {
		t.Skip("builds and runs the worker under node: not with -short")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	execWasm := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
	cmd := exec.Command("go", "test", "-count=1", "-tags", "dagq_noembed dagq_heaptest",
		"-exec", execWasm, "-run", "^TestHeapOfHostileRequests$", "-v", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, "Go heap") || strings.Contains(line, "heap_js_test.go") {
			t.Log(strings.TrimSpace(line))
		}
	}
	if err != nil {
		t.Fatalf("the js/wasm heap test failed: %v\n%s", err, out)
	}
}
