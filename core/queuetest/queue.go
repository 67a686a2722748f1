package queuetest

import (
	"context"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// Queue is what the conformance suite drives: the operations and the reads
// of a dagq queue, as a network client's API has them: each takes a
// context and returns an error, and a read that could not read says so
// (the suite fails on it) instead of answering "empty". *core.Queue
// implements it through [Memory].
//
// The methods mean what core.Queue's methods of the same name mean, with
// the same refusals (as errors.Is sees them: core's sentinels and
// *core.CycleError) and the same events; Next's and Status's false, and
// any error from a read, are core's false and nothing else.
type Queue interface {
	Submit(ctx context.Context, task string, deps ...string) error
	Next(ctx context.Context) (core.Lease, bool, error)
	Heartbeat(ctx context.Context, l core.Lease) (core.Lease, error)
	Complete(ctx context.Context, l core.Lease) error
	Fail(ctx context.Context, l core.Lease, err error) (core.State, error)
	Redrive(ctx context.Context, task string) error
	Advance(ctx context.Context, d time.Duration) error
	Now(ctx context.Context) (time.Duration, error)
	Status(ctx context.Context, task string) (core.State, bool, error)
	DeadLetters(ctx context.Context) ([]core.DeadLetter, error)
	ReadyTasks(ctx context.Context) ([]string, error)
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

// Memory is the in-memory queue as a [Queue]: the reference every
// implementation is compared with, and an implementation itself. Each
// method calls q's of the same name; the context is not used, and no
// error but q's refusals is returned.
func Memory(q *core.Queue) Queue { return memory{q} }

type memory struct{ q *core.Queue }

func (m memory) Submit(_ context.Context, task string, deps ...string) error {
	return m.q.Submit(task, deps...)
}
func (m memory) Next(context.Context) (core.Lease, bool, error) {
	l, ok := m.q.Next()
	return l, ok, nil
}
func (m memory) Heartbeat(_ context.Context, l core.Lease) (core.Lease, error) {
	return m.q.Heartbeat(l)
}
func (m memory) Complete(_ context.Context, l core.Lease) error { return m.q.Complete(l) }
func (m memory) Fail(_ context.Context, l core.Lease, err error) (core.State, error) {
	return m.q.Fail(l, err)
}
func (m memory) Redrive(_ context.Context, task string) error     { return m.q.Redrive(task) }
func (m memory) Advance(_ context.Context, d time.Duration) error { return m.q.Advance(d) }
func (m memory) Now(context.Context) (time.Duration, error)       { return m.q.Now(), nil }
func (m memory) DeadLetters(context.Context) ([]core.DeadLetter, error) {
	return m.q.DeadLetters(), nil
}
func (m memory) ReadyTasks(context.Context) ([]string, error) { return m.q.ReadyTasks(), nil }
func (m memory) Status(_ context.Context, task string) (core.State, bool, error) {
	s, ok := m.q.Status(task)
	return s, ok, nil
}
