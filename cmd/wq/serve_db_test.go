package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/internal/pgtest"
	"github.com/dagq/dagq/site"
)

// TestServeDBPrintsTheTokenAndGuardsTheQueue: wq serve --db prints the
// list's address with a token; the list answers; a redrive without the
// token, or for another host, changes nothing; with it, it redrives and
// is logged; the server stops cleanly.
func TestServeDBPrintsTheTokenAndGuardsTheQueue(t *testing.T) {
	url := pgtest.New(t)
	db, err := durable.Open(context.Background(), url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	q, err := db.Queue(ctx, "nightly", core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Submit(ctx, "fetch"); err != nil {
		t.Fatal(err)
	}
	l0, _, err := q.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Fail(ctx, l0, errors.New("HTTP 503")); err != nil {
		t.Fatal(err)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	var out, logw lockedBuffer
	done := make(chan error, 1)
	go func() { done <- serveDB(sctx, l, site.Options{}, url, live.Options{}, &out, &logw) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve --db returned %v after a clean stop", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("serve --db did not stop")
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	base := "http://localhost:" + port
	var token string
	for deadline := time.Now().Add(10 * time.Second); token == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, after, ok := strings.Cut(out.String(), base+"/dags#token="); ok {
			token, _, _ = strings.Cut(after, "\n")
		}
	}
	if len(token) != 32 {
		t.Fatalf("wq serve --db printed %q: want the list's address on %s with a token of 32 hex digits", out.String(), base)
	}

	if code, body := get(t, base+"/dags"); code != http.StatusOK || !strings.Contains(body, `href="/?live=nightly"`) {
		t.Fatalf("/dags: %d %s", code, body)
	}
	redrive := func(host, tok string) int {
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:"+port+"/api/live/dags/nightly/redrive", strings.NewReader(`{"match":"HTTP 503"}`))
		req.Host = host
		req.Header.Set(live.TokenHeader, tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	state := func() core.State {
		st, _, err := q.Status(ctx, "fetch")
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if code := redrive("localhost:"+port, ""); code != http.StatusForbidden || state() != core.Dead {
		t.Errorf("a redrive without the token: %d, fetch %s; want 403 and DEAD", code, state())
	}
	if code := redrive("attacker.example:"+port, token); code != http.StatusMisdirectedRequest || state() != core.Dead {
		t.Errorf("a redrive for another host: %d, fetch %s; want 421 and DEAD", code, state())
	}
	if code := redrive("localhost:"+port, token); code != http.StatusOK || state() != core.Ready {
		t.Errorf("a redrive with the token: %d, fetch %s; want 200 and READY", code, state())
	}
	if !strings.Contains(logw.String(), "live: DAG nightly: redrove 1 of matching") {
		t.Errorf("the redrive was not logged:\n%s", logw.String())
	}
}
