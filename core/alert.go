package core

import (
	"fmt"
	"time"
)

// Alert configures the growth alert of the dead-letter queue: it is raised
// when at least Entries tasks entered the DLQ within the last Window of
// clock time, and cleared when fewer did. The zero value is off.
//
// Every entry counts: a task that dies, and each task its death blocks (a
// BLOCKED task is in the DLQ too); a task rerooted keeps its entry and does
// not count again, one released and blocked again counts again. The window
// is the half-open interval (Now − Window, Now]: an entry at time e counts
// until the clock reaches e + Window.
//
// The alert has hysteresis: one [EventAlert] when the count reaches
// Entries while the alert is off, then nothing however many more enter,
// then one [EventCleared] at the moment the count falls below Entries
// again, which is a timer (in the heap with the leases): it fires during an
// Advance at its own time, with the events of that time.
type Alert struct {
	Entries int
	Window  time.Duration
}

// validate refuses a negative field, or one set without the other.
func (a Alert) validate() error {
	if a.Entries < 0 || a.Window < 0 || (a.Entries > 0) != (a.Window > 0) || a.Entries > 1<<24 {
		return fmt.Errorf("core: Alert is %d entries within %v, want both above 0 (at most %d entries), or both 0 (off)", a.Entries, a.Window, 1<<24)
	}
	return nil
}

// alertState keeps the entry times that can decide the alert: only the
// newest Entries matter, since at least Entries entered within the window
// exactly when the Entries-th newest did. So it is a ring of Entries times,
// O(Entries) memory, and an entry costs O(1) plus O(log n) for the timer
// while the alert is on.
type alertState struct {
	entries int
	window  time.Duration
	times   []time.Duration // ring: the newest entry times, oldest at head once full
	head    int
	on      bool
	timer   int32 // the clear timer's index + 1, as node.timer
}

func newAlertState(a Alert) alertState {
	return alertState{entries: a.Entries, window: a.Window}
}

// noteEntry counts an entry at Now and reports whether it raised the
// alert. While the alert is on, it moves the clear timer to when the
// Entries-th newest entry leaves the window.
func (q *Queue) noteEntry() bool {
	a := &q.alert
	if len(a.times) < a.entries {
		a.times = append(a.times, q.now)
		if len(a.times) < a.entries {
			return false
		}
	} else {
		a.times[a.head] = q.now
		a.head = (a.head + 1) % a.entries
	}
	oldest := a.times[a.head] // the Entries-th newest
	if q.now-oldest >= a.window {
		return false
	}
	q.setTimer(timerAlert, later(oldest, a.window))
	raised := !a.on
	a.on = true
	return raised
}

// clearAlert fires at the clear timer: the Entries-th newest entry has just
// left the window, so fewer than Entries are in it.
func (q *Queue) clearAlert() {
	q.alert.on = false
	if q.onEvent != nil {
		q.emitAlert(EventCleared)
	}
}

// emitAlert emits an alert or a clear.
func (q *Queue) emitAlert(k EventKind) {
	q.emit(Event{Op: q.op, Kind: k, Count: q.alert.entries, Window: q.alert.window})
}
