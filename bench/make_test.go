package bench

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubsetBenchLeavesResultsAlone runs make bench on a subset, as an
// engineer comparing strategies would, in a copy of the module: it writes
// its results, its report and its plots under bench/results/NAME*, and
// leaves bench/RESULTS.md, every committed plot and every other results
// file byte for byte as they were. It needs make and git; -short skips it.
func TestSubsetBenchLeavesResultsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs make bench")
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here", tool)
		}
	}
	ls := exec.Command("git", "ls-files", "-co", "--exclude-standard")
	ls.Dir = ".."
	files, err := ls.Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	root := t.TempDir()
	for _, f := range strings.Fields(string(files)) {
		data, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			continue // deleted in the work tree
		}
		dst := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, filepath.Join(root, "bench"))
	if len(before) < 3 {
		t.Fatalf("the copy's bench/ has %d files: nothing to leave alone", len(before))
	}

	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("make", "bench", "BENCH=^BenchmarkSubmit$$/^strategy=(pk|twoway)$$/^shape=chain$$/^n=1000$$", "COUNT=2", "BENCHTIME=1x", "NAME=subset", "GO="+gobin)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("make bench on a subset: %v\n%s", err, out.String())
	}

	after := snapshot(t, filepath.Join(root, "bench"))
	for name, data := range before {
		if got, ok := after[name]; !ok {
			t.Errorf("bench/%s was deleted", name)
		} else if !bytes.Equal(got, data) {
			t.Errorf("bench/%s was changed", name)
		}
	}
	var added []string
	for name := range after {
		if _, ok := before[name]; !ok {
			added = append(added, name)
			if !strings.HasPrefix(name, "results/subset") {
				t.Errorf("bench/%s was written: a subset writes only under bench/results/subset*", name)
			}
		}
	}
	for _, want := range []string{"results/subset.txt", "results/subset.md"} {
		if _, ok := after[want]; !ok {
			t.Errorf("no bench/%s: wrote %v\n%s", want, added, out.String())
		}
	}
	if txt := string(after["results/subset.txt"]); !strings.Contains(txt, "\nload-start: ") || !strings.Contains(txt, "\nload-end: ") ||
		strings.Count(txt, "BenchmarkSubmit/strategy=pk/shape=chain/n=1000-") != 2 {
		t.Errorf("bench/results/subset.txt lacks the load averages or the two runs of pk on a 1,000-task chain:\n%s", txt)
	}
}

// snapshot returns every file under dir by its slash path from dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
