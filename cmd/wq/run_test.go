package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of wq's output")

// TestGolden runs wq with each set of arguments and compares everything it
// says — stdout, stderr and the error main would print — with a golden file.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"help", []string{"help"}, ""},
		{"no-args", nil, ""},
		{"unknown-command", []string{"frobnicate"}, ""},
		{"strategies", []string{"strategies"}, ""},
		{"scenarios", []string{"scenarios"}, ""},
		{"scenario-text", []string{"scenarios", "tricky-cycle"}, ""},
		{"scenario-unknown", []string{"scenarios", "nope"}, ""},
		{"run-text", []string{"run", "testdata/retry.dagq"}, ""},
		{"run-json", []string{"run", "--json", "testdata/retry.dagq"}, ""},
		{"run-flag-after-file", []string{"run", "testdata/retry.dagq", "--json", "--strategy", "dfs"}, ""},
		{"run-stdin", []string{"run", "-"}, "submit b a\nsubmit a\nnext\ncomplete a\nexpect b READY\n"},
		{"run-syntax-error", []string{"run", "testdata/syntax.dagq"}, ""},
		{"run-expect-fails", []string{"run", "testdata/expect.dagq"}, ""},
		{"run-unknown-strategy", []string{"run", "--strategy", "nope", "testdata/retry.dagq"}, ""},
		{"run-missing-file", []string{"run", "testdata/missing.dagq"}, ""},
		{"run-two-files", []string{"run", "a", "b"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdin = strings.NewReader(tt.stdin)
			var stdout, stderr bytes.Buffer
			err := run(tt.args, &stdout, &stderr)
			var got bytes.Buffer
			got.WriteString("$ wq " + strings.Join(tt.args, " ") + "\n")
			got.Write(stdout.Bytes())
			if stderr.Len() > 0 {
				got.WriteString("--- stderr\n")
				got.Write(stderr.Bytes())
			}
			if err != nil {
				got.WriteString("--- wq: " + err.Error() + "\n")
			}
			checkGolden(t, filepath.Join("testdata", "golden", tt.name+".txt"), got.Bytes())
		})
	}
}

// checkGolden compares got with the golden file; on a difference it writes
// got beside it and says how to accept it.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (to create it: go test ./cmd/wq -run TestGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("output differs from %s; the new output is in %s.got\n"+
			"  see: diff %s %s.got\n  accept: go test ./cmd/wq -run TestGolden -update",
			path, path, path, path)
	}
}
