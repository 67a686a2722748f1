package core

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// The harness's model of time: the clock, a timer per RUNNING task under a
// lease timeout and per DELAYED task, with the order each was set in, the
// leases that expired, and the backoff's generator, drawn from exactly when
// the queue must draw. It predicts what an advance fires, in what order, at
// what time and with what outcome, and each refusal of a lease exactly.

// sameLease reports whether a and b are the same lease: Task, ID and
// Attempt (a heartbeat changes only the Deadline).
func sameLease(a, b Lease) bool {
	return a.Task == b.Task && a.ID == b.ID && a.Attempt == b.Attempt
}

// refusal says whether the queue must accept l for a heartbeat, complete
// or fail, and if not, the errors it may refuse it with: invariant 7, only
// the current, unexpired lease acts.
func (h *harness) refusal(l Lease) (bool, []error) {
	cur, running := h.current[l.Task]
	x, expired := h.expired[l.ID]
	switch {
	case !h.isTask(l.Task):
		return false, []error{ErrUnknown}
	case running && sameLease(l, cur):
		return true, nil
	case expired && sameLease(x, l):
		return false, []error{ErrLeaseExpired}
	case h.state[l.Task] != Running:
		return false, []error{ErrNotRunning}
	}
	return false, []error{ErrStaleLease}
}

// deadline is the deadline of a lease handed out or renewed now.
func (h *harness) deadline() time.Duration {
	if h.leaseTimeout == 0 {
		return 0
	}
	return h.now + h.leaseTimeout
}

// delay predicts the backoff delay after attempt k failed with attempts
// left, drawing from the model's generator when the queue draws from its
// own. It computes Base · Factor^(k−1) by repeated multiplication (exact
// for the factors and the few attempts the tests use), capped by Max.
func (h *harness) delay(k int) time.Duration {
	b := h.backoff
	if b.Base <= 0 {
		return 0
	}
	f := b.Factor
	if f == 0 {
		f = 1
	}
	d := float64(b.Base)
	for range k - 1 {
		d *= f
	}
	c := time.Duration(d)
	if b.Max > 0 && d >= float64(b.Max) {
		c = b.Max
	}
	// The random part is in whole milliseconds from 1 ms up.
	unit := time.Duration(1)
	if c >= time.Millisecond {
		unit = time.Millisecond
	}
	switch b.Jitter {
	case JitterFull:
		return time.Duration(h.rng.Uint64N(uint64(c/unit)+1)) * unit
	case JitterEqual:
		half := c / 2
		return half + time.Duration(h.rng.Uint64N(uint64((c-half)/unit)+1))*unit
	}
	return c
}

// nextTimer returns the model's earliest timer and its task.
func (h *harness) nextTimer() (time.Duration, bool) {
	_, t, ok := h.firstTimer()
	return t.at, ok
}

func (h *harness) firstTimer() (string, modelTimer, bool) {
	var task string
	var first modelTimer
	found := false
	for t, m := range h.timers {
		if !found || m.at < first.at || (m.at == first.at && m.seq < first.seq) {
			task, first, found = t, m, true
		}
	}
	return task, first, found
}

func (h *harness) setTimer(task string, at time.Duration) {
	h.timerSeq++
	h.timers[task] = modelTimer{at: at, seq: h.timerSeq}
}

// foldTime folds an event, already checked against the state table, into
// the model's timers, leases and expired leases, checking its Deadline and
// Due.
func (h *harness) foldTime(e Event) error {
	switch e.Kind {
	case EventStarted, EventHeartbeat:
		if want := h.deadline(); e.Deadline != want {
			return fmt.Errorf("%s event for %q has Deadline %v, want %v (now %v, lease timeout %v)", e.Kind, e.Task, e.Deadline, want, h.now, h.leaseTimeout)
		}
		if e.Deadline > 0 {
			h.setTimer(e.Task, e.Deadline)
		}
		if e.Kind == EventHeartbeat {
			cur, ok := h.current[e.Task]
			if !ok || cur.ID != e.Lease || cur.Attempt != e.Attempt {
				return fmt.Errorf("heartbeat event for %q, lease %d attempt %d, but its current lease is %+v", e.Task, e.Lease, e.Attempt, cur)
			}
			cur.Deadline = e.Deadline
			h.current[e.Task] = cur
		}
	case EventExpired:
		cur, ok := h.current[e.Task]
		if !ok || cur.ID != e.Lease || cur.Attempt != e.Attempt || e.Deadline != h.now {
			return fmt.Errorf("expired event %+v, but the current lease is %+v and the clock %v", e, cur, h.now)
		}
		h.expired[cur.ID] = cur
	case EventSucceeded, EventRetried, EventDead, EventDue:
		delete(h.timers, e.Task)
	case EventDelayed:
		delete(h.timers, e.Task)
		if e.Due <= h.now {
			return fmt.Errorf("delayed event for %q due at %v, not after now %v", e.Task, e.Due, h.now)
		}
		h.setTimer(e.Task, e.Due)
	}
	return nil
}

// advance runs an Advance or AdvanceTo and checks what fired: the model's
// timers up to the target, in order of time and of setting, a timer set by
// a firing included, each at its own time, each with the events it must
// have (an expiry: Expired, then the outcome of a failure with "lease
// expired" and its blocking wave; a due time: Due). Refused (a target
// before now), it must change nothing.
func (h *harness) advance(o op) error {
	target := o.dur
	if !o.to {
		target = h.now + o.dur
	}
	var err, qerr error
	if o.to {
		err, qerr = h.q.advanceTo(o.dur), h.quiet.advanceTo(o.dur)
	} else {
		err, qerr = h.q.Advance(o.dur), h.quiet.Advance(o.dur)
	}
	call := o.String()
	if errString(err) != errString(qerr) {
		return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
	}
	evs, eerr := h.takeUnfolded()
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if target < h.now || (!o.to && o.dur < 0) {
		if !errors.Is(err, ErrClockBackwards) || len(evs) != 0 {
			return fmt.Errorf("%s from %v = %v with events %s, want ErrClockBackwards and none", call, h.now, err, eventList(evs))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s = %v, want it accepted", call, err)
	}
	take := h.taker(call, evs)
	for {
		task, m, ok := h.firstTimer()
		if !ok || m.at > target {
			break
		}
		h.now = m.at
		switch task {
		case alertTimerName:
			got, err := take(1)
			if err != nil {
				return err
			}
			if e := got[0]; e.Kind != EventCleared {
				return fmt.Errorf("%s: at %v the alert clears, but the event is %s (events: %s)", call, m.at, e, eventList(evs))
			}
			continue
		case jobTimerName:
			delete(h.timers, jobTimerName)
			if err := h.expectBatch(call, take); err != nil {
				return err
			}
			continue
		}
		if h.state[task] == Delayed {
			got, err := take(1)
			if err != nil {
				return err
			}
			if e := got[0]; e.Kind != EventDue || e.Task != task {
				return fmt.Errorf("%s: at %v %q falls due, but the event is %s (events: %s)", call, m.at, task, e, eventList(evs))
			}
			continue
		}
		// A lease expires: exactly a failure with "lease expired".
		cur := h.current[task]
		got, err := take(1)
		if err != nil {
			return err
		}
		if e := got[0]; e.Kind != EventExpired || e.Task != task {
			return fmt.Errorf("%s: at %v the lease of %q expires, but the event is %s (events: %s)", call, m.at, task, e, eventList(evs))
		}
		want := h.expectFail(task, cur.Attempt, ErrLeaseExpired.Error(), false)
		got, err = take(1 + len(want.blocked))
		if err != nil {
			return err
		}
		if err := want.check(got); err != nil {
			return fmt.Errorf("%s: the expiry of %+v at %v: %v (events: %s)", call, cur, m.at, err, eventList(evs))
		}
	}
	if rest, _ := take(-1); len(rest) > 0 {
		return fmt.Errorf("%s: events fired that the model has no timer for: %s (all: %s)", call, eventList(rest), eventList(evs))
	}
	h.now = target
	return nil
}

// failWant is what a failure of task's attempt must do, from the model
// before it.
type failWant struct {
	task    string
	attempt int
	msg     string
	kind    EventKind     // Retried, Delayed or Dead
	reason  string        // the Dead reason, or the error
	due     time.Duration // Delayed
	blocked []string      // Dead: the blocking wave, nearest first
	h       *harness
}

// expectFail predicts a failure of task's current lease (attempt) with
// msg, drawing the delay as the queue will.
func (h *harness) expectFail(task string, attempt int, msg string, permanent bool) failWant {
	w := failWant{task: task, attempt: attempt, msg: msg, reason: msg, h: h}
	switch {
	case permanent || attempt >= h.max:
		w.kind, w.reason = EventDead, deadReason(attempt, msg, permanent)
		w.blocked = h.pendingDownstream(task)
	default:
		if d := h.delay(attempt); d > 0 {
			w.kind, w.due = EventDelayed, h.now+d
		} else {
			w.kind = EventRetried
		}
	}
	return w
}

// check compares the events of the failure (folded already) with w.
func (w failWant) check(evs []Event) error {
	e := evs[0]
	if e.Kind != w.kind || e.Task != w.task || e.Attempt != w.attempt || e.Reason != w.reason || e.Due != w.due {
		return fmt.Errorf("%s, want %s of %q attempt %d with %q, due %v", e, w.kind, w.task, w.attempt, w.reason, w.due)
	}
	var blocked []string
	for _, b := range evs[1:] {
		if b.Kind != EventBlocked || b.Root != w.task {
			return fmt.Errorf("unexpected %s", b)
		}
		blocked = append(blocked, b.Task)
	}
	if err := sameSet("tasks blocked", blocked, w.blocked); err != nil {
		return err
	}
	return w.h.nearestFirst(w.task, blocked)
}

// heartbeat runs a Heartbeat and checks it: accepted exactly for the
// current, unexpired lease, renewing its deadline (none without a lease
// timeout) with one Heartbeat event; refused, changing nothing, otherwise.
func (h *harness) heartbeat(o op) error {
	l := h.lease(o)
	accept, refusals := h.refusal(l)
	call := fmt.Sprintf("Heartbeat(%+v)", l)
	got, err := h.q.Heartbeat(l)
	if qgot, qerr := h.quiet.Heartbeat(l); qgot != got || errString(qerr) != errString(err) {
		return fmt.Errorf("%s = %+v, %v, but %+v, %v without OnEvent", call, got, err, qgot, qerr)
	}
	evs, eerr := h.takeEvents()
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if !accept {
		if err == nil || !slices.ContainsFunc(refusals, func(s error) bool { return errors.Is(err, s) }) {
			return fmt.Errorf("%s = %v, want an error that is %v (task %s, current lease %+v)", call, err, refusals, orNone(h.state[o.task]), h.current[o.task])
		}
		if len(evs) != 0 || got != (Lease{}) {
			return fmt.Errorf("%s refused with %v but returned %+v and delivered %s", call, err, got, eventList(evs))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s = %v, want it accepted", call, err)
	}
	if len(evs) != 1 || evs[0].Kind != EventHeartbeat || evs[0].Task != l.Task {
		return fmt.Errorf("%s: want one Heartbeat event, got %s", call, eventList(evs))
	}
	if want := h.current[l.Task]; got != want || got.Deadline != h.deadline() {
		return fmt.Errorf("%s = %+v, want %+v with the deadline %v", call, got, want, h.deadline())
	}
	return nil
}

// compareTime checks the queue's clock and timers against the model.
func (h *harness) compareTime() error {
	if got := h.q.Now(); got != h.now {
		return fmt.Errorf("Now() = %v, want %v", got, h.now)
	}
	for _, n := range h.names {
		at, ok := h.q.timerAt(n)
		m, want := h.timers[n]
		if ok != want || at != m.at {
			return fmt.Errorf("Timer(%q) = %v, %v, want %v, %v (task %s)", n, at, ok, m.at, want, orNone(h.state[n]))
		}
	}
	at, ok := h.q.NextTimer()
	if wat, wok := h.nextTimer(); ok != wok || at != wat {
		return fmt.Errorf("NextTimer() = %v, %v, want %v, %v", at, ok, wat, wok)
	}
	return nil
}
