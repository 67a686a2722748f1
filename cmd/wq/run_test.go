package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/golden"
)

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
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".txt"), got.Bytes(), "go test ./cmd/wq -run TestGolden -update")
		})
	}
}
