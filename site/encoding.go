package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// A static file is served in the best content coding the request accepts:
// brotli, then gzip, then the file as it is. Brotli and gzip bodies come
// from the files FILE.br and FILE.gz beside FILE, which `make wasm` writes
// for main.wasm (site/precompress: brotli at quality 11 takes seconds, too
// long for a request); a file without them is gzipped once, on first
// demand, at gzip's default level, and has no brotli body.

// coding is a content coding the site can answer in.
type coding struct {
	name   string // as in Accept-Encoding and Content-Encoding
	suffix string // of the precompressed file beside the original
	// decompress reads what the precompressed file holds.
	decompress func(io.Reader) (io.Reader, error)
}

// codings are the codings the site answers in, in the order it prefers them.
var codings = [...]coding{
	{"br", ".br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
	{"gzip", ".gz", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
}

const (
	brIndex   = 0 // codings[brIndex] is brotli
	gzipIndex = 1 // codings[gzipIndex] is gzip
)

// precompressed returns the body of name in coding c, read from the file
// name+c.suffix in files, or nil if there is none or it does not hold data
// (stale: left from an earlier build). Checking costs a decompression,
// once per file and coding: tens of milliseconds for main.wasm.
func precompressed(files fs.FS, name string, c coding, data []byte) []byte {
	body, err := fs.ReadFile(files, name+c.suffix)
	if err != nil {
		return nil
	}
	r, err := c.decompress(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(data))+1))
	if err != nil || !bytes.Equal(got, data) {
		return nil
	}
	return body
}

// accepts reports whether the request's Accept-Encoding allows the coding
// name (named, or *, with a q above 0). A coding named explicitly
// overrides *, as RFC 9110 says.
func accepts(hd []string, name string) bool {
	named, star := -1.0, -1.0
	for _, field := range hd {
		for part := range strings.SplitSeq(field, ",") {
			c, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			c = strings.ToLower(strings.TrimSpace(c))
			if c == "x-gzip" {
				c = "gzip"
			}
			if c != name && c != "*" {
				continue
			}
			q := 1.0
			for p := range strings.SplitSeq(params, ";") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
					if f, err := strconv.ParseFloat(v, 64); err == nil {
						q = f
					}
				}
			}
			if c == "*" {
				star = q
			} else {
				named = q
			}
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}
