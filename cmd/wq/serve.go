package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/dagq/dagq/site"
)

// defaultAddr is where "wq serve" listens without --addr.
const defaultAddr = ":8080"

// stopSignals are the signals that stop "wq serve" cleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// serveCmd is "wq serve [--addr HOST:PORT]": it serves the playground and
// its API until SIGINT or SIGTERM.
func serveCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", defaultAddr, "address to listen on, HOST:PORT (an empty HOST means every interface)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve takes no arguments, got %q", fs.Arg(0))
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return serve(ctx, l, stdout)
}

// serve serves the site on l until ctx is done, then shuts down, giving
// requests in flight a few seconds to finish. It announces the address
// on stdout once it is listening.
func serve(ctx context.Context, l net.Listener, stdout io.Writer) error {
	srv := &http.Server{
		Handler:           site.New(site.Options{}),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	fmt.Fprintf(stdout, "serving dagq playground on %s\n", displayURL(l.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
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
