package core

import (
	"fmt"
	"strings"
	"time"
)

// EventKind says what happened to a task.
type EventKind uint8

// The kinds of [Event]. Every state change is one event; the comment gives
// From → To. Expired and Heartbeat are events that change no state (From =
// To = RUNNING). New kinds are added at the end, so the numbers stay.
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
	EventDelayed                        // RUNNING → DELAYED: Attempt failed with Reason; Due
	EventDue                            // DELAYED → READY, back of the line: its due time came
	EventExpired                        // RUNNING, no change: the lease of Attempt (Lease) reached its deadline; a Retried, Delayed or Dead with "lease expired" follows
	EventHeartbeat                      // RUNNING, no change: Lease renewed until Deadline

	// Events about the dead-letter queue as a whole, not one task: Task,
	// From and To are "". Reason says which redrive: its selector, as
	// Selector.String writes it.
	EventAlert            // the growth alert: Count entries entered the DLQ within Window
	EventCleared          // the growth alert cleared: fewer than Count entries within Window
	EventRedriveStarted   // a bulk redrive began: Tasks to redrive (Total), Skipped (poisoned), at Rate
	EventRedriveProgress  // a batch of it was redriven: Tasks; Count so far of Total
	EventRedriveDone      // it ended, all its tasks handled: Count redriven of Total
	EventRedriveCancelled // CancelRedrive stopped it: Count redriven of Total
)

var kindNames = [...]string{
	EventSubmitted: "submitted", EventRejected: "rejected", EventReady: "ready",
	EventStarted: "started", EventSucceeded: "succeeded", EventRetried: "retried",
	EventDead: "dead", EventBlocked: "blocked", EventUnblocked: "unblocked",
	EventRerooted: "rerooted", EventRedriven: "redriven",
	EventDelayed: "delayed", EventDue: "due", EventExpired: "expired",
	EventHeartbeat: "heartbeat",
	EventAlert:     "alert", EventCleared: "cleared",
	EventRedriveStarted: "redrive-started", EventRedriveProgress: "redrive-progress",
	EventRedriveDone: "redrive-done", EventRedriveCancelled: "redrive-cancelled",
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
// lists its tasks nearest first. At is the clock when it happened: within
// one Advance, each timer's events carry that timer's time, so At never
// decreases either.
type Event struct {
	Op      uint64    // 1-based count of the operation (Submit, Next, …) that caused it
	Kind    EventKind // what happened
	Task    string    // the task it happened to
	From    State     // state before ("" for a submit)
	To      State     // state after ("" for a rejected submit)
	Deps    []string  // Submitted, Rejected: the dependencies, duplicates dropped
	Attempt int       // Started, Retried, Delayed, Dead, Expired, Heartbeat: the attempt number
	Lease   uint64    // Started, Expired, Heartbeat: the lease id
	Root    string    // Blocked, Rerooted, Submitted when BLOCKED: the dead task upstream
	Reason  string    // Dead, Blocked, Rerooted, Submitted when BLOCKED: the DLQ reason; Retried, Delayed: the error; Rejected: the error
	Path    []string  // Rejected by a cycle: the cycle, first and last the submitted task
	Visits  uint64    // Submitted, Rejected: edges the cycle check examined
	Visited []string  // Submitted, Rejected: the tasks those edges led to, each once, in the order first reached

	At       time.Duration // the clock when it happened (see Queue.Now)
	Due      time.Duration // Delayed: when it falls due and joins the READY line
	Deadline time.Duration // Started, Heartbeat: the lease's deadline (0: it never expires); Expired: the deadline it reached

	Error    string        // Dead: the error alone, without "failed after N attempts: " (DeadLetter.Error)
	Poisoned bool          // Dead: it died after Config.PoisonAfter redrives and needs a human
	Count    int           // Alert, Cleared: Config.Alert.Entries; RedriveProgress, Done, Cancelled: tasks redriven so far
	Total    int           // RedriveStarted, Progress, Done, Cancelled: the tasks the redrive set out to redrive
	Window   time.Duration // Alert, Cleared: Config.Alert.Window
	Rate     Rate          // RedriveStarted: the rate (zero: all at once)
	Tasks    []string      // RedriveStarted: the tasks it will redrive, in DLQ order; RedriveProgress: the batch
	Skipped  []string      // RedriveStarted: the matching tasks left out, poisoned
}

// String describes the event in one line, e.g.
// "fetch RUNNING → READY: attempt 1 failed: HTTP 503, back of the line",
// "fetch RUNNING → DELAYED: attempt 1 failed: HTTP 503, due at 3s",
// "fetch lease of attempt 1 expired at 30s",
// "fetch heartbeat: lease renewed to 45s",
// "dlq alert: 10 entries or more within 1m" or
// "redrive matching \"HTTP 503\": f1, f2 redriven, 2 of 40".
func (e Event) String() string {
	var b strings.Builder
	switch e.Kind {
	case EventAlert:
		return fmt.Sprintf("dlq alert: %d entries or more within %s", e.Count, shortDuration(e.Window))
	case EventCleared:
		return fmt.Sprintf("dlq alert cleared: fewer than %d entries within %s", e.Count, shortDuration(e.Window))
	case EventRedriveStarted:
		fmt.Fprintf(&b, "redrive %s started: %d task%s", e.Reason, e.Total, pluralS(e.Total))
		if e.Rate != (Rate{}) {
			fmt.Fprintf(&b, " at %s", e.Rate)
		} else {
			b.WriteString(" at once")
		}
		if len(e.Skipped) > 0 {
			fmt.Fprintf(&b, ", skipping %s (poisoned)", strings.Join(e.Skipped, ", "))
		}
		return b.String()
	case EventRedriveProgress:
		fmt.Fprintf(&b, "redrive %s: %s redriven, %d of %d", e.Reason, strings.Join(e.Tasks, ", "), e.Count, e.Total)
		return b.String()
	case EventRedriveDone:
		return fmt.Sprintf("redrive %s done: %d of %d redriven", e.Reason, e.Count, e.Total)
	case EventRedriveCancelled:
		return fmt.Sprintf("redrive %s cancelled: %d of %d redriven", e.Reason, e.Count, e.Total)
	}
	b.WriteString(e.Task)
	switch e.Kind {
	case EventExpired:
		fmt.Fprintf(&b, " lease of attempt %d expired at %v", e.Attempt, e.At)
		return b.String()
	case EventHeartbeat:
		if e.Deadline == 0 {
			b.WriteString(" heartbeat: the lease never expires")
		} else {
			fmt.Fprintf(&b, " heartbeat: lease renewed to %v", e.Deadline)
		}
		return b.String()
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
	case EventDelayed:
		fmt.Fprintf(&b, ": attempt %d failed", e.Attempt)
		if e.Reason != "" {
			b.WriteString(": ")
			b.WriteString(e.Reason)
		}
		fmt.Fprintf(&b, ", due at %v", e.Due)
	case EventDue:
		b.WriteString(": due, back of the line")
	case EventDead, EventBlocked, EventRerooted:
		b.WriteString(": ")
		b.WriteString(e.Reason)
		if e.Poisoned {
			b.WriteString(" (poisoned: needs a human)")
		}
	case EventReady:
		b.WriteString(": dependencies done")
	case EventUnblocked:
		b.WriteString(": no dead task upstream")
	case EventRedriven:
		b.WriteString(": fresh attempts")
	}
	return b.String()
}

// pluralS returns "s" unless n is 1.
func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
