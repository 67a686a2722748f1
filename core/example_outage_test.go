package core_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// An API goes down: three fetches die of HTTP 503 from different hosts,
// with their renders behind them, and one unrelated task dies of its own
// cause. The groups tell the two causes apart; once the API is back, the
// 503s are previewed and redriven as a group, two every ten seconds. The
// redrive's cost is the edges it examined (Stats.RedriveVisits): one per
// render it released, not a walk per root.
func Example_outage() {
	q, _ := core.New(core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) {
		switch e.Kind {
		case core.EventRedriveStarted, core.EventRedriveProgress, core.EventRedriveDone:
			fmt.Printf("   %v %s\n", e.At, e)
		}
	}})
	for i := 1; i <= 3; i++ {
		q.Submit(fmt.Sprintf("fetch-%d", i))
	}
	q.Submit("migrate")
	for i := 1; i <= 3; i++ {
		q.Submit(fmt.Sprintf("render-%d", i), fmt.Sprintf("fetch-%d", i))
	}
	for i := 1; i <= 3; i++ {
		l, _ := q.Next()
		q.Fail(l, fmt.Errorf("HTTP 503 from 10.0.4.%d:8443 after %dms", i, 200+i*37))
	}
	l, _ := q.Next()
	q.Fail(l, errors.New("dial tcp 10.0.3.7:5432: connect: connection refused"))

	for _, g := range q.DeadLetterGroups() {
		fmt.Printf("%d dead, blocking %d: %s %v\n", g.Count, g.BlastRadius, g.Fingerprint, g.Tasks)
	}
	sel := core.Selector{Fingerprint: "HTTP 503 from <addr> after <dur>"}
	p := q.PreviewRedrive(sel)
	fmt.Printf("preview: redrive %d, release %d\n", len(p.Roots), p.Released)

	fmt.Println("redrive, 2 every 10s:")
	q.RedriveMatching(sel, core.Rate{N: 2, Per: 10 * time.Second})
	q.Advance(time.Minute)
	st, _ := q.Status("render-3")
	fmt.Println("render-3 is", st)
	fmt.Println("edges the redrives examined:", q.Stats().RedriveVisits)
	// Output:
	// 3 dead, blocking 3: HTTP 503 from <addr> after <dur> [fetch-1 fetch-2 fetch-3]
	// 1 dead, blocking 0: dial tcp <addr>: connect: connection refused [migrate]
	// preview: redrive 3, release 3
	// redrive, 2 every 10s:
	//    0s redrive group "HTTP 503 from <addr> after <dur>" started: 3 tasks at 2/10s
	//    0s redrive group "HTTP 503 from <addr> after <dur>": fetch-1, fetch-2 redriven, 2 of 3
	//    10s redrive group "HTTP 503 from <addr> after <dur>": fetch-3 redriven, 3 of 3
	//    10s redrive group "HTTP 503 from <addr> after <dur>" done: 3 of 3 redriven
	// render-3 is PENDING
	// edges the redrives examined: 3
}
