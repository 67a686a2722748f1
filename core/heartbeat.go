package core

import "time"

// Heartbeat renews a lease: its deadline becomes Now + Config.LeaseTimeout,
// and it returns the lease with that Deadline. A worker that runs longer
// than the lease timeout heartbeats to keep its task; one that crashed stops,
// and its lease expires (see [Queue.Advance]).
//
// Only the current, unexpired lease of a RUNNING task is renewed; anything
// else is refused, changing nothing, as [Queue.Complete] refuses it:
// ErrUnknown, ErrLeaseExpired, ErrNotRunning or ErrStaleLease. Without a
// lease timeout a lease never expires: the heartbeat is accepted and changes
// nothing (Deadline stays 0), but its [EventHeartbeat] is emitted all the
// same, so that a trace shows the worker alive.
//
// The cost is O(log n) for the n timers set; O(1) without a lease timeout.
func (q *Queue) Heartbeat(l Lease) (Lease, error) {
	q.op++
	defer q.flush()
	v, err := q.current(l)
	if err != nil {
		return Lease{}, err
	}
	n := q.nodes.at(v)
	var deadline time.Duration
	if q.leaseTimeout > 0 {
		deadline = later(q.now, q.leaseTimeout)
		q.setTimer(v, deadline)
	}
	if q.onEvent != nil {
		q.emit(Event{Op: q.op, Kind: EventHeartbeat, Task: n.name, From: Running, To: Running,
			Attempt: int(n.attempts), Lease: n.lease, Deadline: deadline})
	}
	return Lease{Task: n.name, ID: n.lease, Attempt: int(n.attempts), Deadline: deadline, node: v + 1}, nil
}
