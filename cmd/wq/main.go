// Command wq runs dagq scenarios: a work queue with task dependencies,
// retries, a dead-letter queue and cycle checks, driven by a small script.
//
//	wq run [--json] [--strategy NAME] FILE|-   run a scenario, print its trace
//	wq scenarios [NAME]                       list the built-in scenarios, or print one
//	wq strategies                             list the cycle-check strategies
//	wq help                                   this text
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "wq:", err)
		os.Exit(1)
	}
}
