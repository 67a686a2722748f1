package core

import "time"

// Next hands out the task at the front of the READY line: it becomes
// RUNNING under a new lease, its attempt count one more. Under a lease
// timeout the lease's Deadline is Now + Config.LeaseTimeout; it expires
// then unless renewed by [Queue.Heartbeat] (0: it never expires). It
// returns false, changing nothing, when no task is READY. The cost is
// amortized O(1), plus O(log n) for the deadline's timer.
func (q *Queue) Next() (Lease, bool) {
	q.op++
	defer q.flush()
	v, ok := q.ready.pop()
	if !ok {
		return Lease{}, false
	}
	n := q.nodes.at(v)
	n.attempts++
	q.lease++
	n.lease = q.lease
	var deadline time.Duration
	if q.leaseTimeout > 0 {
		deadline = later(q.now, q.leaseTimeout)
	}
	var e *Event // nil when neither observed nor timed: an Event is large to build
	if q.onEvent != nil || q.leaseTimeout > 0 {
		e = &Event{Kind: EventStarted, Attempt: int(n.attempts), Lease: q.lease, Deadline: deadline}
	}
	q.move(v, running, -1, e)
	return Lease{Task: n.name, ID: n.lease, Attempt: int(n.attempts), Deadline: deadline, node: v + 1}, true
}

// Complete marks a RUNNING task SUCCEEDED. Each task waiting on it has one
// dependency fewer to wait for; those left with none, and PENDING, become
// READY in the order they arrived.
//
// It refuses, changing nothing, a lease that is not the task's current,
// unexpired one, checking in this order: an unknown task (ErrUnknown); a
// lease that expired (ErrLeaseExpired: exactly, by Task, ID and Attempt, a
// lease whose deadline the clock reached while it was current, whatever
// the task has done since); a task not RUNNING (ErrNotRunning); a lease
// from an earlier attempt or not exactly as handed out (ErrStaleLease). A
// lease is identified by Task, ID and Attempt: its Deadline is for the
// worker's information, so a lease renewed by a heartbeat is accepted with
// either Deadline. A lease completed before its deadline and replayed
// after it is refused as any replay is (ErrNotRunning, or ErrStaleLease
// once the task runs again), never as expired: it did not expire.
//
// The cost is O(k) for the k tasks waiting on it.
func (q *Queue) Complete(l Lease) error {
	q.op++
	defer q.flush()
	v, err := q.current(l)
	if err != nil {
		return err
	}
	observed := q.onEvent != nil // else no Event is built: one is large
	var e *Event
	if observed {
		e = &Event{Kind: EventSucceeded, Attempt: l.Attempt}
	}
	q.move(v, succeeded, -1, e)
	for _, w := range q.arena.ints(q.nodes.at(v).dependents) {
		d := q.nodes.at(w)
		d.waiting--
		if d.waiting == 0 && d.state == pending {
			var e *Event
			if observed {
				e = &Event{Kind: EventReady}
			}
			q.move(w, ready, -1, e)
		}
	}
	return nil
}

// current returns the id of the task l leases, if l is its current lease;
// else the refusal Complete documents. O(1).
//
// The lease's node hint answers without a lookup by name when it names a
// RUNNING task of that name under exactly that lease: names are unique
// among the ids, so the lookup would find the same one. Any other hint,
// stale or from another queue, falls back to the lookup.
func (q *Queue) current(l Lease) (int32, error) {
	if v := l.node - 1; v >= 0 && int(v) < q.nodes.len() {
		if n := q.nodes.at(v); n.state == running && n.lease == l.ID && int(n.attempts) == l.Attempt && n.name == l.Task {
			return v, nil
		}
	}
	v, ok := q.lookup(l.Task)
	if !ok {
		return 0, &TaskError{Task: l.Task, Err: ErrUnknown}
	}
	n := q.nodes.at(v)
	if n.state == running && n.lease == l.ID && int(n.attempts) == l.Attempt {
		return v, nil
	}
	switch x, expired := q.expired[l.ID]; {
	case expired && x.v == v && int(x.attempt) == l.Attempt:
		return 0, &TaskError{Task: l.Task, Err: ErrLeaseExpired}
	case n.state != running:
		return 0, &TaskError{Task: l.Task, Err: ErrNotRunning}
	}
	return 0, &TaskError{Task: l.Task, Err: ErrStaleLease} // another lease id or attempt
}
