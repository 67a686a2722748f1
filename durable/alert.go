package durable

import (
	"context"
	"time"

	"github.com/dagq/dagq/core"
)

// The growth alert of a DAG's dead-letter queue (core.Config.Alert), as
// core's: raised when at least Entries tasks entered the DLQ within the
// last Window of the DAG's clock, with one core.EventAlert when it rises
// and one core.EventCleared when it falls, which is a timer fired in order
// with the tasks' timers.
//
// It is kept in the DAG's row: the newest Entries entry times
// (alert_times, oldest first: only they can decide the alert), whether it
// is on, and its clear timer (alert_at, alert_seq). An operation that
// enters tasks into the DLQ holds the DAG's advisory lock, updates the
// row in memory, and writes it back in the same transaction before it
// commits: so the alert moves with the entries that move it, or not at
// all, and survives a restart as it stood at the last commit.
//
// The cost is O(1) per entry in memory, plus, per operation that enters
// any, one statement to place the clear timer among the timers set in the
// operation and one write of the row, O(Entries).

// noteEntry counts an entry into the DLQ at the operation's time, as
// core's noteEntry, and emits core.EventAlert (after the entry's own
// event, which the caller has emitted) if it raised the alert. While the
// alert is on, the clear timer moves to when the Entries-th newest entry
// leaves the window; its place among timers is taken by placeAlert at the
// end of the entries of one step.
func (t *txn) noteEntry() {
	d := t.d
	if d.alert.Entries == 0 {
		return
	}
	t.clearOverdue()
	d.dirty = true
	d.alertTimes = append(d.alertTimes, int64(t.now))
	if over := len(d.alertTimes) - d.alert.Entries; over > 0 {
		d.alertTimes = d.alertTimes[over:]
	}
	if len(d.alertTimes) < d.alert.Entries {
		return
	}
	oldest := time.Duration(d.alertTimes[0]) // the Entries-th newest
	if t.now-oldest >= d.alert.Window {
		return
	}
	d.alertAt = timerAt{at: int64(later(oldest, d.alert.Window)), seq: -1, set: true}
	if !d.alertOn {
		d.alertOn = true
		t.emitAlert(core.EventAlert)
	}
}

// placeAlert gives the clear timer, if noteEntry just moved it, its place
// among the timers: after every timer set before the entries that moved
// it, before every one set after. One statement, only then.
func (t *txn) placeAlert() error {
	if t.d == nil || !t.d.alertAt.set || t.d.alertAt.seq >= 0 {
		return nil
	}
	seq, err := t.seq()
	t.d.alertAt.seq = seq
	return err
}

// clearOverdue fires a clear timer that the DB's Clock has already passed
// but no Tick has fired yet, at its own time, before an entry is counted
// after it: on the virtual clock every timer up to now has fired already.
func (t *txn) clearOverdue() {
	if a := t.d.alertAt; a.set && a.seq >= 0 && time.Duration(a.at) <= t.now {
		now := t.now
		t.now = time.Duration(a.at)
		t.clearAlert()
		t.now = now
	}
}

// clearAlert fires the clear timer: the Entries-th newest entry has just
// left the window.
func (t *txn) clearAlert() {
	t.d.alertOn = false
	t.d.alertAt = timerAt{}
	t.d.dirty = true
	t.emitAlert(core.EventCleared)
}

func (t *txn) emitAlert(k core.EventKind) {
	t.emit(core.Event{Kind: k, Count: t.d.alert.Entries, Window: t.d.alert.Window})
}

// Alerting reports whether the DAG's growth alert is raised, as it stood
// at the last commit: at least Config.Alert.Entries tasks entered the DLQ
// within the last Window. One statement.
func (q *Queue) Alerting(ctx context.Context) (bool, error) {
	var on bool
	if err := q.db.pool.QueryRow(ctx, "SELECT alert_on FROM dagq_dags WHERE dag = $1", q.dag).Scan(&on); err != nil {
		return false, q.readErr(err)
	}
	return on, nil
}

// AlertConfig returns the DAG's growth alert (zero: off).
func (q *Queue) AlertConfig(ctx context.Context) (core.Alert, error) {
	var a core.Alert
	var w int64
	if err := q.db.pool.QueryRow(ctx, "SELECT alert_entries, alert_window FROM dagq_dags WHERE dag = $1", q.dag).Scan(&a.Entries, &w); err != nil {
		return core.Alert{}, q.readErr(err)
	}
	a.Window = time.Duration(w)
	return a, nil
}
