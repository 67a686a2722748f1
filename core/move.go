package core

import "fmt"

// move is the one place where a task changes state. It checks the change
// against the state table, keeps the READY line, the DLQ and the timers in
// step with the state, and emits e (Kind and details filled by the caller;
// Op, Task, From, To and the blocked reason filled here), to be delivered
// when the operation ends. A change the table forbids is a bug in this
// package and panics.
//
// For blocked it also sets the root the reason names (root ignored
// otherwise), and keeps each root's count of the tasks it blocks (its blast
// radius) in step: one more for the new root, one less for the old.
// Entering the DLQ may raise the growth alert, emitted after e. Leaving RUNNING or DELAYED drops the task's timer; entering
// RUNNING under a lease timeout sets one at e.Deadline, entering DELAYED one
// at e.Due. e may be nil when events are not observed (Config.OnEvent
// unset) and the move sets no timer: the hot paths (a submit, a hand-out
// without a lease timeout, a completion) build no Event for nobody. The cost is O(1), plus O(log n) for a
// timer and the event when observed; without a lease timeout or backoff no
// timer is touched.
func (q *Queue) move(v int32, to code, root int32, e *Event) {
	n := q.nodes.at(v)
	from := n.state
	if !allowed[from][to] {
		panic(fmt.Sprintf("core: %s cannot go from %q to %q", n.name, from.State(), to.State()))
	}
	if from == blocked {
		d := &q.dl[v]
		q.dl[d.root].blocks--
		d.root = -1
	}
	n.state = to
	if to == blocked {
		q.dlOf(v).root = root
		q.dlOf(root).blocks++
	}
	if n.timer != 0 {
		q.clearTimer(v)
	}
	switch {
	case to == running && q.leaseTimeout > 0:
		q.setTimer(v, e.Deadline)
	case to == delayed:
		q.setTimer(v, e.Due)
	}
	inDLQ := from == dead || from == blocked
	alert := false
	switch {
	case to == dead || to == blocked:
		if !inDLQ {
			alert = q.enterDLQ(v)
		}
	case inDLQ:
		q.leaveDLQ(v)
	}
	if to == ready {
		q.ready.push(v)
	}
	if q.onEvent == nil {
		return
	}
	e.Op, e.Task, e.From, e.To = q.op, n.name, from.State(), to.State()
	if to == blocked {
		e.Root = q.nodes.at(root).name
		e.Reason = q.reason(v)
	}
	q.emit(*e)
	if alert {
		q.emitAlert(EventAlert)
	}
}
