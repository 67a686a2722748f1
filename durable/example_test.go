package durable_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/pgtest"
)

// A diamond in Postgres: fetch dies, what waits on it is blocked, and a
// redrive releases it. Without PostgreSQL the example prints what it would.
func Example() {
	s, err := pgtest.Default()
	if errors.Is(err, pgtest.ErrNoPostgres) {
		fmt.Println("fetch: DEAD\nparse: BLOCKED blocked by fetch\nparse: PENDING")
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	url, err := s.CreateDatabase("dagq_example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.DropDatabase("dagq_example")
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	q, err := db.Queue(ctx, "example", core.Config{MaxAttempts: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	q.Submit("fetch")
	q.Submit("parse", "fetch")
	l, _ := q.Next()
	st, _ := q.Fail(l, errors.New("HTTP 503"))
	fmt.Println("fetch:", st)
	for _, d := range q.DeadLetters() {
		if d.State == core.Blocked {
			fmt.Println(d.Task+":", d.State, d.Reason)
		}
	}
	q.Redrive("fetch")
	st, _ = q.Status("parse")
	fmt.Println("parse:", st)
	// Output:
	// fetch: DEAD
	// parse: BLOCKED blocked by fetch
	// parse: PENDING
}
