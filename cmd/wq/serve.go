package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/site"
)

// defaultAddr is where "wq serve" listens without --addr: this machine
// only. --addr :8080 opens it to every interface.
const defaultAddr = "127.0.0.1:8080"

// stopSignals are the signals that stop "wq serve" cleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// The server's timeouts. A request must arrive whole within readTimeout
// (a body trickled a byte at a time is cut off), and be answered within
// writeTimeout, which leaves room for the longest run (site's
// DefaultRunTimeout) and a slow download of main.wasm.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = time.Minute
)

// shutdownGrace is how long a stopping server lets requests in flight
// finish; then their runs are stopped, each trace ending with a line that
// says so, and after as long again the connections still open are closed.
var shutdownGrace = 5 * time.Second

// serveCmd is "wq serve": it serves the playground and its API until
// SIGINT or SIGTERM; with --db, the live DAGs of a durable queue too
// (package live), read-only unless a page carries the token printed.
func serveCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", defaultAddr, "address to listen on, HOST:PORT (an empty HOST means every interface)")
	origins := fs.String("origins", "", "comma-separated origins (https://docs.example) whose pages may POST /api/run besides the site's own; * for any")
	runs := fs.Int("runs", site.DefaultRuns, "runs of /api/run at once; more wait a moment, then get 503")
	runTimeout := fs.Duration("run-timeout", site.DefaultRunTimeout, "how long one run may take")
	lim := limitFlags(fs, site.DefaultLimits)
	dbURL := fs.String("db", "", "a durable queue's database: add its live DAGs and DLQ console (/dags)")
	token := fs.String("token", "", "with --db: the token a page must carry to change the queue (default: a random one, printed at start)")
	readOnly := fs.Bool("read-only", false, "with --db: refuse every change of the queue, token or not")
	streams := fs.Int("streams", live.DefaultStreams, "with --db: live pages open at once; more get 503")
	if err := fs.Parse(args); err != nil {
		return usageFlag(err)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("serve takes no arguments, got %q", fs.Arg(0))}
	}
	if err := checkLimits(lim); err != nil {
		return err
	}
	if *dbURL == "" && (*token != "" || *readOnly) {
		return usageError{errors.New("--token and --read-only go with --db")}
	}
	if *streams < 1 {
		return usageError{fmt.Errorf("--streams %d: give at least 1", *streams)}
	}
	opt := site.Options{Limits: lim, Runs: *runs, RunTimeout: *runTimeout}
	for o := range strings.SplitSeq(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			opt.Origins = append(opt.Origins, o)
		}
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	if *dbURL == "" {
		return serve(ctx, l, site.New(opt), stdout, stderr)
	}
	return serveDB(ctx, l, opt, *dbURL, live.Options{Token: *token, ReadOnly: *readOnly, Streams: *streams}, stdout, stderr)
}

// serveDB is wq serve --db: the site with the live routes of the durable
// queue at dbURL (package live) on l until ctx is done. It makes a random
// token unless lopt has one or is read-only, and prints the list's address
// with it; the live routes answer only l's own host names when l is on a
// loopback address, and log their actions on logw.
func serveDB(ctx context.Context, l net.Listener, opt site.Options, dbURL string, lopt live.Options, stdout, logw io.Writer) error {
	db, err := durable.Open(ctx, dbURL, durable.Options{})
	if err != nil {
		_ = l.Close() // the error that matters is Open's
		return err
	}
	defer db.Close()
	lopt.Hosts, lopt.Log = ownHosts(l.Addr()), logw
	if lopt.Token == "" && !lopt.ReadOnly {
		var b [16]byte
		rand.Read(b[:])
		lopt.Token = hex.EncodeToString(b[:])
	}
	list := displayURL(l.Addr()) + "/dags"
	if !lopt.ReadOnly {
		list += "#token=" + lopt.Token
	}
	fmt.Fprintf(stdout, "live DAGs of the database, read-only unless opened with the token: %s\n", list)
	return serve(ctx, l, live.New(ctx, db, site.New(opt), lopt), stdout, logw)
}

// ownHosts returns the Host headers a server on a loopback address
// answers: its port on localhost, 127.0.0.1 and [::1]; none (any) for an
// address open to other machines, whose names it cannot know. A page of
// another site whose name resolves to 127.0.0.1 reads nothing.
func ownHosts(a net.Addr) []string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil
	}
	return []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port}
}

// serve serves h (the site) on l until ctx is done, then shuts down (see
// shutdownGrace). It announces the address on stdout once it is
// listening, and logs a line per request on logw.
func serve(ctx context.Context, l net.Listener, h http.Handler, stdout, logw io.Writer) error {
	base, stopRuns := context.WithCancelCause(context.Background())
	defer stopRuns(nil)
	srv := &http.Server{
		Handler:           accessLog(h, logw),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          log.New(logw, "wq serve: ", 0),
	}
	fmt.Fprintf(stdout, "serving dagq playground on %s\n", displayURL(l.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	grace, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		// Requests still in flight: stop their runs, which end their
		// traces cleanly, give them as long again to send what they have,
		// then close.
		stopRuns(errors.New("the server is shutting down"))
		last, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := srv.Shutdown(last); err != nil {
			_ = srv.Close() // cuts off what is left; its error would only repeat Shutdown's
		}
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// displayURL is the address to open in a browser: localhost for a
// listener on every interface or on the loopback.
func displayURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && (ip.IsUnspecified() || ip.IsLoopback()) {
		host = "localhost"
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return "http://" + host + ":" + port
}
