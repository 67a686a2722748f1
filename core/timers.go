package core

import "time"

// timer is an entry of the timer heap: when it fires, the order it was set
// in (to break ties), and the task it is about. A RUNNING task under a lease
// timeout has one (its lease deadline), a DELAYED task has one (its due
// time), no other task has any: a task has at most one timer, and
// node.timer is its index in the heap plus one (0: none).
//
// Two timers belong to no task and have their own v: timerAlert, when the
// growth alert clears (see alert.go), and timerJob, the next batch of a
// rate-limited redrive (see bulk.go). Each is at most one entry too, its
// index kept in the queue.
type timer struct {
	at  time.Duration
	seq uint64
	v   int32
}

// The v of the timers that belong to no task.
const (
	timerAlert int32 = -1
	timerJob   int32 = -2
)

// slot returns where v's timer index is kept: in its node, or in the queue
// for timerAlert and timerJob.
func (q *Queue) slot(v int32) *int32 {
	switch v {
	case timerAlert:
		return &q.alert.timer
	case timerJob:
		return &q.jobTimer
	}
	return &q.nodes.at(v).timer
}

// The timers are a binary min-heap on (at, seq) in q.timers, indexed: every
// entry's task knows where the entry is, so that a lease that ends early
// (completed, failed) or is renewed (a heartbeat) moves or leaves its entry
// in O(log n), and the heap holds only live timers, n ≤ RUNNING + DELAYED
// tasks. Its storage is reused: once warm, setting and firing allocate
// nothing. When neither a lease timeout nor a backoff is configured no
// timer is ever set and nothing here runs.
//
// Heap invariant: for every i > 0, entry (i−1)/2 is not after entry i.

// before orders the heap: earlier first, and of two at the same time, the
// one set first.
func (q *Queue) before(i, j int) bool {
	a, b := &q.timers[i], &q.timers[j]
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}

// setTimer sets v's timer to fire at at: a new entry, or v's entry moved (a
// heartbeat), counted as set now for ties. O(log n).
func (q *Queue) setTimer(v int32, at time.Duration) {
	q.timerSeq++
	idx := q.slot(v)
	if *idx == 0 {
		q.timers = append(q.timers, timer{at: at, seq: q.timerSeq, v: v})
		i := len(q.timers) - 1
		*idx = int32(i + 1)
		q.up(i)
		return
	}
	i := int(*idx - 1)
	q.timers[i].at, q.timers[i].seq = at, q.timerSeq
	q.fix(i)
}

// clearTimer removes v's timer, if it has one. O(log n).
func (q *Queue) clearTimer(v int32) {
	idx := q.slot(v)
	if *idx == 0 {
		return
	}
	i, last := int(*idx-1), len(q.timers)-1
	*idx = 0
	if i != last {
		q.timers[i] = q.timers[last]
		*q.slot(q.timers[i].v) = int32(i + 1)
	}
	q.timers = q.timers[:last]
	if i != last {
		q.fix(i)
	}
}

// timerOf returns when v's timer fires, if it has one. O(1).
func (q *Queue) timerOf(v int32) (time.Duration, bool) {
	if i := *q.slot(v); i != 0 {
		return q.timers[i-1].at, true
	}
	return 0, false
}

// fix restores the heap invariant after entry i changed.
func (q *Queue) fix(i int) {
	if !q.down(i) {
		q.up(i)
	}
}

func (q *Queue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.before(i, p) {
			break
		}
		q.swapTimers(i, p)
		i = p
	}
}

// down sifts entry i down and reports whether it moved.
func (q *Queue) down(i int) bool {
	start, n := i, len(q.timers)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && q.before(r, c) {
			c = r
		}
		if !q.before(c, i) {
			break
		}
		q.swapTimers(i, c)
		i = c
	}
	return i > start
}

func (q *Queue) swapTimers(i, j int) {
	q.timers[i], q.timers[j] = q.timers[j], q.timers[i]
	*q.slot(q.timers[i].v) = int32(i + 1)
	*q.slot(q.timers[j].v) = int32(j + 1)
}
