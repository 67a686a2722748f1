package scenario

import (
	"fmt"
	"time"

	"github.com/dagq/dagq/core"
)

// BoardState is what a [Board] holds, as plain data: a queue's state read
// elsewhere (a durable queue's DAG, say), for [NewBoard] to make a board
// of it without replaying its history.
type BoardState struct {
	// Tasks are the submitted tasks in arrival order; States[i] is the
	// state of Tasks[i].
	Tasks  []string
	States []core.State
	// Ready is the READY line, front first.
	Ready []string
	// DLQ is the dead-letter queue in the order tasks entered it, each
	// entry as [core.Queue.DeadLetters] has it (its BlastRadius kept).
	DLQ []core.DeadLetter
	// Timers holds the deadline of each RUNNING task's lease that
	// expires, and the due time of each DELAYED task; nil for none.
	Timers map[string]time.Duration
	// Alerting: the growth alert is raised, with its rule.
	Alerting    bool
	AlertCount  int
	AlertWindow time.Duration
}

// NewBoard returns the board that holds st: the same board as the one
// folded from the events of a queue in that state. It checks what the
// events would have kept true: every task once, with a state; the READY
// line holds exactly the READY tasks, each once; the DLQ exactly the
// DEAD and BLOCKED tasks, each once with its own state, and each
// BLOCKED entry's root is DEAD in it. A state that breaks one of them is
// an error naming the task.
//
// The board takes st's slices and map as its own; the caller must not
// change them afterwards. The cost is O(tasks + entries).
func NewBoard(st BoardState) (*Board, error) {
	if len(st.States) != len(st.Tasks) {
		return nil, fmt.Errorf("scenario: a board of %d tasks with %d states", len(st.Tasks), len(st.States))
	}
	b := &Board{tasks: st.Tasks, states: make(map[string]core.State, len(st.Tasks)), ready: st.Ready, timers: st.Timers,
		alerting: st.Alerting, alertCount: st.AlertCount, alertWindow: st.AlertWindow}
	for i, t := range st.Tasks {
		s := st.States[i]
		if stateIndex(s) == 0 {
			return nil, fmt.Errorf("scenario: task %q has no state (%q)", t, s)
		}
		b.states[t] = s
		if len(b.states) != i+1 { // one map operation a task, not two
			return nil, fmt.Errorf("scenario: task %q is twice on the board", t)
		}
		b.count[stateIndex(s)]++
	}
	inLine := make(map[string]bool, len(st.Ready))
	for _, t := range st.Ready {
		if b.states[t] != core.Ready || inLine[t] {
			return nil, fmt.Errorf("scenario: %q in the READY line is %s", t, orNone(b.states[t], inLine[t]))
		}
		inLine[t] = true
	}
	if n := b.count[stateIndex(core.Ready)]; n != len(st.Ready) {
		return nil, fmt.Errorf("scenario: %d tasks are READY and %d in the READY line", n, len(st.Ready))
	}
	if len(st.DLQ) > 0 {
		b.dlqAt = make(map[string]int, len(st.DLQ))
		b.dlq = make([]boardEntry, 0, len(st.DLQ))
	}
	for _, d := range st.DLQ {
		s := b.states[d.Task]
		if _, dup := b.dlqAt[d.Task]; dup || s != d.State || (s != core.Dead && s != core.Blocked) {
			return nil, fmt.Errorf("scenario: the dead-letter queue's %q (%s) is %s", d.Task, d.State, orNone(s, dup))
		}
		b.enterDLQ(d)
	}
	for _, d := range st.DLQ {
		if d.State == core.Blocked {
			if i, ok := b.dlqAt[d.Root]; !ok || b.dlq[i].State != core.Dead {
				return nil, fmt.Errorf("scenario: %q is blocked by %q, which is not DEAD in the dead-letter queue", d.Task, d.Root)
			}
		}
	}
	if n := b.count[stateIndex(core.Dead)] + b.count[stateIndex(core.Blocked)]; n != len(st.DLQ) {
		return nil, fmt.Errorf("scenario: %d tasks are DEAD or BLOCKED and %d in the dead-letter queue", n, len(st.DLQ))
	}
	return b, nil
}

// orNone says what a task found somewhere it should not be is: its state,
// "not submitted", or "there twice".
func orNone(s core.State, twice bool) string {
	switch {
	case twice:
		return "there twice"
	case s == "":
		return "not submitted"
	}
	return string(s)
}

// Len returns how many tasks were submitted. The cost is O(1).
func (b *Board) Len() int { return len(b.tasks) }

// Task returns the i-th task submitted, from 0. The cost is O(1).
func (b *Board) Task(i int) string { return b.tasks[i] }
