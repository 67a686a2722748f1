package main

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// accessLog wraps h so that every request is logged on w once answered,
// one line each:
//
//	2026-12-01T09:30:00.123Z 127.0.0.1:50312 POST /api/run?strategy=pk 200 5120B 12.3ms
//
// The target is written as the client sent it, escaped, its first 200 bytes.
func accessLog(h http.Handler, w io.Writer) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: rw, status: http.StatusOK}
		defer func() {
			target := r.URL.RequestURI()
			if len(target) > 200 {
				target = target[:200]
			}
			target = strconv.QuoteToASCII(target)
			line := fmt.Sprintf("%s %s %s %s %d %dB %s\n",
				start.UTC().Format("2006-01-02T15:04:05.000Z"), r.RemoteAddr, r.Method,
				target[1:len(target)-1], rec.status, rec.bytes, time.Since(start).Round(100*time.Microsecond))
			mu.Lock()
			_, _ = io.WriteString(w, line) // a log that cannot be written has no one to tell
			mu.Unlock()
		}()
		h.ServeHTTP(rec, r)
	})
}

// recorder notes the status and the size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
