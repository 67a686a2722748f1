// Instr runs one queue operation on one shape, for make bench-check to
// count its instructions under valgrind's callgrind, which a loaded machine
// does not disturb as it disturbs time:
//
//	instr OP SHAPE N
//
// OP is submit (every task of the shape), next (hand out every READY task,
// submitted first), complete (complete those, submitted and handed out
// first) or lifecycle (submit every task, then hand out and complete them
// all). SHAPE is one of bench.Shapes or independent, n tasks none of which
// waits on another: next and complete are counted on it, every task READY. Callgrind is told to count only inside the
// operation's methods (--toggle-collect), so the setup is not counted; the
// garbage collector is off, so that it runs no more in one build than in
// another. It uses only core's and bench's exported API, so that it builds
// against an older commit too.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/dagq/dagq/bench"
	"github.com/dagq/dagq/core"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "instr:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("want OP SHAPE N, got %q", args)
	}
	op, shape := args[0], args[1]
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 1 {
		return fmt.Errorf("the number of tasks is %q, want a positive number", args[2])
	}
	var tasks []core.Task
	if shape == "independent" { // n tasks, none waiting on another
		for i := range n {
			tasks = append(tasks, core.Task{Name: "t" + strconv.Itoa(i)})
		}
	}
	for _, s := range bench.Shapes() {
		if s.Name == shape {
			tasks = s.Make(n, 1)
		}
	}
	if tasks == nil {
		return fmt.Errorf("no shape %q", shape)
	}
	debug.SetGCPercent(-1)
	q, err := core.New(core.Config{})
	if err != nil {
		return err
	}
	for _, t := range tasks {
		if err := q.Submit(t.Name, t.Deps...); err != nil && !errors.Is(err, core.ErrCycle) {
			return err // reject's attempts are refused as cycles, as they are meant to be
		}
	}
	switch op {
	case "submit":
	case "next", "complete", "lifecycle":
		var leases []core.Lease
		for {
			l, ok := q.Next()
			if !ok {
				break
			}
			if op == "lifecycle" {
				if err := q.Complete(l); err != nil {
					return err
				}
				continue
			}
			leases = append(leases, l)
		}
		if op == "complete" {
			for _, l := range leases {
				if err := q.Complete(l); err != nil {
					return err
				}
			}
		}
	default:
		return fmt.Errorf("no op %q (want submit, next, complete or lifecycle)", op)
	}
	return nil
}
