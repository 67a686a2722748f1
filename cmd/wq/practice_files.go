package main

// starterFiles are the files `wq practice init` writes, as text/templates
// of a [starter].
var starterFiles = map[string]string{
	"go.mod": `module {{.Module}}

go ` + goLine + `
{{if .Replace}}
require ` + dagqModule + ` v0.0.0-00010101000000-000000000000

// dagq comes from the checkout this module was made in.
replace ` + dagqModule + ` => {{.Replace}}
{{else}}
require ` + dagqModule + ` {{.Version}}
{{end}}`,

	"queue.go": `// Package {{.Package}} is a work queue whose tasks wait on other tasks,
// with retries{{if .L5}}, a dead-letter queue{{end}} and a cycle check: the
// interview question, written by hand. queue_test.go holds it to the rules
// of level {{.Level}} with dagq's conformance suite: go test runs it.
package {{.Package}}

import (
	"errors"
{{- if .L6}}
	"time"
{{- end}}

	"github.com/dagq/dagq/core"
)

// errTODO is what a method returns until it is written.
var errTODO = errors.New("not implemented")

// Queue is the queue. The rules it must keep are the documentation of
// queuetest.L4Queue{{if .L5}}, L5Queue{{end}}{{if .L6}} and L6Queue{{end}}: go doc github.com/dagq/dagq/core/queuetest L4Queue
type Queue struct {
	maxAttempts int
{{- if .L6}}
	leaseTimeout time.Duration
	backoff      core.Backoff
	now          time.Duration
{{- end}}
	// The tasks, their dependencies and states, the count of each task's
	// unfinished dependencies, the READY line, …
}

// New returns an empty queue.
{{- if .L6}}
func New(maxAttempts int, leaseTimeout time.Duration, backoff core.Backoff) *Queue {
	return &Queue{maxAttempts: maxAttempts, leaseTimeout: leaseTimeout, backoff: backoff}
}
{{- else}}
func New(maxAttempts int) *Queue {
	return &Queue{maxAttempts: maxAttempts}
}
{{- end}}

// Submit adds task, waiting on deps; it refuses a duplicate and a task
// that would close a loop of waits, changing nothing.
func (q *Queue) Submit(task string, deps ...string) error {
	return errTODO
}

// Next hands out the front READY task, first in, first out.
func (q *Queue) Next() (core.Lease, bool) {
	return core.Lease{}, false
}

// Complete finishes the task of a lease Next handed out.
func (q *Queue) Complete(l core.Lease) error {
	return errTODO
}

// Fail fails it: back of the line with attempts left, else DEAD.
func (q *Queue) Fail(l core.Lease, err error) error {
	return errTODO
}

// Status returns a task's state, false if it was never submitted.
func (q *Queue) Status(task string) (core.State, bool) {
	return "", false
}
{{- if .L5}}

// DeadLetters returns the DEAD and BLOCKED tasks in the order they
// entered; a BLOCKED one with its Root.
func (q *Queue) DeadLetters() []core.DeadLetter {
	return nil
}

// Redrive gives a DEAD task fresh attempts and releases what it held.
func (q *Queue) Redrive(task string) error {
	return errTODO
}
{{- end}}
{{- if .L6}}

// Heartbeat renews the current lease.
func (q *Queue) Heartbeat(l core.Lease) (core.Lease, error) {
	return core.Lease{}, errTODO
}

// Advance moves the clock, firing deadlines and due times in order.
func (q *Queue) Advance(d time.Duration) error {
	return errTODO
}

// RedriveMatching redrives the DEAD tasks whose error contains text.
func (q *Queue) RedriveMatching(text string) error {
	return errTODO
}
{{- end}}
`,

	"queue_test.go": `package {{.Package}}

import (
	"testing"

	"github.com/dagq/dagq/core/queuetest"
)

// The queue has every method of its level.
var _ queuetest.{{.Level}}Queue = (*Queue)(nil)

// TestQueue runs dagq's conformance suite on Queue at level {{.Level}}: the
// rules one by one, easiest first, then random operation sequences
// compared with dagq's queue. A failure is the smallest script that breaks
// Queue, with a link that plays it in dagq's playground.
//
// The next level: write its methods, and change {{.Level}} to it, here and
// above.
func TestQueue(t *testing.T) {
	queuetest.RunLevel(t, queuetest.{{.Level}}, func(s queuetest.Settings) *Queue {
{{- if .L6}}
		return New(s.MaxAttempts, s.LeaseTimeout, s.Backoff)
{{- else}}
		return New(s.MaxAttempts)
{{- end}}
	})
}
`,

	"README.md": `# {{.Package}}: the work-queue question, by hand

A queue whose tasks wait on other tasks, written from scratch, and held to
dagq's conformance suite at level {{.Level}}:

    go test
{{if not .Replace}}
(once, first: ` + "`go mod tidy`" + `, which fetches dagq and records its sums in go.sum.)
{{end}}
The first failure is the rule to work on: the smallest script that
breaks the queue, what dagq's queue does instead, and a link that plays
the script in dagq's playground (run ` + "`wq serve`" + ` from a dagq checkout, or
set DAGQ_PLAYGROUND to a playground's address). The rules of each level
are the documentation of its interface:

    go doc github.com/dagq/dagq/core/queuetest L4Queue
    go doc github.com/dagq/dagq/core/queuetest L5Queue
    go doc github.com/dagq/dagq/core/queuetest L6Queue

L4 is one worker's state machine; L5 adds the dead-letter queue, blocking
with the root cause and redrive; L6 adds leases, fencing, backoff,
permanent errors and bulk redrive. To climb, write the next level's
methods and change the level in queue_test.go.
{{if .Replace}}
dagq comes from the checkout in {{.Replace}} (the replace line of
go.mod); to use a published dagq instead, delete that line and run
` + "`go get " + dagqModule + "@latest`" + `.
{{end}}`,
}
