package scenario

import (
	"maps"
	"slices"
	"time"

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
	// dlq holds the entries of the dead-letter queue in the order tasks
	// entered it; an entry whose task left is stale, and stale entries are
	// dropped once they outnumber live ones, so that entering, leaving and
	// renaming cost amortized O(1) however long the queue.
	dlq   []boardEntry
	dlqAt map[string]int // task → index in dlq of its live entry
	// timers holds the deadline of each RUNNING task's lease that expires
	// and the due time of each DELAYED task.
	timers map[string]time.Duration
	// alerting: the growth alert is raised (Alert, until Cleared);
	// alertCount and alertWindow are its rule, from the last Alert.
	alerting    bool
	alertCount  int
	alertWindow time.Duration
	// count holds how many tasks are in each state, so that the counts
	// cost O(1) to read.
	count [numStates]int
}

// boardEntry is an entry of a Board's dead-letter queue.
type boardEntry struct {
	core.DeadLetter
	live bool
}

// Apply folds one event into the board:
//   - Submitted adds the task (at the back of the READY line if it arrives
//     READY, at the back of the DLQ if it arrives BLOCKED);
//   - Ready, Retried and Redriven put the task at the back of the READY
//     line; Started takes it from the front;
//   - Dead and Blocked put the task at the back of the DLQ; Unblocked and
//     Redriven take it out; Rerooted changes its reason in place;
//   - Delayed takes the task out of the line until Due puts it at the
//     back; Started (with a deadline), Heartbeat and Delayed set the
//     task's timer, and every other change of a timed task clears it;
//   - Rejected and Expired change nothing (an expiry's failure is the
//     event after it).
//
// Every event but Rejected, Expired and Heartbeat sets the task's state to
// e.To. The cost is amortized O(1).
func (b *Board) Apply(e core.Event) { b.apply(&e) }

// apply is Apply, the event passed by pointer: an event is some 330 bytes,
// and a session applies every event at least twice.
func (b *Board) apply(e *core.Event) {
	switch e.Kind {
	case core.EventRejected, core.EventExpired:
		return
	case core.EventAlert, core.EventCleared:
		b.alerting = e.Kind == core.EventAlert
		if b.alerting {
			b.alertCount, b.alertWindow = e.Count, e.Window
		}
		return
	case core.EventRedriveStarted, core.EventRedriveProgress, core.EventRedriveDone, core.EventRedriveCancelled:
		return // its tasks' own events follow or came before
	case core.EventHeartbeat:
		b.setTimer(e.Task, e.Deadline)
		return
	}
	if b.states == nil {
		b.states = make(map[string]core.State)
	}
	if e.Kind == core.EventSubmitted {
		b.tasks = append(b.tasks, e.Task)
	}
	b.setState(e.Task, e.To)
	switch e.Kind {
	case core.EventStarted:
		b.setTimer(e.Task, e.Deadline)
	case core.EventDelayed:
		b.setTimer(e.Task, e.Due)
	default:
		b.setTimer(e.Task, 0)
	}
	switch e.Kind {
	case core.EventSubmitted:
		switch e.To {
		case core.Ready:
			b.ready = append(b.ready, e.Task)
		case core.Blocked:
			b.enterBlocked(e)
		}
	case core.EventReady, core.EventRetried, core.EventDue:
		b.ready = append(b.ready, e.Task)
	case core.EventRedriven:
		b.leaveDLQ(e.Task)
		b.ready = append(b.ready, e.Task)
	case core.EventStarted:
		b.leaveReady(e.Task)
	case core.EventDead:
		b.enterDLQ(core.DeadLetter{Task: e.Task, Reason: e.Reason, State: core.Dead, Entered: e.At,
			Attempts: e.Attempt, Error: e.Error, Fingerprint: core.Fingerprint(e.Error), Poisoned: e.Poisoned})
	case core.EventBlocked:
		b.enterBlocked(e)
	case core.EventUnblocked:
		// Its root was redriven, so it has left the DLQ with its blast
		// radius: nothing to count down.
		b.leaveDLQ(e.Task)
	case core.EventRerooted:
		if i, ok := b.dlqAt[e.Task]; ok {
			b.blast(b.dlq[i].Root, -1)
			b.dlq[i].Reason, b.dlq[i].Root = e.Reason, e.Root
			b.blast(e.Root, +1)
		}
	}
}

// setState sets a task's state and keeps the counts per state.
func (b *Board) setState(task string, to core.State) {
	if from, ok := b.states[task]; ok {
		b.count[stateIndex(from)]--
	}
	b.states[task] = to
	b.count[stateIndex(to)]++
}

// numStates is the number of slots of Board.count: one per state, and one
// for the zero State.
const numStates = 8

// stateIndex is the slot of Board.count that counts st.
func stateIndex(st core.State) int {
	switch st {
	case core.Pending:
		return 1
	case core.Ready:
		return 2
	case core.Running:
		return 3
	case core.Delayed:
		return 4
	case core.Succeeded:
		return 5
	case core.Dead:
		return 6
	case core.Blocked:
		return 7
	}
	return 0
}

func (b *Board) Count(st core.State) int {
	if i := stateIndex(st); i > 0 {
		return b.count[i]
	}
	return 0
}

// enterBlocked enters a task that arrived BLOCKED or was blocked, and
// counts it in its root's blast radius.
func (b *Board) enterBlocked(e *core.Event) {
	b.enterDLQ(core.DeadLetter{Task: e.Task, Reason: e.Reason, State: core.Blocked, Root: e.Root, Entered: e.At})
	b.blast(e.Root, +1)
}

// blast adds d to the blast radius of root, if it is in the DLQ. O(1).
func (b *Board) blast(root string, d int) {
	if i, ok := b.dlqAt[root]; ok {
		b.dlq[i].BlastRadius += d
	}
}

// Alerting reports whether the growth alert is raised, as the events say.
func (b *Board) Alerting() bool { return b.alerting }

// AlertRule returns the rule of the growth alert last raised: it rises
// when count entries or more enter the dead-letter queue within window.
// Both are 0 before any alert.
func (b *Board) AlertRule() (count int, window time.Duration) { return b.alertCount, b.alertWindow }

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

// setTimer sets a task's timer, or clears it for 0.
func (b *Board) setTimer(task string, at time.Duration) {
	switch {
	case at != 0:
		if b.timers == nil {
			b.timers = make(map[string]time.Duration)
		}
		b.timers[task] = at
	case b.timers != nil:
		delete(b.timers, task)
	}
}

// Timer returns when a task's timer fires: the deadline of a RUNNING
// task's lease, when leases expire, or the due time of a DELAYED task.
func (b *Board) Timer(task string) (time.Duration, bool) {
	at, ok := b.timers[task]
	return at, ok
}

func (b *Board) enterDLQ(d core.DeadLetter) {
	if b.dlqAt == nil {
		b.dlqAt = make(map[string]int)
	}
	b.dlqAt[d.Task] = len(b.dlq)
	b.dlq = append(b.dlq, boardEntry{d, true})
}

// leaveDLQ takes a task's entry out of the dead-letter queue. The cost is
// amortized O(1): the entry is marked stale, and the stale entries are
// dropped together once they are more than half.
func (b *Board) leaveDLQ(task string) {
	i, ok := b.dlqAt[task]
	if !ok {
		return
	}
	b.dlq[i].live = false
	delete(b.dlqAt, task)
	if len(b.dlq) > 64 && 2*len(b.dlqAt) < len(b.dlq) {
		kept := b.dlq[:0]
		for _, d := range b.dlq {
			if d.live {
				b.dlqAt[d.Task] = len(kept)
				kept = append(kept, d)
			}
		}
		clear(b.dlq[len(kept):])
		b.dlq = kept
	}
}

// liveDLQ calls f for each entry of the dead-letter queue, in order.
func (b *Board) liveDLQ(f func(core.DeadLetter)) {
	for _, d := range b.dlq {
		if d.live {
			f(d.DeadLetter)
		}
	}
}

// Clone returns a copy of the board, which changes apart from it. The
// cost is O(tasks + entries).
func (b *Board) Clone() *Board {
	c := b.clone()
	return &c
}

// ApplyAll applies evs in order, as Apply does each, without copying
// them: an event is some 330 bytes, and the playground applies every
// event at least twice.
func (b *Board) ApplyAll(evs []core.Event) {
	for i := range evs {
		b.apply(&evs[i])
	}
}

// clone returns a copy of the board that shares nothing with it.
func (b *Board) clone() Board {
	c := Board{
		tasks:  slices.Clone(b.tasks),
		states: maps.Clone(b.states),
		ready:  slices.Clone(b.ready[b.head:]),
		timers: maps.Clone(b.timers),
		count:  b.count,

		alerting: b.alerting, alertCount: b.alertCount, alertWindow: b.alertWindow,
	}
	b.liveDLQ(func(d core.DeadLetter) { c.enterDLQ(d) })
	return c
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
// changed (Rerooted) keeps its place. Every field is as the queue's
// [core.Queue.DeadLetters] has it, folded from the events: the roots, the
// times of entry, the errors and their fingerprints, the blast radii kept
// as tasks are blocked, released and rerooted.
//
// The cost is O(entries).
func (b *Board) DeadLetters() []core.DeadLetter {
	out := make([]core.DeadLetter, 0, len(b.dlqAt))
	b.liveDLQ(func(d core.DeadLetter) { out = append(out, d) })
	return out
}

// DeadLetterGroups returns the DEAD entries of the dead-letter queue grouped
// by the fingerprint of their error, as [core.Queue.DeadLetterGroups] does,
// folded from the events: the groups in the order of their first entry,
// each with its tasks in order, its first and last entry times, the sum of
// their blast radii and its poisoned tasks.
//
// The cost is O(entries).
func (b *Board) DeadLetterGroups() []core.DeadLetterGroup {
	var dl []core.DeadLetter
	b.liveDLQ(func(d core.DeadLetter) { dl = append(dl, d) })
	return core.GroupDeadLetters(dl)
}
