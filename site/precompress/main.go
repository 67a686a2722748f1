// Command precompress writes, beside each file it is given, the file
// compressed as a browser may ask for it: FILE.br (brotli at quality 11,
// its best) and FILE.gz (gzip at its best compression).
//
//	go run ./site/precompress site/static/main.wasm
//
// `make wasm` and `make worker` run it on the playground's main.wasm, the
// site's largest file by far: compressing it once, at build time, lets
// both `wq serve` and the Cloudflare worker answer with the smallest body
// without compressing on any request. Brotli at quality 11 takes seconds
// for main.wasm, far too long for a request, and gives a body about a
// quarter smaller than gzip's; gzip is kept for clients without brotli.
//
// Each output is written to a temporary file and renamed into place, so a
// server that reads the directory never sees half a file. An output that
// already holds the file, compressed (as after a build that changed
// nothing), is left as it is: checking it takes milliseconds, compressing
// anew tens of seconds.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := precompress(name); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

// precompress writes name.br and name.gz.
func precompress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if holds(name+".br", data, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }) &&
		holds(name+".gz", data, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }) {
		return nil
	}
	if err := write(name+".br", data, func(w io.Writer) io.WriteCloser {
		return brotli.NewWriterLevel(w, brotli.BestCompression)
	}); err != nil {
		return err
	}
	return write(name+".gz", data, func(w io.Writer) io.WriteCloser {
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // a valid level: no error
		return zw
	})
}

// holds reports whether the file name decompresses to data.
func holds(name string, data []byte, decompressor func(io.Reader) (io.Reader, error)) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	r, err := decompressor(f)
	if err != nil {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(data))+1))
	return err == nil && bytes.Equal(got, data)
}

// write compresses data into the file name, by way of a temporary file in
// the same directory.
func write(name string, data []byte, compressor func(io.Writer) io.WriteCloser) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	zw := compressor(f)
	if _, err = zw.Write(data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err = zw.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
