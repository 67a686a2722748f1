package scenario

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// Limits bound the work of one run (see [Stream.Run]); a zero field means
// no limit. Together with the script's size they bound what a run can
// cost: its memory is O(script + tasks + the events of one step + the
// output limit), never O(steps × tasks), and its time is O(steps + events
// + visits) with every step bounded by the task limit. A task name is at
// most [MaxName] bytes, so that what one task costs is bounded too.
type Limits struct {
	// Tasks is the most tasks a run may submit: a submit past it stops
	// the run.
	Tasks int
	// Steps is the most commands a run may run.
	Steps int
	// Events is the most events all its steps together may cause: the
	// run stops before the first command once they are reached.
	Events int
	// Output is the most bytes the steps of a trace may take: a step whose
	// text would go past it is not written, and the run stops. A step's
	// line is checked as it is built, part by part, so that it never holds
	// more than Output bytes (and, with no limit, is written out in
	// chunks of 64 KiB as it is built). The closing lines (the summary of
	// a text trace, the line saying which limit stopped the run) come on
	// top; they are O(tasks) and written out in chunks too.
	Output int64
}

// LimitError is a run stopped before it ran all its commands: by one of
// its [Limits], or by its context (a deadline, a client that went away, a
// server shutting down).
type LimitError struct {
	// Line is the line of the first command that was not run; for
	// "output", of the command that ran but whose step was not written
	// (the closing summary counts it).
	Line int
	// Limit is "tasks", "steps", "events", "output", or "context" when the
	// context ended.
	Limit string
	// Max is the limit that was reached; 0 for "context".
	Max int64
	// Cause is, for "context", why the context ended ([context.Cause]).
	Cause error
}

// Error says where the run stopped and why, e.g. "stopped before line 12:
// the run may submit at most 100000 tasks".
func (e *LimitError) Error() string {
	why := ""
	switch e.Limit {
	case "tasks":
		why = "the run may submit at most " + strconv.FormatInt(e.Max, 10) + " tasks"
	case "steps":
		why = "the run may run at most " + strconv.FormatInt(e.Max, 10) + " commands"
	case "events":
		why = "the run may cause at most " + strconv.FormatInt(e.Max, 10) + " events"
	case "output":
		why = "the trace may take at most " + strconv.FormatInt(e.Max, 10) + " bytes"
	case "context":
		why = "the run was stopped"
		if e.Cause != nil {
			why += ": " + e.Cause.Error()
		}
	default:
		why = e.Limit
	}
	if e.Limit == "output" {
		// The command ran; its step is what was not written.
		return fmt.Sprintf("stopped at line %d: %s", e.Line, why)
	}
	return fmt.Sprintf("stopped before line %d: %s", e.Line, why)
}

// Unwrap returns the cause of a run stopped by its context.
func (e *LimitError) Unwrap() error { return e.Cause }

// stopped returns the error of a run whose context ended before line.
func stopped(ctx context.Context, line int) *LimitError {
	cause := context.Cause(ctx)
	if cause == nil {
		cause = errors.New("context ended")
	}
	return &LimitError{Line: line, Limit: "context", Cause: cause}
}
