package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// Four tasks fail at the same moment (a shared dependency went down). With
// no jitter their retries fall due together, a retry storm; full jitter,
// from a seeded generator, spreads them over [0, delay], the same way on
// every run with the same seed.
func Example_retry_storm_jitter() {
	for _, j := range []core.Jitter{core.JitterNone, core.JitterFull} {
		var due []time.Duration
		q, _ := core.New(core.Config{
			MaxAttempts: 3,
			Backoff:     core.Backoff{Base: 8 * time.Second, Factor: 2, Jitter: j, Seed: 42},
			OnEvent: func(e core.Event) {
				if e.Kind == core.EventDelayed {
					due = append(due, e.Due)
				}
			},
		})
		var leases []core.Lease
		for _, t := range []string{"a", "b", "c", "d"} {
			q.Submit(t)
			l, _ := q.Next()
			leases = append(leases, l)
		}
		for _, l := range leases {
			q.Fail(l, errors.New("HTTP 503"))
		}
		next, _ := q.NextTimer()
		fmt.Printf("jitter %s: due at %v; first at %v\n", j, due, next)
	}
	// Output:
	// jitter none: due at [8s 8s 8s 8s]; first at 8s
	// jitter full: due at [6.861s 7.686s 1.09s 708ms]; first at 708ms
}
