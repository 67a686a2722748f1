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
	q.Submit("fetch")
	q.Submit("parse", "fetch")
	q.Submit("lint", "fetch")
	q.Submit("report", "parse")

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
		report, _ := q.Status("report")
		lint, _ := q.Status("lint")
		if report == core.Succeeded && lint == core.Dead {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	<-done

	fmt.Println("ran:", ran)
	for _, d := range q.DeadLetters() {
		fmt.Println(d.Task+":", d.State, d.Reason)
	}
}
