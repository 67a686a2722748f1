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
	fmt.Println(q.DeadLetters())

	fmt.Println("redrive a:")
	q.Redrive("a")
	fmt.Println(q.DeadLetters())

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
	// [{a failed after 1 attempt: disk full} {b blocked by a} {c blocked by a} {d blocked by a}]
	// redrive a:
	//    a DEAD → READY: fresh attempts
	//    b BLOCKED → PENDING: no dead task upstream
	//    c BLOCKED → PENDING: no dead task upstream
	//    d BLOCKED → PENDING: no dead task upstream
	// []
	// run it all:
	//    a RUNNING → SUCCEEDED
	//    b PENDING → READY: dependencies done
	//    c PENDING → READY: dependencies done
	//    b RUNNING → SUCCEEDED
	//    c RUNNING → SUCCEEDED
	//    d PENDING → READY: dependencies done
	//    d RUNNING → SUCCEEDED
}
