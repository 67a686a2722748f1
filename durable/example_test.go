package durable_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// A diamond in Postgres: fetch dies, what waits on it is blocked, and a
// redrive releases it. It runs against the database at $DATABASE_URL;
// TestExamples runs it against a throwaway PostgreSQL and checks that it
// prints
//
//	fetch: DEAD
//	parse: BLOCKED blocked by fetch
//	parse: PENDING
func Example() {
	ctx := context.Background()
	db, err := durable.Open(ctx, os.Getenv("DATABASE_URL"), durable.Options{})
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
}
