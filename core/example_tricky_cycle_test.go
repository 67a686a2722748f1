package core_test

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/core"
)

// A cycle can close through a task that arrived earlier naming a dependency
// nobody had submitted yet: b waits on c before c exists, and c, arriving
// last, waits on a.
func Example_tricky_cycle() {
	q, _ := core.New(core.Config{MaxAttempts: 3})
	fmt.Println(q.Submit("a", "b"))
	fmt.Println(q.Submit("b", "c"))
	err := q.Submit("c", "a")
	fmt.Println(err, errors.Is(err, core.ErrCycle))

	// Nothing changed: c is still unknown, and a corrected c is accepted.
	_, known := q.Status("c")
	fmt.Println(known, q.Submit("c"))
	for _, t := range q.Tasks() {
		s, _ := q.Status(t)
		fmt.Println(t, s)
	}
	// Output:
	// <nil>
	// <nil>
	// cycle: c -> a -> b -> c true
	// false <nil>
	// a PENDING
	// b PENDING
	// c READY
}
