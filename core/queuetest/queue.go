package queuetest

import (
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// Queue is what the conformance suite drives: the operations and the reads
// of a dagq queue. *core.Queue implements it as it is.
//
// The methods mean what core.Queue's methods of the same name mean, with
// the same errors (as errors.Is sees them: core's sentinels and
// *core.CycleError) and the same events.
type Queue interface {
	Submit(task string, deps ...string) error
	Next() (core.Lease, bool)
	Heartbeat(l core.Lease) (core.Lease, error)
	Complete(l core.Lease) error
	Fail(l core.Lease, err error) (core.State, error)
	Redrive(task string) error
	Advance(d time.Duration) error
	Now() time.Duration
	Status(task string) (core.State, bool)
	DeadLetters() []core.DeadLetter
	ReadyTasks() []string
}

// Open makes a fresh, empty queue under cfg. Events reach cfg.OnEvent with
// the same contract as core.New's: in order, after the operation has
// finished (for a durable queue: after it commits).
//
// The suite sets MaxAttempts, LeaseTimeout, Backoff (jitter and seed
// included), PoisonAfter, Strategy and OnEvent; an implementation that has
// no choice of cycle-check strategy ignores Strategy. An error from Open
// fails the test that called it.
type Open func(t testing.TB, cfg core.Config) (Queue, error)

// The in-memory queue is the reference every implementation is compared
// with, and an implementation itself.
var _ Queue = (*core.Queue)(nil)
