package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// A worker crashes while it holds fetch: nobody completes or fails it, but
// its lease runs out after 30s and the task fails with "lease expired".
// Under a backoff the retry waits, DELAYED, and joins the line when due.
// The crashed worker, coming back late, is refused; the new one finishes.
func Example_worker_crash() {
	q, _ := core.New(core.Config{
		MaxAttempts:  3,
		LeaseTimeout: 30 * time.Second,
		Backoff:      core.Backoff{Base: 2 * time.Second, Factor: 2, Max: time.Minute},
		OnEvent: func(e core.Event) {
			fmt.Printf("[%v] %v\n", e.At, e)
		},
	})
	q.Submit("fetch")
	q.Submit("parse", "fetch")

	first, _ := q.Next() // the worker that will crash
	fmt.Println("deadline", first.Deadline)
	q.Advance(time.Minute) // nobody heard from it

	second, _ := q.Next()
	q.Advance(20 * time.Second)
	second, _ = q.Heartbeat(second) // a slow but live worker
	fmt.Println("renewed to", second.Deadline)

	err := q.Complete(first) // the crashed worker, back too late
	fmt.Println(err, errors.Is(err, core.ErrLeaseExpired))
	fmt.Println(q.Complete(second))
	// Output:
	// [0s] fetch submitted → READY
	// [0s] parse submitted → PENDING (waits on fetch)
	// [0s] fetch READY → RUNNING: attempt 1
	// deadline 30s
	// [30s] fetch lease of attempt 1 expired at 30s
	// [30s] fetch RUNNING → DELAYED: attempt 1 failed: lease expired, due at 32s
	// [32s] fetch DELAYED → READY: due, back of the line
	// [1m0s] fetch READY → RUNNING: attempt 2
	// [1m20s] fetch heartbeat: lease renewed to 1m50s
	// renewed to 1m50s
	// fetch: lease expired true
	// [1m20s] fetch RUNNING → SUCCEEDED
	// [1m20s] parse PENDING → READY: dependencies done
	// <nil>
}
