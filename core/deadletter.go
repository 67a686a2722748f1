package core

import (
	"strconv"
	"time"
)

// DeadLetter is an entry of the dead-letter queue: a DEAD task with why it
// died, or a BLOCKED task with the dead task upstream that holds it. Reason
// is for people; the other fields carry the same facts as data, so that no
// caller parses Reason.
type DeadLetter struct {
	Task   string
	Reason string // "failed after N attempts: ERR", "permanent failure after N attempts: ERR" or "blocked by ROOT"

	State    State         // DEAD or BLOCKED
	Root     string        // BLOCKED: the DEAD task its reason names; "" for a DEAD task
	Entered  time.Duration // the clock when it entered the DLQ (a BLOCKED task whose root is renamed keeps it)
	Attempts int           // hand-outs since submit or the last redrive
	// DEAD: the error of the last attempt alone, without "failed after N
	// attempts: ", and its [Fingerprint].
	Error       string
	Fingerprint string
	// DEAD: how many BLOCKED tasks it holds, transitively: those whose Root
	// it is. Each BLOCKED task counts for one root only, so the blast radii
	// of the DLQ add up to its BLOCKED tasks.
	BlastRadius int
	// DEAD: it died again after Config.PoisonAfter redrives and needs a
	// human: a bulk redrive skips it, Redrive refuses it, ForceRedrive
	// moves it.
	Poisoned bool
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

// enterDLQ enters v at the back of the DLQ, stamped with the clock, and
// reports whether the entry raised the growth alert (to be emitted after
// the entry's own event).
func (q *Queue) enterDLQ(v int32) bool {
	d := &q.dlq
	d.next++
	d.entries = append(d.entries, dlqEntry{v, d.next})
	dn := q.dlOf(v)
	dn.dlqEntry = d.next
	dn.entered = q.now
	d.live++
	return q.alert.entries > 0 && q.noteEntry()
}

func (q *Queue) leaveDLQ(v int32) {
	q.dl[v].dlqEntry = 0
	d := &q.dlq
	d.live--
	if len(d.entries) > 64 && d.live*2 < len(d.entries) {
		kept := d.entries[:0]
		for _, e := range d.entries {
			if q.dl[e.v].dlqEntry == e.no {
				kept = append(kept, e)
			}
		}
		d.entries = kept
	}
}

// DeadLetters returns the dead-letter queue: the DEAD and BLOCKED tasks in
// the order they entered it. A BLOCKED task whose root is renamed keeps its
// place. The cost is O(entries), plus a [Fingerprint] for each DEAD task not
// fingerprinted before (computed once per death); a blast radius costs
// O(1), kept as tasks are blocked, released and rerooted.
func (q *Queue) DeadLetters() []DeadLetter {
	out := make([]DeadLetter, 0, q.dlq.live)
	q.eachDeadLetter(func(v int32) { out = append(out, q.deadLetter(v)) })
	return out
}

// eachDeadLetter calls f with each live entry of the DLQ, in order.
func (q *Queue) eachDeadLetter(f func(v int32)) {
	for _, e := range q.dlq.entries {
		if q.dl[e.v].dlqEntry == e.no {
			f(e.v)
		}
	}
}

// deadLetter builds the entry of v, DEAD or BLOCKED.
func (q *Queue) deadLetter(v int32) DeadLetter {
	n, dn := q.nodes.at(v), &q.dl[v]
	d := DeadLetter{Task: n.name, Reason: q.reason(v), State: n.state.State(),
		Entered: dn.entered, Attempts: int(n.attempts)}
	if n.state == blocked {
		d.Root = q.nodes.at(dn.root).name
		return d
	}
	d.Error, d.Fingerprint = dn.errText, q.fingerprint(v)
	d.BlastRadius, d.Poisoned = int(dn.blocks), dn.poisoned
	return d
}

// fingerprint returns the fingerprint of the DEAD task v's error, computing
// it the first time.
func (q *Queue) fingerprint(v int32) string {
	n := &q.dl[v]
	if !n.fpOK {
		n.fp, n.fpOK = Fingerprint(n.errText), true
	}
	return n.fp
}

// reason returns the DLQ reason of a DEAD or BLOCKED task.
func (q *Queue) reason(v int32) string {
	if q.nodes.at(v).state == blocked {
		return "blocked by " + q.nodes.at(q.dl[v].root).name
	}
	return q.dl[v].reason
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
