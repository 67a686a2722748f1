package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitMsgHook runs .githooks/commit-msg, which make hooks installs,
// on messages whose subjects are 72 and 73 characters long (letters of two
// bytes among them, which count as one), and on one that opens with a
// comment.
func TestCommitMsgHook(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	hook, err := filepath.Abs(filepath.Join(root, ".githooks", "commit-msg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		msg string
		ok  bool
	}{
		{"core: " + strings.Repeat("é", 66) + "\n\nThe body may be as long as it likes.\n", true},
		{"core: " + strings.Repeat("é", 67) + "\n", false},
		{"# a comment git strips\n\ncore: a short subject\n", true},
	} {
		file := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
		if err := os.WriteFile(file, []byte(c.msg), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(sh, hook, file).CombinedOutput()
		if (err == nil) != c.ok {
			t.Errorf("commit-msg on %q: %v, want accepted %v\n%s", c.msg, err, c.ok, out)
		}
	}
}
