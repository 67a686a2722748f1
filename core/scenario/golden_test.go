package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/dagq/dagq/internal/golden"
)

// goldenLimit is the largest golden file kept whole; a bigger output is
// pinned by its SHA-256 in NAME.sha256 instead (the JSON trace of wide-1000
// repeats the state of 1,002 tasks on every line: tens of megabytes).
const goldenLimit = 300 << 10

const acceptGolden = "go test ./core/scenario -run TestGolden -update"

// capture keeps the first goldenLimit bytes written to it and hashes all.
type capture struct {
	head []byte
	n    int
	hash hash.Hash
}

func (c *capture) Write(p []byte) (int, error) {
	if room := goldenLimit - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	c.n += len(p)
	return c.hash.Write(p)
}

// checkGolden compares what write writes with testdata/golden/name, or, for
// output over goldenLimit, its hash with testdata/golden/name.sha256. With
// -update it rewrites the file. On a mismatch of a whole file it writes the
// output to name.got beside the golden; either way it says how to accept
// the new output.
func checkGolden(t *testing.T, name string, write func(io.Writer) error) {
	t.Helper()
	c := &capture{hash: sha256.New()}
	if err := write(c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", name)
	got := c.head
	if c.n > goldenLimit {
		path += ".sha256"
		got = []byte(hex.EncodeToString(c.hash.Sum(nil)) + "\n")
	}
	if c.n > goldenLimit && !golden.Update() {
		if old, err := os.ReadFile(path); err == nil && !bytes.Equal(old, got) {
			t.Errorf("%s: the output (%d bytes) has another SHA-256; if the new output is right, accept it with:\n\t%s",
				path, c.n, acceptGolden)
			return
		}
	}
	golden.Check(t, path, got, acceptGolden)
}

// goldenStrategy is the strategy the golden traces are made with, so that
// the visits in the JSON do not change when the default does.
const goldenStrategy = "dfs"

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, e := range Library() {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse(e.Text)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Run(s, Options{Strategy: goldenStrategy})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, e.Name+".txt", func(w io.Writer) error { return WriteText(w, tr) })
			checkGolden(t, e.Name+".jsonl", func(w io.Writer) error { return WriteJSON(w, tr) })
		})
	}
}
