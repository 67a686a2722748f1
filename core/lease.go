package core

// Next hands out the task at the front of the READY line: it becomes
// RUNNING under a new lease, its attempt count one more. It returns false,
// changing nothing, when no task is READY. The cost is amortized O(1).
func (q *Queue) Next() (Lease, bool) {
	q.op++
	defer q.flush()
	v, ok := q.ready.pop()
	if !ok {
		return Lease{}, false
	}
	n := &q.nodes[v]
	n.attempts++
	q.lease++
	n.lease = q.lease
	q.move(v, running, -1, Event{Kind: EventStarted, Attempt: int(n.attempts), Lease: q.lease})
	return Lease{Task: n.name, ID: n.lease, Attempt: int(n.attempts)}, true
}

// Complete marks a RUNNING task SUCCEEDED. Each task waiting on it has one
// dependency fewer to wait for; those left with none, and PENDING, become
// READY in the order they arrived.
//
// It refuses, changing nothing, a lease that is not the task's current one:
// an unknown task (ErrUnknown), a task not RUNNING (ErrNotRunning), or a
// lease from an earlier attempt or not exactly as handed out (ErrStaleLease).
//
// The cost is O(k) for the k tasks waiting on it.
func (q *Queue) Complete(l Lease) error {
	q.op++
	defer q.flush()
	v, err := q.current(l)
	if err != nil {
		return err
	}
	q.move(v, succeeded, -1, Event{Kind: EventSucceeded, Attempt: l.Attempt})
	for _, w := range q.nodes[v].dependents {
		d := &q.nodes[w]
		d.waiting--
		if d.waiting == 0 && d.state == pending {
			q.move(w, ready, -1, Event{Kind: EventReady})
		}
	}
	return nil
}

// current returns the id of the task l leases, if l is its current lease.
func (q *Queue) current(l Lease) (int32, error) {
	v, ok := q.lookup(l.Task)
	switch {
	case !ok:
		return 0, &TaskError{Task: l.Task, Err: ErrUnknown}
	case q.nodes[v].state != running:
		return 0, &TaskError{Task: l.Task, Err: ErrNotRunning}
	case q.nodes[v].lease != l.ID || int(q.nodes[v].attempts) != l.Attempt:
		return 0, &TaskError{Task: l.Task, Err: ErrStaleLease}
	}
	return v, nil
}
