package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
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
		{"run-limit", []string{"run", "--max-tasks", "2", "testdata/retry.dagq"}, ""},
		{"run-limit-json", []string{"run", "--json", "--max-steps", "3", "-"}, "submit a\nnext\nfail a boom\nnext\ncomplete a\n"},
		{"run-control-characters", []string{"run", "-"}, "attempts 1\nsubmit a\nnext\nfail a \x1b[31mred\x1b[0m \a\n"},
		{"run-bad-flag", []string{"run", "--max-tasks", "many", "testdata/retry.dagq"}, ""},
		{"run-negative-limit", []string{"run", "--max-tasks", "-1", "testdata/retry.dagq"}, ""},
		{"run-negative-output", []string{"run", "--max-output", "-5", "-"}, "submit a\n"},
		{"run-max-bytes", []string{"run", "--max-bytes", "20", "-"}, "submit a\nnext\ncomplete a\n"},
		{"run-max-bytes-file", []string{"run", "--max-bytes", "20", "testdata/retry.dagq"}, ""},
		{"run-max-bytes-zero", []string{"run", "--max-bytes", "0", "-"}, "submit a\n"},
		{"run-max-bytes-exact", []string{"run", "--max-bytes", "9", "-"}, "submit a\n"},
		{"run-bidi", []string{"run", "-"}, "attempts 1\nsubmit a\nnext\nfail a invoice\u202egpj.exe\n"},
		{"run-name-too-long", []string{"run", "-"}, "submit a " + strings.Repeat("b", 257) + "\n"},
		{"run-help", []string{"run", "-h"}, ""},
		{"svg-step", []string{"svg", "--step", "6", "testdata/retry.dagq"}, ""},
		{"svg-step-past-the-end", []string{"svg", "--step", "99", "testdata/retry.dagq"}, ""},
		{"svg-bad-step", []string{"svg", "--step", "soon", "-"}, "submit a\n"},
		{"svg-syntax-error", []string{"svg", "testdata/syntax.dagq"}, ""},
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
			fmt.Fprintf(&got, "--- exit %d\n", exitCode(err))
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".txt"), got.Bytes(), "go test ./cmd/wq -run TestGolden -update")
		})
	}
}

// TestReadmeAnimation keeps the README's animated picture, drawn by
// `wq svg --animate` from the diamond-redrive scenario, current.
func TestReadmeAnimation(t *testing.T) {
	e, ok := scenario.Lookup("diamond-redrive")
	if !ok {
		t.Fatal("no diamond-redrive scenario")
	}
	stdin = strings.NewReader(e.Text)
	var stdout, stderr bytes.Buffer
	if err := run([]string{"svg", "--animate", "-"}, &stdout, &stderr); err != nil {
		t.Fatalf("wq svg --animate: %v\n%s", err, stderr.String())
	}
	golden.Check(t, filepath.Join("..", "..", "site", "diamond-redrive.svg"), stdout.Bytes(), "go test ./cmd/wq -run TestReadmeAnimation -update")
}
