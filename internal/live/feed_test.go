package live_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/internal/pgtest"
)

// liveHeap is the heap in use once collected.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestTwentyPagesOnBusyDAGsKeepMemoryBounded opens 20 event streams on
// DAGs whose workers complete tasks as fast as they can: each stream gets
// at most one event per poll (so a page redraws at most 1/MinPoll times a
// second), and the heap held for the 20 streams stays small, whatever the
// rate of change.
func TestTwentyPagesOnBusyDAGsKeepMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a Postgres test with workers")
	}
	db, err := durable.Open(bg, pgtest.New(t), durable.Options{})
	must(t, err)
	t.Cleanup(db.Close)
	const dags, tasks = 4, 3000
	for d := range dags {
		q, err := db.Queue(bg, fmt.Sprintf("busy-%d", d), core.Config{MaxAttempts: 3})
		must(t, err)
		all := make([]durable.NewTask, tasks)
		for i := range all {
			all[i].Name = fmt.Sprintf("t%05d", i)
			if i > 0 {
				all[i].Deps = []string{fmt.Sprintf("t%05d", i/2)}
			}
		}
		must(t, q.SubmitAll(bg, all))
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	srv := httptest.NewServer(live.New(ctx, db, http.NotFoundHandler(), live.Options{}))
	defer srv.Close()

	var done atomic.Int64
	w := durable.NewWorker(db, func(context.Context, durable.Task) error { done.Add(1); return nil },
		durable.WorkerOptions{Workers: 8, Poll: 50 * time.Millisecond})
	wctx, stopWorkers := context.WithCancel(bg)
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(wctx) })
	defer func() { stopWorkers(); wg.Wait() }()
	for done.Load() < 100 {
		time.Sleep(10 * time.Millisecond)
	}
	before := liveHeap()

	const pages = 20
	var events [pages]atomic.Int64
	streams := make([]*http.Response, pages)
	for i := range pages {
		resp, err := http.Get(srv.URL + fmt.Sprintf("/api/live/events?dag=busy-%d", i%dags))
		must(t, err)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("stream %d: %d %s", i, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		streams[i] = resp
		go func() {
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if sc.Text() == "event: changed" {
					events[i].Add(1)
				}
			}
		}()
	}
	start := time.Now()
	startDone := done.Load()
	for done.Load() < startDone+2000 && time.Since(start) < 60*time.Second {
		time.Sleep(20 * time.Millisecond)
	}
	during := liveHeap()
	elapsed := time.Since(start)
	completed := done.Load() - startDone
	for _, s := range streams {
		s.Body.Close()
	}
	polls := int64(elapsed/live.MinPoll) + 2
	var total int64
	for i := range pages {
		n := events[i].Load()
		total += n
		if n == 0 {
			t.Errorf("stream %d heard of no change while %d tasks completed", i, completed)
		}
		if n > polls {
			t.Errorf("stream %d got %d events in %v: more than one per poll (%d)", i, n, elapsed.Round(time.Millisecond), polls)
		}
	}
	grew := int64(during) - int64(before)
	t.Logf("%d tasks completed in %v; %d events to %d streams (at most %d each); heap %d KB before the streams, %d KB with them (%+d KB)",
		completed, elapsed.Round(time.Millisecond), total, pages, polls, before>>10, during>>10, grew>>10)
	if grew > 8<<20 {
		t.Errorf("the heap grew by %d KB with %d streams open on busy DAGs, want under 8 MB", grew>>10, pages)
	}
}

func TestStreamsBeyondTheLimitAreRefused(t *testing.T) {
	f := newFixture(t, live.Options{Streams: 2})
	var open []*http.Response
	defer func() {
		for _, r := range open {
			r.Body.Close()
		}
	}()
	for i := range 3 {
		resp, err := http.Get(f.url + "/api/live/events")
		must(t, err)
		open = append(open, resp)
		want := http.StatusOK
		if i == 2 {
			want = http.StatusServiceUnavailable
		}
		if resp.StatusCode != want {
			t.Fatalf("stream %d: %d, want %d", i, resp.StatusCode, want)
		}
		if i < 2 {
			// Read the stream's first line, so that it is counted before the next opens.
			if line, _ := bufio.NewReader(resp.Body).ReadString('\n'); !strings.HasPrefix(line, "retry:") {
				t.Fatalf("stream %d began %q", i, line)
			}
		}
	}
}
