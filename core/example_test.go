package core_test

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/core"
)

// A build whose tasks arrive in any order: a submit that would close a
// cycle is refused, a task that dies blocks what waits on it with the root
// named, and a redrive releases them. README.md shows this example; a
// test holds the two to the same code.
func Example() {
	q, _ := core.New(core.Config{MaxAttempts: 1})
	q.Submit("test", "build") // build has not arrived yet: test waits
	q.Submit("deploy", "test")
	fmt.Println(q.Submit("build", "deploy")) // would close a loop: refused
	q.Submit("build")

	l, _ := q.Next()                   // build, the only READY task
	q.Fail(l, errors.New("disk full")) // its last attempt: DEAD
	for _, d := range q.DeadLetters() {
		fmt.Println(d.Task, d.State, d.Reason)
	}

	q.Redrive("build") // fresh attempts; test and deploy wait again
	for l, ok := q.Next(); ok; l, ok = q.Next() {
		q.Complete(l)
		fmt.Println(l.Task, "done")
	}
	// Output:
	// cycle: build -> deploy -> test -> build
	// build DEAD failed after 1 attempt: disk full
	// test BLOCKED blocked by build
	// deploy BLOCKED blocked by build
	// build done
	// test done
	// deploy done
}
