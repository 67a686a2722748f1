package scenario

import (
	"slices"

	"github.com/dagq/dagq/core"
)

// Board is the state of a queue rebuilt from its events alone: apply every
// event a [core.Queue] emitted, in order, and the Board agrees with the
// queue on every task's state, the READY line and the dead-letter queue.
// The playground animates from it, and the JSON trace is built from it, so
// both show exactly what the events say.
//
// The zero Board is empty and ready to use.
type Board struct {
	tasks  []string
	states map[string]core.State
	ready  []string // ready[head:] is the READY line, front first
	head   int
	dlq    []core.DeadLetter // in the order tasks entered the DLQ
}

// Apply folds one event into the board:
//   - Submitted adds the task (at the back of the READY line if it arrives
//     READY, at the back of the DLQ if it arrives BLOCKED);
//   - Ready, Retried and Redriven put the task at the back of the READY
//     line; Started takes it from the front;
//   - Dead and Blocked put the task at the back of the DLQ; Unblocked and
//     Redriven take it out; Rerooted changes its reason in place;
//   - Rejected changes nothing.
//
// Every event but Rejected sets the task's state to e.To. The cost is O(1),
// plus O(DLQ) for the events that leave or change the DLQ.
func (b *Board) Apply(e core.Event) {
	if e.Kind == core.EventRejected {
		return
	}
	if b.states == nil {
		b.states = make(map[string]core.State)
	}
	if e.Kind == core.EventSubmitted {
		b.tasks = append(b.tasks, e.Task)
	}
	b.states[e.Task] = e.To
	switch e.Kind {
	case core.EventSubmitted:
		switch e.To {
		case core.Ready:
			b.ready = append(b.ready, e.Task)
		case core.Blocked:
			b.dlq = append(b.dlq, core.DeadLetter{Task: e.Task, Reason: e.Reason})
		}
	case core.EventReady, core.EventRetried:
		b.ready = append(b.ready, e.Task)
	case core.EventRedriven:
		b.leaveDLQ(e.Task)
		b.ready = append(b.ready, e.Task)
	case core.EventStarted:
		b.leaveReady(e.Task)
	case core.EventDead, core.EventBlocked:
		b.dlq = append(b.dlq, core.DeadLetter{Task: e.Task, Reason: e.Reason})
	case core.EventUnblocked:
		b.leaveDLQ(e.Task)
	case core.EventRerooted:
		if i := b.dlqIndex(e.Task); i >= 0 {
			b.dlq[i].Reason = e.Reason
		}
	}
}

// leaveReady takes a task out of the READY line: from the front, as Next
// does, or from wherever it is should events ever say otherwise.
func (b *Board) leaveReady(task string) {
	line := b.ready[b.head:]
	switch i := slices.Index(line, task); {
	case i == 0:
		b.head++
	case i > 0:
		b.ready = slices.Delete(b.ready, b.head+i, b.head+i+1)
	}
	if b.head == len(b.ready) {
		b.ready, b.head = b.ready[:0], 0
	} else if b.head >= 1024 && b.head*2 >= len(b.ready) {
		n := copy(b.ready, b.ready[b.head:])
		b.ready, b.head = b.ready[:n], 0
	}
}

func (b *Board) dlqIndex(task string) int {
	return slices.IndexFunc(b.dlq, func(d core.DeadLetter) bool { return d.Task == task })
}

func (b *Board) leaveDLQ(task string) {
	if i := b.dlqIndex(task); i >= 0 {
		b.dlq = slices.Delete(b.dlq, i, i+1)
	}
}

// State returns the state of a task; "" if it was never submitted.
func (b *Board) State(task string) core.State { return b.states[task] }

// States returns the state of every submitted task, in a new map.
func (b *Board) States() map[string]core.State {
	out := make(map[string]core.State, len(b.states))
	for t, s := range b.states {
		out[t] = s
	}
	return out
}

// Tasks returns the submitted tasks in arrival order.
func (b *Board) Tasks() []string { return slices.Clone(b.tasks) }

// Ready returns the READY line, front first: the order in which Next will
// hand the tasks out.
func (b *Board) Ready() []string { return slices.Clone(b.ready[b.head:]) }

// DeadLetters returns the dead-letter queue: the DEAD and BLOCKED tasks
// with their reasons, in the order they entered it. A task whose reason
// changed (Rerooted) keeps its place.
func (b *Board) DeadLetters() []core.DeadLetter { return slices.Clone(b.dlq) }
