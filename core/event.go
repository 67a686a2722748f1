package core

import (
	"fmt"
	"strings"
)

// EventKind says what happened to a task.
type EventKind uint8

// The kinds of [Event]. Every state change is one event; the comment gives
// From → To.
const (
	EventSubmitted EventKind = iota + 1 // "" → PENDING, READY or BLOCKED (Root, Reason); Deps; Visits
	EventRejected                       // a refused submit: Reason; Path for a cycle; Visits
	EventReady                          // PENDING → READY: its last dependency succeeded
	EventStarted                        // READY → RUNNING: Attempt, Lease
	EventSucceeded                      // RUNNING → SUCCEEDED
	EventRetried                        // RUNNING → READY, back of the line: Attempt failed with Reason
	EventDead                           // RUNNING → DEAD: Attempt, Reason "failed after N attempts: ERR"
	EventBlocked                        // PENDING → BLOCKED: Root, Reason "blocked by ROOT"
	EventUnblocked                      // BLOCKED → PENDING: no dead root left upstream
	EventRerooted                       // BLOCKED → BLOCKED: Root renamed to one still DEAD
	EventRedriven                       // DEAD → READY, fresh attempts
)

var kindNames = [...]string{
	EventSubmitted: "submitted", EventRejected: "rejected", EventReady: "ready",
	EventStarted: "started", EventSucceeded: "succeeded", EventRetried: "retried",
	EventDead: "dead", EventBlocked: "blocked", EventUnblocked: "unblocked",
	EventRerooted: "rerooted", EventRedriven: "redriven",
}

// String returns the kind's lower-case name, e.g. "blocked".
func (k EventKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// Event is one change a Queue operation made, delivered in order to
// [Config.OnEvent] when the operation has finished. Events of one operation
// share Op, and Op never decreases from one event delivered to the next,
// even when OnEvent calls operations itself; a blocking or unblocking wave
// lists its tasks nearest first.
type Event struct {
	Op      uint64    // 1-based count of the operation (Submit, Next, …) that caused it
	Kind    EventKind // what happened
	Task    string    // the task it happened to
	From    State     // state before ("" for a submit)
	To      State     // state after ("" for a rejected submit)
	Deps    []string  // Submitted, Rejected: the dependencies, duplicates dropped
	Attempt int       // Started, Retried, Dead: the attempt number
	Lease   uint64    // Started: the lease id
	Root    string    // Blocked, Rerooted, Submitted when BLOCKED: the dead task upstream
	Reason  string    // Dead, Blocked, Rerooted, Submitted when BLOCKED: the DLQ reason; Retried: the error; Rejected: the error
	Path    []string  // Rejected by a cycle: the cycle, first and last the submitted task
	Visits  uint64    // Submitted, Rejected: edges the cycle check examined
	Visited []string  // Submitted, Rejected: the tasks those edges led to, each once, in the order first reached
}

// String describes the event in one line, e.g.
// "fetch RUNNING → READY: retried after attempt 1: HTTP 503".
func (e Event) String() string {
	var b strings.Builder
	b.WriteString(e.Task)
	switch e.Kind {
	case EventRejected:
		b.WriteString(" rejected: ")
		b.WriteString(e.Reason)
		return b.String()
	case EventSubmitted:
		b.WriteString(" submitted → ")
		b.WriteString(string(e.To))
	default:
		fmt.Fprintf(&b, " %s → %s", e.From, e.To)
	}
	switch e.Kind {
	case EventSubmitted:
		if len(e.Deps) > 0 {
			fmt.Fprintf(&b, " (waits on %s)", strings.Join(e.Deps, ", "))
		}
		if e.To == Blocked {
			b.WriteString(": ")
			b.WriteString(e.Reason)
		}
	case EventStarted:
		fmt.Fprintf(&b, ": attempt %d", e.Attempt)
	case EventRetried:
		fmt.Fprintf(&b, ": attempt %d failed", e.Attempt)
		if e.Reason != "" {
			b.WriteString(": ")
			b.WriteString(e.Reason)
		}
		b.WriteString(", back of the line")
	case EventDead, EventBlocked, EventRerooted:
		b.WriteString(": ")
		b.WriteString(e.Reason)
	case EventReady:
		b.WriteString(": dependencies done")
	case EventUnblocked:
		b.WriteString(": no dead task upstream")
	case EventRedriven:
		b.WriteString(": fresh attempts")
	}
	return b.String()
}
