package core

// Fail reports that the current lease of a task failed with err, and decides
// in this one place what follows:
//   - attempts left, and err not [Permanent]: the task is READY again at
//     the back of the line, behind every task already READY (never the
//     front), and Fail returns READY;
//   - otherwise the task is DEAD, in the dead-letter queue with
//     "failed after N attempts: ERR", every task waiting on it transitively
//     that is PENDING becomes BLOCKED "blocked by TASK", nearest first, and
//     Fail returns DEAD.
//
// It refuses, changing nothing, a lease that is not the task's current one,
// as Complete does. The cost is O(1) for a retry and O(V'+E') for the V'
// tasks a death blocks.
func (q *Queue) Fail(l Lease, err error) (State, error) {
	q.op++
	defer q.flush()
	v, refused := q.current(l)
	if refused != nil {
		return "", refused
	}
	n := &q.nodes[v]
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if n.attempts < q.maxAttempts && !IsPermanent(err) {
		q.move(v, ready, -1, Event{Kind: EventRetried, Attempt: int(n.attempts), Reason: msg})
		return Ready, nil
	}
	n.reason = deathReason(n.attempts, err)
	q.move(v, dead, -1, Event{Kind: EventDead, Attempt: int(n.attempts), Reason: n.reason})
	q.blockWave(v, v)
	return Dead, nil
}
