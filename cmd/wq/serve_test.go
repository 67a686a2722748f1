package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dagq/dagq/site"
)

// get fetches url and returns the status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestServeAnswersHealthzAndStops(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- serve(ctx, l, site.New(site.Options{}), &out, io.Discard) }()

	base := "http://" + l.Addr().String()
	if code, body := get(t, base+"/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("/healthz: %d %q", code, body)
	}
	if code, _ := get(t, base+"/api/scenarios"); code != http.StatusOK {
		t.Fatalf("/api/scenarios: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v, want nil after a clean stop", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	if want := "serving dagq playground on http://localhost:" + port + "\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
	if _, err := net.DialTimeout("tcp", l.Addr().String(), time.Second); err == nil {
		t.Fatal("still listening after the stop")
	}
}

// TestServeStopsOnSignal runs the whole command and stops it as a user
// would, with SIGINT and then, on a second run, SIGTERM.
func TestServeStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pr, pw := io.Pipe()
			done := make(chan error, 1)
			go func() {
				done <- run([]string{"serve", "--addr", "127.0.0.1:0"}, pw, io.Discard)
				pw.Close()
			}()
			line, err := bufio.NewReader(pr).ReadString('\n')
			if err != nil {
				t.Fatalf("reading the announcement: %v", err)
			}
			go io.Copy(io.Discard, pr)
			url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving dagq playground on ")
			if !ok {
				t.Fatalf("announcement %q", line)
			}
			if code, _ := get(t, url+"/healthz"); code != http.StatusOK {
				t.Fatalf("/healthz: %d", code)
			}
			if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("wq serve returned %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("wq serve did not stop on " + sig.String())
			}
		})
	}
}

func TestServeErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ExtraArgument", []string{"serve", "now"}, `serve takes no arguments, got "now"`},
		{"BadAddress", []string{"serve", "--addr", "not-an-address"}, "missing port"},
		{"UnknownFlag", []string{"serve", "--port", "1"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDisplayURL(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"[::]:8080", "http://localhost:8080"},
		{"0.0.0.0:80", "http://localhost:80"},
		{"127.0.0.1:9", "http://localhost:9"},
		{"192.0.2.7:8080", "http://192.0.2.7:8080"},
		{"[2001:db8::1]:8080", "http://[2001:db8::1]:8080"},
	}
	for _, tt := range tests {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := displayURL(a); got != tt.want {
			t.Errorf("displayURL(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestServeDBFlagsGoTogether(t *testing.T) {
	for _, args := range [][]string{{"--token", "x"}, {"--read-only"}, {"--db", "postgres://nowhere", "--streams", "0"}} {
		err := serveCmd(args, io.Discard, io.Discard)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("serve %v: %v, want a usage error", args, err)
		}
	}
}

func TestOwnHostsOfALoopbackServer(t *testing.T) {
	got := ownHosts(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
	if strings.Join(got, " ") != "localhost:8080 127.0.0.1:8080 [::1]:8080" {
		t.Errorf("ownHosts(127.0.0.1:8080) = %v", got)
	}
	if got := ownHosts(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}); got != nil {
		t.Errorf("ownHosts(0.0.0.0:8080) = %v, want none (any host)", got)
	}
}
