package core

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors, for errors.Is. Queue methods return them wrapped in a
// [*TaskError] (or, for cycles, as a [*CycleError]; ErrClockBackwards, which
// is about no task, wrapped in a plain error).
//
// ErrLeaseExpired and ErrStaleLease tell apart the two ways a lease that is
// not the current one is refused. A lease is expired when it is exactly
// (Task, ID and Attempt) a lease whose deadline the clock reached while it
// was current: the queue remembers every lease it expired, so that lease is
// refused with ErrLeaseExpired for ever after, whatever the task has done
// since (retried, running again under a newer lease, dead, redriven). Any
// other lease that is not current is stale (superseded by a Fail, a
// Complete or a newer hand-out, or never handed out) or, if the task is not
// RUNNING, ErrNotRunning. A lease completed or failed before its deadline
// never expires: replayed later it is refused as before, never as expired,
// whatever its Deadline field says. The memory this takes is one map entry
// per lease that ever expired, and nothing until one does; the check costs
// a map lookup, on the refusal path only.
var (
	ErrDuplicate   = errors.New("duplicate task")
	ErrCycle       = errors.New("cycle")
	ErrUnknown     = errors.New("unknown task")
	ErrNotRunning  = errors.New("not running")
	ErrStaleLease  = errors.New("stale lease")
	ErrNotDead     = errors.New("not dead")
	ErrInvalidName = errors.New("invalid task name")
	// ErrLeaseExpired: a lease that reached its deadline; its message is
	// also the error the task failed with.
	ErrLeaseExpired = errors.New("lease expired")
	// ErrClockBackwards: the clock only moves forward.
	ErrClockBackwards = errors.New("the clock cannot go back")
	// ErrPoisoned: Redrive of a task poisoned by Config.PoisonAfter; only
	// ForceRedrive moves it.
	ErrPoisoned = errors.New("poisoned: needs a human (force the redrive)")
	// ErrNoMatch: a bulk redrive whose selector matches no DEAD task.
	ErrNoMatch = errors.New("no dead task matches")
	// ErrRedriveRunning: a bulk redrive while a rate-limited one is in
	// progress (one at a time: cancel it first).
	ErrRedriveRunning = errors.New("a redrive is in progress")
	// ErrNoRedrive: CancelRedrive with no redrive in progress.
	ErrNoRedrive = errors.New("no redrive in progress")
)

// TaskError is a refused operation on one task: Task names it and Err is one
// of the sentinels.
type TaskError struct {
	Task string
	Err  error
}

func (e *TaskError) Error() string { return e.Task + ": " + e.Err.Error() }
func (e *TaskError) Unwrap() error { return e.Err }

// CycleError is a submit refused because it would close a cycle. Path is the
// whole cycle, first and last the submitted task: for [c a b c], c waits on
// a, a on b, b on c. It reads "cycle: c -> a -> b -> c".
type CycleError struct {
	Path []string
}

// cycleNamesShown is how many names of a cycle its message shows.
const cycleNamesShown = 10

// Error reads "cycle: c -> a -> b -> c". A path of more than
// cycleNamesShown (10) names is cut to its first ten, "…" and the number of
// tasks on the cycle (the path's length less one, its last name being its
// first): "cycle: t0 -> t1 -> … -> t9 -> … (100000 tasks)", so that the
// message of a cycle through 10⁵ tasks stays short; Path keeps the whole
// cycle. The cost does not grow with the path past its tenth name.
func (e *CycleError) Error() string {
	if len(e.Path) <= cycleNamesShown {
		return "cycle: " + strings.Join(e.Path, " -> ")
	}
	return "cycle: " + strings.Join(e.Path[:cycleNamesShown], " -> ") +
		" -> … (" + strconv.Itoa(len(e.Path)-1) + " tasks)"
}

// Is reports whether target is [ErrCycle].
func (e *CycleError) Is(target error) bool { return target == ErrCycle }

// Permanent wraps an error to say that retrying cannot help: [Queue.Fail]
// with it sends the task to the dead-letter queue at once, whatever attempts
// are left, with the reason "permanent failure after N attempt(s): ERR". It
// returns nil for nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// IsPermanent reports whether err, or an error it wraps, came from
// [Permanent]. It follows Unwrap as errors.Is does, without allocating, so
// that a failure costs nothing extra.
func IsPermanent(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *permanentError:
			return true
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				if IsPermanent(x) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
