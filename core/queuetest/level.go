package queuetest

import (
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// Level is how much of dagq's queue a candidate's queue implements, after
// the levels of the interview question (see docs/practice.md): L4 one
// worker's state machine, L5 failure as a first-class path, L6 production.
// Each level has a minimal interface, [L4Queue], [L5Queue] and [L6Queue],
// and [RunLevel] holds a queue to the rules of its level.
type Level int

// The levels, each including the one below it.
const (
	// L4: submit with dependencies and the cycle check, next (first in,
	// first out), complete, fail (retries at the back; DEAD at the last
	// attempt), status.
	L4 Level = 4
	// L5: L4, and the dead-letter queue: a death blocks everything
	// downstream of it, nearest first, each blocked task naming its root;
	// redrive releases what it held, or renames the root that still holds
	// it.
	L5 Level = 5
	// L6: L5, and time: leases that expire and are renewed by heartbeats,
	// fenced completions, retries DELAYED by a backoff, permanent errors,
	// and a bulk redrive of the dead tasks whose error contains a text.
	L6 Level = 6
)

// Levels returns the levels, lowest first.
func Levels() []Level { return []Level{L4, L5, L6} }

// String returns "L4", "L5" or "L6".
func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }

// ParseLevel reads "L4", "L5" or "L6" (or "4", "5", "6", any case).
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if s == l.String() || s == fmt.Sprint(int(l)) || s == fmt.Sprintf("l%d", int(l)) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("queuetest: level %q: want L4, L5 or L6", s)
}

// Settings is what a candidate's queue is opened with. At L4 and L5 only
// MaxAttempts is set; L6 sets the others as well, one sequence with
// leases, another with a backoff, another with both.
type Settings struct {
	// MaxAttempts is how many times a task is handed out before a failure
	// makes it DEAD: 1 to 3.
	MaxAttempts int
	// LeaseTimeout (L6) is how long a lease lasts after Next or a
	// Heartbeat, on the queue's clock; 0: leases never expire.
	LeaseTimeout time.Duration
	// Backoff (L6) delays retries: when attempt k fails with attempts left
	// the task is DELAYED for Backoff.Delay(k, nil) — min(Max, Base ·
	// Factor^(k−1)) — and READY at the back of the line when that is due.
	// Base 0: no backoff, a retry is READY at once. There is never jitter,
	// and Max is set (Max ≥ Base).
	Backoff core.Backoff
}

// L4Queue is the least a queue implements: one worker's state machine.
//
//   - Submit adds task, waiting on deps, which need not have been
//     submitted yet (a dependency that has not arrived counts as not
//     done). It returns an error, and changes nothing, when task was
//     submitted before, or waits on itself, or would close a loop of
//     waits. A task with every dependency SUCCEEDED is READY, at the back
//     of the line; else PENDING.
//   - Next hands out the task at the front of the READY line, first in,
//     first out: RUNNING, with a lease whose Task is the task and Attempt
//     counts its hand-outs (1 the first time). ID and Deadline are the
//     queue's own until L6. false when nothing is READY.
//   - Complete takes a lease Next handed out: the task is SUCCEEDED, and
//     each task waiting on it whose dependencies are all SUCCEEDED now is
//     READY, in the order they were submitted. An error, changing nothing,
//     if the task is not RUNNING.
//   - Fail takes such a lease and the error the task failed with: with
//     attempts left the task is READY again at the back of the line, never
//     the front; at its last attempt it is DEAD. An error, changing
//     nothing, if the task is not RUNNING.
//   - Status returns a task's state (core.Pending, core.Ready, …) and
//     true, or false if it was never submitted.
//
// At L4 a task downstream of a DEAD one may stay PENDING: blocking it is
// L5's (the suite reads BLOCKED as PENDING at L4).
type L4Queue interface {
	Submit(task string, deps ...string) error
	Next() (core.Lease, bool)
	Complete(l core.Lease) error
	Fail(l core.Lease, err error) error
	Status(task string) (core.State, bool)
}

// L5Queue is an L4Queue with a dead-letter queue.
//
//   - When a task dies, every task that waits on it, transitively, and is
//     PENDING is BLOCKED, with the dead task as its root; a task submitted
//     waiting on a DEAD or BLOCKED task is BLOCKED at once, and so is every
//     task already waiting on it.
//   - DeadLetters returns the DEAD and BLOCKED tasks in the order they
//     entered (a blocking wave nearest first): the suite reads each
//     entry's Task, State (core.Dead or core.Blocked) and, for a BLOCKED
//     task, Root, the DEAD task upstream that holds it (not its nearest
//     parent). Reason is for people and is not read.
//   - Redrive gives a DEAD task fresh attempts: READY at the back of the
//     line, its next hand-out attempt 1. The tasks it held are decided
//     dependencies first: PENDING again if no other DEAD task holds them,
//     else BLOCKED with that task as their root. An error, changing
//     nothing, if the task is not DEAD.
type L5Queue interface {
	L4Queue
	DeadLetters() []core.DeadLetter
	Redrive(task string) error
}

// L6Queue is an L5Queue that keeps time: its clock starts at 0 and moves
// only by Advance.
//
//   - Under Settings.LeaseTimeout, Next's lease has the Deadline now +
//     LeaseTimeout, and Heartbeat renews the current lease, returning it
//     with the Deadline now + LeaseTimeout. A lease that reaches its
//     deadline expires: exactly a Fail with the error "lease expired".
//   - Fencing: only the task's current, unexpired lease (the same ID and
//     Attempt) can heartbeat, complete or fail it; any other is refused
//     with an error, changing nothing.
//   - Under Settings.Backoff a failure with attempts left makes the task
//     DELAYED until now + the delay, then READY at the back of the line.
//   - A failure whose error is core.Permanent (core.IsPermanent) is DEAD at
//     once, whatever attempts are left.
//   - Advance(d) moves the clock by d: every deadline and due time up to
//     now + d fires, one at a time, in order of time (ties in the order
//     they were set), each at its own time.
//   - DeadLetters' DEAD entries carry Error, the text of the error the task
//     died of (err.Error(), "lease expired" for an expiry).
//   - RedriveMatching redrives every DEAD task whose Error contains text,
//     in the order of the dead-letter queue, as Redrive would each; an
//     error, changing nothing, if none matches.
type L6Queue interface {
	L5Queue
	Heartbeat(l core.Lease) (core.Lease, error)
	Advance(d time.Duration) error
	RedriveMatching(text string) error
}
