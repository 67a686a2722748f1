package docs_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snippets wraps the README's Go blocks, each the body of a function of
// its own, in a file of this package that go vet type-checks: the names they use and
// the function process that the durable block calls are declared here.
const snippets = `package docs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

var (
	_ = errors.New
	_ = fmt.Sprint
	_ = time.Second
	_ = core.New
	_ = durable.Open
)

// process stands for the caller's own work.
func process(ctx context.Context, dag, name string) error { return nil }
`

// TestReadmeGoCompiles type-checks every Go block of README.md with go
// vet, each block the body of a func(ctx context.Context) error in a file
// of this package given by an overlay: nothing is written into the
// repository.
func TestReadmeGoCompiles(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, blocks := prose(string(readme))
	var src strings.Builder
	src.WriteString(snippets)
	n := 0
	for _, b := range blocks {
		if b.info != "go" {
			continue
		}
		n++
		fmt.Fprintf(&src, "\n// README.md line %d\nfunc snippet%d(ctx context.Context) error {\n%s", b.line, n, b.text)
		if lines := strings.Split(strings.TrimSpace(b.text), "\n"); !strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "return ") {
			src.WriteString("return nil\n")
		}
		src.WriteString("}\n")
	}
	if n < 2 {
		t.Fatalf("README.md has %d Go blocks, want core's and durable's", n)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join(root, "docs", "readme_snippets.go"))
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {abs: file}})
	if err != nil {
		t.Fatal(err)
	}
	ovl := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovl, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "vet", "-overlay", ovl, "./docs")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the README's Go blocks do not compile: %v\n%s\nas wrapped:\n%s", err, out, src.String())
	}
}
