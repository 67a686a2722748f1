package pgtest

import (
	"errors"
	"io"
	"os"
	"testing"
)

// Output runs f, an example that needs a server (it has no Output line, so
// go test only compiles it), and returns what it printed on the standard
// output, for the test that checks it. Without PostgreSQL ([Default]'s
// [ErrNoPostgres]), t is skipped before f runs: never passed.
func Output(t testing.TB, f func()) string {
	t.Helper()
	if _, err := Default(); errors.Is(err, ErrNoPostgres) {
		t.Skip(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	defer func() { os.Stdout = old }()
	f()
	w.Close()
	return <-out
}
