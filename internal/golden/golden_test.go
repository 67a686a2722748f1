package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, f) }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(path, []byte("a\nb\n"), 0o644)

	r := &recorder{TB: t}
	Check(r, path, []byte("a\nb\n"), "accept-it")
	if len(r.errors) != 0 {
		t.Fatalf("equal output failed: %v", r.errors)
	}
	Check(r, path, []byte("a\nc\n"), "accept-it")
	if len(r.errors) != 1 {
		t.Fatalf("different output: %d failures, want 1", len(r.errors))
	}
	if got, _ := os.ReadFile(path + ".got"); string(got) != "a\nc\n" {
		t.Errorf(".got holds %q, want the new output", got)
	}
	if d := FirstDifference([]byte("a\nb\n"), []byte("a\nc\n")); !strings.HasPrefix(d, "line 2:") {
		t.Errorf("FirstDifference = %q, want line 2", d)
	}
	Check(r, path, []byte("a\nb\n"), "accept-it")
	if _, err := os.Stat(path + ".got"); err == nil {
		t.Error("a matching run left the stale .got behind")
	}
}
