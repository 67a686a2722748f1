package core

// Fail reports that the current lease of a task failed with err, and decides
// in this one place (with fail, which an expired lease goes through too)
// what follows:
//   - attempts left, err not [Permanent], and a backoff delay above 0 (see
//     [Backoff]): the task is DELAYED until Now + the delay, when it joins
//     the back of the READY line, and Fail returns DELAYED;
//   - attempts left, err not Permanent, no delay: the task is READY again
//     at the back of the line, behind every task already READY (never the
//     front), and Fail returns READY;
//   - otherwise the task is DEAD, in the dead-letter queue with
//     "failed after N attempt(s): ERR" (a permanent error, at any attempt:
//     "permanent failure after N attempt(s): ERR"), every task waiting on it
//     transitively that is PENDING becomes BLOCKED "blocked by TASK",
//     nearest first, and Fail returns DEAD. Under Config.PoisonAfter = K,
//     a task redriven K times or more since submit (or its last
//     ForceRedrive) is poisoned as it dies (DeadLetter.Poisoned).
//
// It refuses, changing nothing, a lease that is not the task's current one,
// or has expired, as Complete does. The cost is O(1) for a retry, O(log n)
// for a delay (n timers set), and O(V'+E') for the V' tasks a death blocks.
func (q *Queue) Fail(l Lease, err error) (State, error) {
	q.op++
	defer q.flush()
	v, refused := q.current(l)
	if refused != nil {
		return "", refused
	}
	return q.fail(v, err), nil
}

// fail fails the RUNNING task v's current lease with err and returns the
// state it leads to: Fail's decision, for Fail and for an expired lease.
func (q *Queue) fail(v int32, err error) State {
	n := q.nodes.at(v)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	permanent := IsPermanent(err)
	if n.attempts < q.maxAttempts && !permanent {
		if d := q.delay(n.attempts); d > 0 {
			due := later(q.now, d)
			q.move(v, delayed, -1, &Event{Kind: EventDelayed, Attempt: int(n.attempts), Reason: msg, Due: due})
			return Delayed
		}
		q.move(v, ready, -1, &Event{Kind: EventRetried, Attempt: int(n.attempts), Reason: msg})
		return Ready
	}
	dn := q.dlOf(v)
	dn.reason = deathReason(n.attempts, err, permanent)
	dn.errText, dn.fp, dn.fpOK = msg, "", false
	dn.poisoned = q.poisonAfter > 0 && dn.redrives >= q.poisonAfter
	q.move(v, dead, -1, &Event{Kind: EventDead, Attempt: int(n.attempts), Reason: dn.reason, Error: msg, Poisoned: dn.poisoned})
	q.blockWave(v, v)
	return Dead
}
