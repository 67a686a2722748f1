package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the dagq checkout the tests run in.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil || !isDagqRoot(root) {
		t.Fatalf("no dagq checkout at %s: %v", root, err)
	}
	return root
}

// goTest runs go test in dir and returns its output and whether it passed.
func goTest(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off") // as a newcomer's go runs it
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("go test: %v", err)
	}
	return string(out), err == nil
}

// TestPracticeInitStubFailsTheFirstRule: the module `wq practice init`
// writes builds against this checkout, and its test fails the stub queue
// at the first rule of L4, readably: the rule, the script, what each
// queue did, the playground link.
func TestPracticeInitStubFailsTheFirstRule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a new module")
	}
	for _, level := range []string{"L4", "L6"} {
		t.Run(level, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "my-queue")
			var stdout bytes.Buffer
			if err := run([]string{"practice", "init", "--level", level, "--dagq", repoRoot(t), dir}, &stdout, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stdout.String(), "cd "+dir+" && go test") {
				t.Errorf("it does not say what to do next: %s", stdout.String())
			}
			mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
			for _, want := range []string{"module example.com/myqueue\n", "go " + goLine + "\n", "replace github.com/dagq/dagq => " + repoRoot(t) + "\n"} {
				if !strings.Contains(string(mod), want) {
					t.Errorf("go.mod lacks %q:\n%s", want, mod)
				}
			}
			out, ok := goTest(t, dir)
			if after, _ := os.ReadFile(filepath.Join(dir, "go.mod")); string(after) != string(mod) {
				t.Errorf("go test had to change go.mod:\n%s\nto\n%s", mod, after)
			}
			if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil {
				t.Error("go test needed a go.sum")
			}
			if ok {
				t.Fatalf("the stub passes:\n%s", out)
			}
			for _, want := range []string{
				"--- FAIL: TestQueue/L4/ReadyAtOnce",
				"A task without dependencies is READY at once.",
				"\tsubmit a\n", "\texpect a READY\n",
				"your queue: refused: not implemented",
				"http://localhost:8080/#script=",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("go test's output lacks %q:\n%s", want, out)
				}
			}
			// One rule fails, the first; the others wait for it.
			if n := strings.Count(out, "--- FAIL: TestQueue/"); n != 1 {
				t.Errorf("%d rules fail, want the first alone:\n%s", n, out)
			}
			// The first failure is the first thing that says FAIL.
			sc := bufio.NewScanner(strings.NewReader(out))
			for sc.Scan() {
				if strings.Contains(sc.Text(), "FAIL") {
					if !strings.Contains(sc.Text(), "TestQueue") {
						t.Errorf("the first failure is %q", sc.Text())
					}
					break
				}
			}
			if level == "L4" {
				t.Logf("go test in the new module:\n%s", out)
			}
		})
	}
}

// TestPracticeInitLeavesThingsAlone: a directory with anything in it is
// refused, and left as it was; a bad flag writes nothing.
func TestPracticeInitLeavesThingsAlone(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"practice", "init", "--dagq", repoRoot(t), dir}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a directory with a file in it: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if b, _ := os.ReadFile(mine); len(entries) != 1 || string(b) != "mine" {
		t.Errorf("the directory changed: %v", entries)
	}
	for _, args := range [][]string{
		{"practice", "init", "--level", "L9", filepath.Join(dir, "a")},
		{"practice", "init", "--dagq", dir, filepath.Join(dir, "b")},
		{"practice", "init", "--module", "Not A Path", filepath.Join(dir, "c")},
		{"practice", "init"},
		{"practice"},
	} {
		err := run(args, &bytes.Buffer{}, &bytes.Buffer{})
		if exitCode(err) != exitUsage {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a refused init wrote %v", entries)
	}
}

// TestPracticeInitFindsItsDagq: inside a checkout the module replaces
// dagq with it; given a version, it requires that version and replaces
// nothing; and the go line is dagq's own.
func TestPracticeInitFindsItsDagq(t *testing.T) {
	root := repoRoot(t)
	replace, version, err := whichDagq("")
	if err != nil || replace != root || version != "" {
		t.Errorf("inside the checkout: %q, %q, %v; want %q", replace, version, err, root)
	}
	dir := filepath.Join(t.TempDir(), "q")
	var stdout bytes.Buffer
	if err := run([]string{"practice", "init", "--dagq", "v0.3.0", "--module", "example.org/me/queue", dir}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "go mod tidy && go test") {
		t.Errorf("a published dagq needs go mod tidy first, and it does not say so: %s", stdout.String())
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(mod), "require github.com/dagq/dagq v0.3.0\n") || strings.Contains(string(mod), "replace") ||
		!strings.HasPrefix(string(mod), "module example.org/me/queue\n") {
		t.Errorf("go.mod with --dagq v0.3.0:\n%s", mod)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "queue.go"))
	if !strings.Contains(string(src), "package queue\n") {
		t.Errorf("queue.go's package is not queue:\n%s", src)
	}
	ours, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.Contains(string(ours), "\ngo "+goLine+"\n") {
		t.Errorf("dagq's go.mod does not say go %s", goLine)
	}
}
