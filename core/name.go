package core

import (
	"fmt"
	"slices"
)

// MaxName is the longest name, in bytes, of a task (or of a dependency, or
// of a durable queue's DAG). Every route that takes names applies it: the
// in-memory queue's Submit, the scenario parser, the durable queue before it
// sends a statement. 256 bytes is plenty for any name a person writes, and
// it bounds what a name costs wherever it is repeated (events, traces, the
// dead-letter queue, an index of the database).
const MaxName = 256

// ErrNameTooLong is a name longer than MaxName bytes; it is an
// ErrInvalidName.
var ErrNameTooLong = fmt.Errorf("%w: longer than %d bytes", ErrInvalidName, MaxName)

// CheckNames returns the refusal of a submit of task waiting on deps whose
// names are not admissible: empty (ErrInvalidName) or longer than MaxName
// (ErrNameTooLong), as a *TaskError naming the task; nil if all are. It
// does not look at what the queue holds. The cost is O(len(deps)).
func CheckNames(task string, deps []string) error {
	if task == "" || slices.Contains(deps, "") {
		return &TaskError{Task: task, Err: ErrInvalidName}
	}
	if len(task) > MaxName {
		return &TaskError{Task: task, Err: ErrNameTooLong}
	}
	for _, d := range deps {
		if len(d) > MaxName {
			return &TaskError{Task: task, Err: ErrNameTooLong}
		}
	}
	return nil
}
