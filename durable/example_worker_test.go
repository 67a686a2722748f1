package durable_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// A worker runs a handler on the tasks of every DAG of a database,
// dependencies first; a permanent error sends a task to the dead-letter
// queue at once. Cancelling Run's context shuts the worker down gracefully.
// It runs against the database at $DATABASE_URL; TestExamples runs it
// against a throwaway PostgreSQL and checks that it prints
//
//	ran: [fetch parse report]
//	lint: DEAD permanent failure after 1 attempt: bad config
func ExampleWorker() {
	ctx := context.Background()
	db, err := durable.Open(ctx, os.Getenv("DATABASE_URL"), durable.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	q, err := db.Queue(ctx, "nightly", core.Config{MaxAttempts: 3, LeaseTimeout: 30 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range [][]string{{"fetch"}, {"parse", "fetch"}, {"lint", "fetch"}, {"report", "parse"}} {
		if err := q.Submit(ctx, t[0], t[1:]...); err != nil {
			fmt.Println(err)
			return
		}
	}

	var mu sync.Mutex
	var ran []string
	w := durable.NewWorker(db, func(ctx context.Context, t durable.Task) error {
		if t.Name == "lint" {
			return core.Permanent(errors.New("bad config"))
		}
		mu.Lock()
		ran = append(ran, t.Name)
		mu.Unlock()
		return nil
	}, durable.WorkerOptions{Workers: 1})
	run, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- w.Run(run) }()
	for {
		report, _, err1 := q.Status(ctx, "report")
		lint, _, err2 := q.Status(ctx, "lint")
		if err := errors.Join(err1, err2); err != nil {
			fmt.Println(err)
			break
		}
		if report == core.Succeeded && lint == core.Dead {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	<-done

	fmt.Println("ran:", ran)
	dlq, err := q.DeadLetters(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range dlq {
		fmt.Println(d.Task+":", d.State, d.Reason)
	}
}
