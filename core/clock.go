package core

import (
	"fmt"
	"time"
)

// Now returns the queue's clock: virtual time, starting at 0, moved only by
// [Queue.Advance]. The queue never reads the wall
// clock; a real-time driver advances it with the time that passed.
//
// The clock saturates at the largest time.Duration (about 292 years): an
// advance past it stops there, and so does a deadline or due time that
// would fall after it; those fire at the next advance to that time.
func (q *Queue) Now() time.Duration { return q.now }

// Advance moves the clock on by d, to t = Now + d (saturating). On the way it fires, one at a time in
// order of time (ties in the order they were set), every lease deadline and
// every due time ≤ t, each at its own time: while one fires, Now is its
// time, so its events carry that time and a delay it sets counts from it. A
// timer set while firing that falls ≤ t fires too. Then the clock is t.
//
//   - A lease deadline: the lease expires. An [EventExpired] is emitted and
//     the task fails exactly as [Queue.Fail] with the error "lease expired"
//     would fail it (READY, DELAYED or DEAD, the blocking wave included);
//     the lease is refused afterwards with ErrLeaseExpired.
//   - A due time: the DELAYED task is READY at the back of the line
//     ([EventDue]).
//   - The growth alert's clear time: [EventCleared] (see [Alert]).
//   - The next batch of a rate-limited redrive (see
//     [Queue.RedriveMatching]): each batch at its own time, so a long
//     advance redrives one batch per period that elapsed, never more.
//
// So after it, no lease outlives its deadline and no DELAYED task its due
// time (invariant 6). It refuses, changing nothing, a negative d
// (ErrClockBackwards).
//
// The cost is O(log n) per timer fired, for the n timers set (n ≤ RUNNING +
// DELAYED tasks), plus what each firing does (a blocking wave); O(1) when
// nothing falls due.
func (q *Queue) Advance(d time.Duration) error {
	q.op++
	defer q.flush() // events an earlier OnEvent panic left waiting, too
	if d < 0 {
		return fmt.Errorf("core: cannot advance by %v: %w", d, ErrClockBackwards)
	}
	t := later(q.now, d)
	for len(q.timers) > 0 && q.timers[0].at <= t {
		top := q.timers[0]
		q.now = top.at
		q.clearTimer(top.v)
		q.fire(top.v)
	}
	q.now = t
	return nil
}

// fire acts on v's timer, just removed, at its time.
func (q *Queue) fire(v int32) {
	switch v {
	case timerAlert:
		q.clearAlert()
		return
	case timerJob:
		q.redriveBatch()
		return
	}
	switch q.nodes.at(v).state {
	case running:
		q.expire(v)
	case delayed:
		q.move(v, ready, -1, &Event{Kind: EventDue})
	default:
		panic(fmt.Sprintf("core: a timer fired for %s, which is %s", q.nodes.at(v).name, q.nodes.at(v).state.State()))
	}
}

// expire ends v's current lease, which reached its deadline: it is
// remembered as expired (so that it is refused with ErrLeaseExpired from
// now on) and the task fails with "lease expired".
func (q *Queue) expire(v int32) {
	n := q.nodes.at(v)
	if q.expired == nil {
		q.expired = make(map[uint64]expiredLease)
	}
	q.expired[n.lease] = expiredLease{v: v, attempt: n.attempts}
	if q.onEvent != nil {
		q.emit(Event{Op: q.op, Kind: EventExpired, Task: n.name, From: Running, To: Running,
			Attempt: int(n.attempts), Lease: n.lease, Deadline: q.now})
	}
	q.fail(v, ErrLeaseExpired)
}

// expiredLease is a lease that reached its deadline: whose and which attempt.
type expiredLease struct {
	v       int32
	attempt int32
}

// NextTimer returns the earliest timer still to fire: a lease deadline, a
// due time, the growth alert's clear time or a redrive's next batch; false
// if none is set. O(1).
func (q *Queue) NextTimer() (at time.Duration, ok bool) {
	if len(q.timers) == 0 {
		return 0, false
	}
	return q.timers[0].at, true
}
