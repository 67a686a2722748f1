package durabletest_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/durable/durabletest"
	"github.com/dagq/dagq/internal/pgtest"
)

// A random history of 30 tasks and 300 operations, each task given one
// attempt, on a DAG of a throwaway database: the same seed makes the same
// history, so it always ends with these counts. TestExample runs it and
// checks that it prints
//
//	SUCCEEDED: 5
//	DEAD: 4
//	BLOCKED: 12
func Example() {
	ctx := context.Background()
	s, err := pgtest.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	url, err := s.CreateDatabase("durabletest_example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.DropDatabase("durabletest_example")
	db, err := durable.Open(ctx, url, durable.Options{VirtualClock: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	q, err := db.Queue(ctx, "random", core.Config{MaxAttempts: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	h := durabletest.NewHistory(q, rand.New(rand.NewPCG(1, 2)), 30)
	if err := h.Run(ctx, 300); err != nil {
		fmt.Println(err)
		return
	}
	for _, state := range []core.State{core.Succeeded, core.Dead, core.Blocked} {
		n := 0
		for i := range 30 {
			if st, ok, err := q.Status(ctx, fmt.Sprint("t", i)); err == nil && ok && st == state {
				n++
			}
		}
		fmt.Printf("%v: %d\n", state, n)
	}
}
