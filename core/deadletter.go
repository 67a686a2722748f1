package core

import "strconv"

// DeadLetter is an entry of the dead-letter queue: a DEAD task with why it
// died, or a BLOCKED task with the dead task upstream that holds it.
type DeadLetter struct {
	Task   string
	Reason string // "failed after N attempts: ERR", "permanent failure after N attempts: ERR" or "blocked by ROOT"
}

// deadLetters keeps the DLQ in the order tasks entered it. A task that
// leaves (redriven or unblocked) leaves its entry behind, stale; stale
// entries are dropped when they outnumber live ones, so enter and leave are
// amortized O(1).
type deadLetters struct {
	entries []dlqEntry
	next    uint64 // number of the next entry, from 1
	live    int
}

type dlqEntry struct {
	v  int32
	no uint64 // live while nodes[v].dlqEntry == no
}

func (q *Queue) enterDLQ(v int32) {
	d := &q.dlq
	d.next++
	d.entries = append(d.entries, dlqEntry{v, d.next})
	q.nodes[v].dlqEntry = d.next
	d.live++
}

func (q *Queue) leaveDLQ(v int32) {
	q.nodes[v].dlqEntry = 0
	d := &q.dlq
	d.live--
	if len(d.entries) > 64 && d.live*2 < len(d.entries) {
		kept := d.entries[:0]
		for _, e := range d.entries {
			if q.nodes[e.v].dlqEntry == e.no {
				kept = append(kept, e)
			}
		}
		d.entries = kept
	}
}

// DeadLetters returns the dead-letter queue: the DEAD and BLOCKED tasks in
// the order they entered it. A BLOCKED task whose root is renamed keeps its
// place. The cost is O(entries).
func (q *Queue) DeadLetters() []DeadLetter {
	out := make([]DeadLetter, 0, q.dlq.live)
	for _, e := range q.dlq.entries {
		if q.nodes[e.v].dlqEntry == e.no {
			out = append(out, DeadLetter{Task: q.nodes[e.v].name, Reason: q.reason(e.v)})
		}
	}
	return out
}

// reason returns the DLQ reason of a DEAD or BLOCKED task.
func (q *Queue) reason(v int32) string {
	n := &q.nodes[v]
	if n.state == blocked {
		return "blocked by " + q.nodes[n.root].name
	}
	return n.reason
}

// deathReason formats the reason of a task that failed its last attempt,
// or failed permanently at any attempt: "failed after N attempt(s): ERR" or
// "permanent failure after N attempt(s): ERR".
func deathReason(attempts int32, err error, permanent bool) string {
	s := "failed after "
	if permanent {
		s = "permanent failure after "
	}
	s += strconv.Itoa(int(attempts)) + " attempt"
	if attempts != 1 {
		s += "s"
	}
	if err != nil && err.Error() != "" {
		s += ": " + err.Error()
	}
	return s
}
