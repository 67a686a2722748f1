package queuetest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/queuetest"
)

// An implementation hands the suite an Open that makes a fresh, empty queue
// under the configuration the suite chooses, its events delivered to
// cfg.OnEvent. For the in-memory queue that is core.New; a test passes it
// to queuetest.Run(t, open). Here the queue it opens is driven by hand,
// through the interface the suite uses.
func Example() {
	open := queuetest.Open(func(t testing.TB, cfg core.Config) (queuetest.Queue, error) {
		q, err := core.New(cfg)
		if err != nil {
			return nil, err
		}
		return queuetest.Memory(q), nil
	})

	var events []string
	q, err := open(nil, core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) { events = append(events, e.String()) }})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	q.Submit(ctx, "parse", "fetch")
	q.Submit(ctx, "fetch")
	l, _, _ := q.Next(ctx)
	q.Fail(ctx, l, errors.New("HTTP 503"))
	dlq, _ := q.DeadLetters(ctx)
	for _, d := range dlq {
		fmt.Printf("%s: %s\n", d.Task, d.Reason)
	}
	fmt.Println(q.Complete(ctx, l))
	for _, e := range events {
		fmt.Println(e)
	}
	// Output:
	// fetch: failed after 1 attempt: HTTP 503
	// parse: blocked by fetch
	// fetch: not running
	// parse submitted → PENDING (waits on fetch)
	// fetch submitted → READY
	// fetch READY → RUNNING: attempt 1
	// fetch RUNNING → DEAD: failed after 1 attempt: HTTP 503
	// parse PENDING → BLOCKED: blocked by fetch
}
