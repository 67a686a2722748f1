package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// ops drives a queue from a compact text, one operation a line, for the
// tests of what the conformance suite (core/queuetest) cannot reach:
// "submit t d1 d2", "next", "complete t", "fail t ERR", "redrive t".
// Every line must be accepted; the last line of want may be refused.
func ops(t *testing.T, q *core.Queue, script string) error {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(script), "\n")
	var last error
	for i, line := range lines {
		f := strings.Fields(line)
		var err error
		switch f[0] {
		case "submit":
			err = q.Submit(f[1], f[2:]...)
		case "next":
			if _, ok := q.Next(); !ok {
				err = errors.New("nothing ready")
			}
		case "complete":
			l, ok := q.Lease(f[1])
			if !ok {
				l = core.Lease{Task: f[1]}
			}
			err = q.Complete(l)
		case "fail":
			l, ok := q.Lease(f[1])
			if !ok {
				l = core.Lease{Task: f[1]}
			}
			_, err = q.Fail(l, errors.New(strings.Join(f[2:], " ")))
		case "redrive":
			err = q.Redrive(f[1])
		default:
			t.Fatalf("bad op %q", line)
		}
		if err != nil && i < len(lines)-1 {
			t.Fatalf("%q: %v", line, err)
		}
		last = err
	}
	return last
}

// view is what a test asserts of a queue: states, the DLQ and the READY line.
func view(q *core.Queue) string {
	var b strings.Builder
	for _, task := range q.Tasks() {
		s, _ := q.Status(task)
		fmt.Fprintf(&b, "%s:%s ", task, s)
	}
	b.WriteString("| dlq")
	for _, d := range q.DeadLetters() {
		fmt.Fprintf(&b, " [%s %s]", d.Task, d.Reason)
	}
	b.WriteString(" | ready")
	for _, r := range q.ReadyTasks() {
		b.WriteString(" " + r)
	}
	return b.String()
}
