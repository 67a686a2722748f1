// Package golden compares what a test produced with a file it keeps under
// testdata, the way dagq's golden tests do: with -update the file is
// rewritten; on a difference the new output is written beside it as
// NAME.got, the first differing line is shown, and the message says which
// command accepts the change.
//
//	func TestTrace(t *testing.T) {
//		golden.Check(t, "testdata/trace.txt", got, "go test ./cmd/wq -run TestTrace -update")
//	}
package golden

import (
	"bytes"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// Update reports whether the test binary was run with -update: golden
// files (and whatever else a test generates from the code) are to be
// rewritten instead of compared.
func Update() bool { return *update }

// Check compares got with the golden file at path, or rewrites the file
// with -update. accept is the command that accepts a change; it is printed
// with every failure.
func Check(t testing.TB, path string, got []byte, accept string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(path + ".got")
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\naccept with: %s", err, accept)
	}
	if bytes.Equal(got, want) {
		os.Remove(path + ".got")
		return
	}
	if err := os.WriteFile(path+".got", got, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Errorf("%s differs from the output, now in %s.got\n%s\nsee: diff %s %s.got\naccept with: %s",
		path, path, FirstDifference(want, got), path, path, accept)
}

// FirstDifference describes the first line where want and got differ, or
// returns "" if they are equal.
func FirstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  golden: " + a + "\n     got: " + b
		}
	}
	return ""
}
