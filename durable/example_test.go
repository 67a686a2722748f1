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
	if err := q.Submit(ctx, "fetch"); err != nil {
		fmt.Println(err)
		return
	}
	if err := q.Submit(ctx, "parse", "fetch"); err != nil {
		fmt.Println(err)
		return
	}
	l, ok, err := q.Next(ctx)
	if err != nil || !ok {
		fmt.Println("nothing handed out:", err)
		return
	}
	st, err := q.Fail(ctx, l, errors.New("HTTP 503"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fetch:", st)
	dlq, err := q.DeadLetters(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range dlq {
		if d.State == core.Blocked {
			fmt.Println(d.Task+":", d.State, d.Reason)
		}
	}
	if err := q.Redrive(ctx, "fetch"); err != nil {
		fmt.Println(err)
		return
	}
	st, _, err = q.Status(ctx, "parse")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("parse:", st)
}
