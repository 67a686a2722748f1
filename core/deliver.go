package core

// emit keeps e for delivery when the operation ends, stamped with the
// clock. Only called when OnEvent is set. Amortized O(1): the buffer's
// storage is reused.
func (q *Queue) emit(e Event) {
	e.At = q.now
	q.outbox = append(q.outbox, e)
}

// flush delivers the events waiting, in order; every public operation
// defers it, so it runs when the operation has finished and the queue is
// consistent. An operation OnEvent calls appends its events to the same
// buffer and flushes on return, finding the loop already running: the loop
// delivers them after the ones before, so OnEvent is never re-entered and
// events arrive in the order of their Op. The cost is O(1) when nothing
// waits, else O(1) per event besides OnEvent itself.
func (q *Queue) flush() {
	if q.sent < len(q.outbox) && !q.delivering {
		q.deliver()
	}
}

// deliver is flush's loop.
//
// Invariant: outbox[:sent] are delivered, in order; what OnEvent adds goes
// after them. If OnEvent panics, the loop stops and the rest waits for the
// next operation's flush.
func (q *Queue) deliver() {
	q.delivering = true
	defer q.delivered()
	for q.sent < len(q.outbox) {
		e := q.outbox[q.sent]
		q.sent++
		q.onEvent(e)
	}
}

// delivered ends the loop; once every event is out, it empties the buffer,
// keeping its storage but no references to the events' names and lists.
func (q *Queue) delivered() {
	q.delivering = false
	if q.sent == len(q.outbox) {
		clear(q.outbox)
		q.outbox, q.sent = q.outbox[:0], 0
	}
}
