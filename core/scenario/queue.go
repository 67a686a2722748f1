package scenario

import (
	"time"

	"github.com/dagq/dagq/core"
)

// Queue is what a run drives: the operations and reads the language uses.
// *core.Queue implements it, and is what a run makes unless [Options.Open]
// makes another (package durable's queue in Postgres, for wq run --db).
type Queue interface {
	Submit(task string, deps ...string) error
	Next() (core.Lease, bool)
	Heartbeat(l core.Lease) (core.Lease, error)
	Complete(l core.Lease) error
	Fail(l core.Lease, err error) (core.State, error)
	Redrive(task string) error
	ForceRedrive(task string) error
	Advance(d time.Duration) error
	Now() time.Duration
	Status(task string) (core.State, bool)
	// Lease is the current lease of a RUNNING task.
	Lease(task string) (core.Lease, bool)
	// Config is the queue's configuration; the language reads its
	// MaxAttempts and Strategy.
	Config() core.Config
	// Len is the number of tasks submitted.
	Len() int
}

// BulkQueue is a Queue that also operates the dead-letter queue as a
// whole: the commands redrive matching, redrive group, preview redrive and
// redrive cancel need it, and are refused on a queue without it.
type BulkQueue interface {
	Queue
	DeadLetterGroups() []core.DeadLetterGroup
	RedriveMatching(sel core.Selector, rate core.Rate) (core.RedriveJob, error)
	PreviewRedrive(sel core.Selector) core.RedrivePreview
	CancelRedrive() error
}

var _ BulkQueue = (*core.Queue)(nil)
