// Command wq runs dagq scenarios: a work queue with task dependencies,
// retries, a dead-letter queue and cycle checks, driven by a small script.
//
//	wq run [--json] [--strategy NAME] FILE|-   run a scenario, print its trace as it runs
//	wq run --db URL FILE|-                    the same, against the durable queue in Postgres
//	wq migrate URL                            create or update the durable queue's tables
//	wq db SUBCOMMAND URL ...                  operate a durable queue: dags, show, dlq, task,
//	                                          redrive, delete, export, move, metrics, migrate
//	wq scenarios [NAME]                       list the built-in scenarios, or print one
//	wq strategies                             list the cycle-check strategies
//	wq serve [--addr HOST:PORT]               serve the playground (127.0.0.1:8080)
//	wq serve --db URL [--token T] [--read-only] the same, with a durable queue's live DAGs
//	wq practice init [--level L4|L5|L6] DIR   write a module that holds a queue of one's
//	                                          own to dagq's rules
//	wq help                                   this text, the limits and the exit statuses
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// A reader that goes away (wq run … | head) makes a write fail with
	// EPIPE rather than kill wq with SIGPIPE: wq then stops quietly, with
	// the I/O exit status.
	signal.Ignore(syscall.SIGPIPE)
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.Is(err, syscall.EPIPE) {
		fmt.Fprintln(os.Stderr, "wq:", err)
	}
	os.Exit(exitCode(err))
}
