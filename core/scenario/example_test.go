package scenario_test

import (
	"context"
	"fmt"
	"os"

	"github.com/dagq/dagq/core/scenario"
)

// A fetch fails twice and dies; the parse waiting on it is blocked until
// the fetch is redriven. NewStream checks the script and Run runs it,
// writing each step as it goes, as `wq run` does.
func Example() {
	run, err := scenario.NewStream(`
attempts 2
submit parse fetch    # parse waits on fetch, not submitted yet
submit fetch
next
fail fetch HTTP 503
next
fail fetch HTTP 503   # second attempt of two: dead
expect parse BLOCKED
redrive fetch
expect parse PENDING
`, scenario.Options{Strategy: "dfs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := run.Run(context.Background(), os.Stdout, scenario.Text, scenario.Limits{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// strategy dfs, max attempts 2
	//
	// L2   attempts 2
	//        a task gets at most 2 attempts
	//
	// L3   submit parse fetch
	//        parse submitted → PENDING (waits on fetch)
	//
	// L4   submit fetch
	//        fetch submitted → READY
	//
	// L5   next
	//        fetch READY → RUNNING: attempt 1
	//
	// L6   fail fetch HTTP 503
	//        fetch RUNNING → READY: attempt 1 failed: HTTP 503, back of the line
	//
	// L7   next
	//        fetch READY → RUNNING: attempt 2
	//
	// L8   fail fetch HTTP 503
	//        fetch RUNNING → DEAD: failed after 2 attempts: HTTP 503
	//        parse PENDING → BLOCKED: blocked by fetch
	//
	// L9   expect parse BLOCKED
	//        ok: parse is BLOCKED
	//
	// L10  redrive fetch
	//        fetch DEAD → READY: fresh attempts
	//        parse BLOCKED → PENDING: no dead task upstream
	//
	// L11  expect parse PENDING
	//        ok: parse is PENDING
	//
	// end: 2 tasks: 1 PENDING, 1 READY
	// dead-letter queue: empty
}

// A syntax error names its line and column.
func ExampleParse_syntaxError() {
	_, err := scenario.Parse("submit a\nexpect a DONE\n")
	fmt.Println(err)
	// Output:
	// 2:10: unknown state "DONE" (want PENDING, READY, RUNNING, DELAYED, SUCCEEDED, DEAD or BLOCKED)
}

// The library's scenarios, by name and title.
func ExampleLibrary() {
	for _, e := range scenario.Library() {
		fmt.Printf("%-20s %s\n", e.Name, e.Title)
	}
	// Output:
	// blocked-on-arrival   A task arriving on a dead dependency is blocked at once
	// chain-200            A chain of 200 tasks, each waiting on the one before
	// diamond-redrive      A diamond dies at its root and is redriven whole
	// heartbeat            Heartbeats keep a long task alive
	// lease-kills-diamond  A lease that expires on the last attempt sends a diamond to the DLQ
	// outage               An outage: the API answers HTTP 503 to 40 fetches, 400 renders wait behind them
	// permanent-error      A permanent error skips its retries and blocks downstream
	// poison-pill          A poison pill: a task that keeps dying is set aside for a human
	// retry-back-of-line   A retried task goes to the back of the line
	// retry-storm          A retry storm: every retry falls due at once
	// retry-storm-jitter   A retry storm spread out by full jitter
	// tricky-cycle         A cycle closed through tasks that arrived first
	// two-roots            Two dead roots above one task
	// wide-1000            1,000 shards between one download and one reduce
	// worker-crash         A worker crashes: its lease expires and the task is retried
}

// A Runner runs one command at a time against its own queue: each Step
// holds the events the command caused, and Queue is the queue itself.
// durable's ExportScript builds the script it writes this way, running
// each command as it adds it.
func ExampleRunner() {
	s, err := scenario.Parse("attempts 1\nsubmit report fetch\nsubmit fetch\nnext\nfail fetch HTTP 503\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := scenario.NewRunner(s, scenario.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Commands {
		for _, e := range r.Exec(c).Events {
			fmt.Printf("L%d %s\n", c.Line, e)
		}
	}
	st, _ := r.Queue().Status("report")
	fmt.Println("report is", st)
	// Output:
	// L2 report submitted → PENDING (waits on fetch)
	// L3 fetch submitted → READY
	// L4 fetch READY → RUNNING: attempt 1
	// L5 fetch RUNNING → DEAD: failed after 1 attempt: HTTP 503
	// L5 report PENDING → BLOCKED: blocked by fetch
	// report is BLOCKED
}
