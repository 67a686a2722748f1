package core_test

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/core"
)

// A diamond: b and c wait on a, d waits on both. When a dies, the blocking
// wave names it as the root; redriving a releases the whole diamond.
func Example_diamond_redrive() {
	q, _ := core.New(core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) {
		if e.Kind != core.EventStarted && e.Kind != core.EventSubmitted {
			fmt.Println("  ", e)
		}
	}})
	q.Submit("a")
	q.Submit("b", "a")
	q.Submit("c", "a")
	q.Submit("d", "b", "c")

	fmt.Println("a fails:")
	l, _ := q.Next()
	q.Fail(l, errors.New("disk full"))
	printDLQ(q)

	fmt.Println("redrive a:")
	q.Redrive("a")
	printDLQ(q)

	fmt.Println("run it all:")
	for {
		l, ok := q.Next()
		if !ok {
			break
		}
		q.Complete(l)
	}
	// Output:
	// a fails:
	//    a RUNNING → DEAD: failed after 1 attempt: disk full
	//    b PENDING → BLOCKED: blocked by a
	//    c PENDING → BLOCKED: blocked by a
	//    d PENDING → BLOCKED: blocked by a
	//    dlq: a DEAD "disk full", blast radius 3
	//    dlq: b BLOCKED, root a
	//    dlq: c BLOCKED, root a
	//    dlq: d BLOCKED, root a
	// redrive a:
	//    a DEAD → READY: fresh attempts
	//    b BLOCKED → PENDING: no dead task upstream
	//    c BLOCKED → PENDING: no dead task upstream
	//    d BLOCKED → PENDING: no dead task upstream
	//    dlq: empty
	// run it all:
	//    a RUNNING → SUCCEEDED
	//    b PENDING → READY: dependencies done
	//    c PENDING → READY: dependencies done
	//    b RUNNING → SUCCEEDED
	//    c RUNNING → SUCCEEDED
	//    d PENDING → READY: dependencies done
	//    d RUNNING → SUCCEEDED
}

// printDLQ prints the dead-letter queue from its fields: no caller parses
// a reason.
func printDLQ(q *core.Queue) {
	dl := q.DeadLetters()
	if len(dl) == 0 {
		fmt.Println("   dlq: empty")
	}
	for _, d := range dl {
		if d.State == core.Dead {
			fmt.Printf("   dlq: %s DEAD %q, blast radius %d\n", d.Task, d.Error, d.BlastRadius)
		} else {
			fmt.Printf("   dlq: %s BLOCKED, root %s\n", d.Task, d.Root)
		}
	}
}
