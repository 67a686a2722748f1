package core

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Selector picks DEAD tasks for a bulk redrive: exactly one of its fields
// is set. Fingerprint matches the tasks whose error has that [Fingerprint]
// (a [DeadLetterGroup]); Contains the tasks whose error (DeadLetter.Error,
// without "failed after N attempts: ") contains that text, case and all.
type Selector struct {
	Fingerprint string
	Contains    string
}

// String writes the selector as the scenario language says it:
// `group "FINGERPRINT"` or `matching "TEXT"`.
func (s Selector) String() string {
	if s.Fingerprint != "" {
		return fmt.Sprintf("group %q", s.Fingerprint)
	}
	return fmt.Sprintf("matching %q", s.Contains)
}

func (s Selector) validate() error {
	if (s.Fingerprint == "") == (s.Contains == "") {
		return errors.New("core: a selector needs exactly one of Fingerprint and Contains")
	}
	return nil
}

// Rate paces a bulk redrive: N tasks at once, then N more every Per of
// clock time. The zero Rate redrives every task at once, in one operation.
type Rate struct {
	N   int
	Per time.Duration
}

// String writes the rate as "N/PER", e.g. "2/1s" or "10/1m"; "" for the
// zero Rate.
func (r Rate) String() string {
	if r == (Rate{}) {
		return ""
	}
	return fmt.Sprintf("%d/%s", r.N, shortDuration(r.Per))
}

// shortDuration writes d as Go does, without zero units: 1m rather than
// 1m0s, 1h30m rather than 1h30m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	s, _ = strings.CutSuffix(s, "m0s")
	if len(s) < len(d.String()) {
		s += "m"
	}
	if t, ok := strings.CutSuffix(s, "h0m"); ok {
		s = t + "h"
	}
	return s
}

func (r Rate) validate() error {
	if r != (Rate{}) && (r.N < 1 || r.Per <= 0) {
		return fmt.Errorf("core: rate %d per %v: want at least 1 task per period above 0, or the zero Rate (all at once)", r.N, r.Per)
	}
	return nil
}

// RedrivePreview is what a bulk redrive would do, computed without doing
// it: see [Queue.PreviewRedrive].
type RedrivePreview struct {
	Selector Selector
	Roots    []RootPreview // the tasks it would redrive, in DLQ order
	Skipped  []string      // the matching tasks it would leave alone, poisoned, in DLQ order
	Released int           // the BLOCKED tasks that would be PENDING again, in all
	Blocked  int           // the BLOCKED tasks held by Roots that would stay BLOCKED under another root, in all
}

// RootPreview is one task a bulk redrive would redrive, and what becomes of
// the BLOCKED tasks whose root it is, once every root of the redrive is
// live again.
type RootPreview struct {
	Task    string
	Release []string       // PENDING again, in the order the redrive decides them (dependencies first)
	Stay    []StillBlocked // BLOCKED still, renamed to a root the redrive leaves DEAD
}

// StillBlocked is a BLOCKED task that a redrive leaves BLOCKED, and the
// DEAD root it would name.
type StillBlocked struct {
	Task string `json:"task"`
	Root string `json:"root"`
}

// PreviewRedrive returns what [Queue.RedriveMatching] with sel would do
// now, changing nothing: the DEAD tasks it would redrive (the poisoned ones
// apart, as Skipped) and, for each, the BLOCKED tasks it holds that would
// be released once all those tasks are live, and those that would stay
// BLOCKED and under which root. It is exactly what a redrive at once does
// next, if nothing changes in between; a redrive at a rate ends the same
// way if nothing changes before its last batch. A selector that is not
// valid, or matches nothing, gives an empty preview.
//
// The cost is O(entries) to match, plus O(k + V' + E') for the k tasks it
// would redrive, blocking V' tasks with their edges: the redrive's own walk
// and decisions, made on marks instead of states.
func (q *Queue) PreviewRedrive(sel Selector) RedrivePreview {
	p := RedrivePreview{Selector: sel}
	if sel.validate() != nil {
		return p
	}
	roots, skipped := q.match(sel)
	p.Skipped = q.names(skipped)
	if len(roots) == 0 {
		return p
	}
	visits := q.dlqVisits
	region, k := q.collectRegion(roots)
	q.dlqVisits = visits
	at := make(map[int32]int, k) // root → index in p.Roots
	for i, r := range roots {
		at[r] = i
		p.Roots = append(p.Roots, RootPreview{Task: q.nodes.at(r).name})
	}
	// Decide as redriveRoots does: the roots count as live (they are still
	// DEAD, and marked), a task of the region as decided (vroot: -1
	// released, else the root it would name).
	vroot := make(map[int32]int32, len(region)-k)
	line := q.line[:0]
	for _, w := range region[k:] {
		if q.count[w] == 0 {
			line = append(line, w)
		}
	}
	for i := 0; i < len(line); i++ {
		w := line[i]
		root := int32(-1)
		for _, d := range q.arena.ints(q.nodes.at(w).deps) {
			dn := q.nodes.at(d)
			if q.mark[d] == q.stamp {
				if dn.state == blocked && vroot[d] >= 0 { // in the region, staying BLOCKED
					root = vroot[d]
					break
				}
				continue // a root, or released
			}
			if dn.state == dead {
				root = d
				break
			}
			if dn.state == blocked {
				root = q.dl[d].root
				break
			}
		}
		vroot[w] = root
		rp := &p.Roots[at[q.dl[w].root]]
		if root < 0 {
			rp.Release = append(rp.Release, q.nodes.at(w).name)
			p.Released++
		} else {
			rp.Stay = append(rp.Stay, StillBlocked{Task: q.nodes.at(w).name, Root: q.nodes.at(root).name})
			p.Blocked++
		}
		for _, x := range q.arena.ints(q.nodes.at(w).dependents) {
			if q.mark[x] == q.stamp && q.nodes.at(x).state == blocked {
				if q.count[x]--; q.count[x] == 0 {
					line = append(line, x)
				}
			}
		}
	}
	q.line = line[:0]
	q.walk = region[:0]
	return p
}

// match returns the DEAD tasks sel matches, in DLQ order: those to redrive
// and the poisoned ones, apart. O(entries), plus fingerprints not computed
// yet.
func (q *Queue) match(sel Selector) (roots, poisoned []int32) {
	q.eachDeadLetter(func(v int32) {
		if q.nodes.at(v).state != dead {
			return
		}
		n := &q.dl[v]
		if sel.Fingerprint != "" && q.fingerprint(v) != sel.Fingerprint ||
			sel.Contains != "" && !strings.Contains(n.errText, sel.Contains) {
			return
		}
		if n.poisoned {
			poisoned = append(poisoned, v)
		} else {
			roots = append(roots, v)
		}
	})
	return roots, poisoned
}

// RedriveJob is a bulk redrive: what it set out to do and how far it got.
type RedriveJob struct {
	Selector Selector
	Rate     Rate
	Tasks    []string      // the tasks it redrives, in DLQ order, chosen when it started
	Skipped  []string      // the matching tasks it left alone, poisoned
	Done     int           // Tasks redriven so far
	Gone     int           // Tasks no longer DEAD, or poisoned, when their turn came: left alone
	Started  time.Duration // the clock when it started
	Next     time.Duration // when its next batch is due; 0 once finished
	Finished bool          // every task of Tasks is redriven or gone
}

// redriveJob is the bulk redrive in progress.
type redriveJob struct {
	sel     Selector
	rate    Rate
	tasks   []int32
	skipped []int32
	pos     int // tasks[:pos] are handled
	done    int
	gone    int
	started time.Duration
	next    time.Duration
}

// RedriveMatching redrives the DEAD tasks sel matches, in DLQ order, as
// [Queue.Redrive] would each (fresh attempts, counted towards the
// poison-pill cap), except that poisoned tasks are skipped, and that the
// tasks BLOCKED by those redriven together are decided once, after all of
// them are live: each blocked task leaves the DLQ once, or is rerooted
// once, never once per root. Its preview is [Queue.PreviewRedrive].
//
// With the zero Rate every task is redriven now, in this operation. With a
// Rate, N are redriven now and N more every Per of clock time, as the clock
// advances: the next batch is a timer, in the heap with the leases, so a
// long advance redrives one batch per period that elapsed, each at its own
// time (its events carry that time), never a burst of the periods missed.
// A task of the list that is no longer DEAD (or is poisoned) when its turn
// comes is left alone (Gone) and does not count towards N.
//
// Events: [EventRedriveStarted] (the tasks, the poisoned ones skipped),
// then per batch the redrive's events and an [EventRedriveProgress], and
// [EventRedriveDone] after the last; [Queue.CancelRedrive] ends it with
// [EventRedriveCancelled].
//
// One redrive at a time: while a rate-limited one is in progress, another
// is refused with ErrRedriveRunning. Also refused, changing nothing: a
// selector without exactly one field set, a Rate with N < 1 or Per ≤ 0
// (but the zero Rate), and a selector matching no DEAD task (ErrNoMatch;
// one matching only poisoned tasks starts and is done at once, saying it
// skipped them).
//
// The cost is O(entries) to match and, per batch of k tasks blocking V'
// tasks, O(k + V' + E'), plus O(log n) for the batch's timer.
func (q *Queue) RedriveMatching(sel Selector, rate Rate) (RedriveJob, error) {
	q.op++
	defer q.flush()
	if err := sel.validate(); err != nil {
		return RedriveJob{}, err
	}
	if err := rate.validate(); err != nil {
		return RedriveJob{}, err
	}
	if q.job != nil {
		return RedriveJob{}, fmt.Errorf("core: redrive %s: %w: %s", sel, ErrRedriveRunning, q.job.sel)
	}
	roots, skipped := q.match(sel)
	if len(roots)+len(skipped) == 0 {
		return RedriveJob{}, fmt.Errorf("core: redrive %s: %w", sel, ErrNoMatch)
	}
	j := &redriveJob{sel: sel, rate: rate, tasks: roots, skipped: skipped, started: q.now}
	q.job = j
	if q.onEvent != nil {
		q.emit(Event{Op: q.op, Kind: EventRedriveStarted, Reason: sel.String(), Rate: rate,
			Total: len(roots), Tasks: q.names(roots), Skipped: q.names(skipped)})
	}
	q.redriveBatch()
	return q.jobView(j), nil
}

// redriveBatch redrives the job's next batch, now: its timer fired, or it
// just started. Then it ends the job, or sets the timer of the next batch.
func (q *Queue) redriveBatch() {
	j := q.job
	n := len(j.tasks)
	if j.rate.N > 0 {
		n = j.rate.N
	}
	batch := q.roots[:0]
	for j.pos < len(j.tasks) && len(batch) < n {
		v := j.tasks[j.pos]
		j.pos++
		if q.nodes.at(v).state == dead && !q.dl[v].poisoned {
			batch = append(batch, v)
		} else {
			j.gone++
		}
	}
	q.roots = batch
	if len(batch) > 0 {
		q.redriveRoots(batch)
		j.done += len(batch)
		if q.onEvent != nil {
			q.emit(Event{Op: q.op, Kind: EventRedriveProgress, Reason: j.sel.String(),
				Tasks: q.names(batch), Count: j.done, Total: len(j.tasks)})
		}
	}
	if j.pos == len(j.tasks) {
		j.next = 0
		q.job = nil
		if q.onEvent != nil {
			q.emit(Event{Op: q.op, Kind: EventRedriveDone, Reason: j.sel.String(), Count: j.done, Total: len(j.tasks)})
		}
		return
	}
	j.next = later(q.now, j.rate.Per)
	q.setTimer(timerJob, j.next)
}

// CancelRedrive stops the bulk redrive in progress: the tasks it redrove
// stay redriven, the others stay DEAD, and [EventRedriveCancelled] says how
// far it got. It refuses, changing nothing, when no redrive is in progress
// (ErrNoRedrive). O(log n) for its timer.
func (q *Queue) CancelRedrive() error {
	q.op++
	defer q.flush()
	j := q.job
	if j == nil {
		return fmt.Errorf("core: cannot cancel: %w", ErrNoRedrive)
	}
	q.clearTimer(timerJob)
	q.job = nil
	j.next = 0
	if q.onEvent != nil {
		q.emit(Event{Op: q.op, Kind: EventRedriveCancelled, Reason: j.sel.String(), Count: j.done, Total: len(j.tasks)})
	}
	return nil
}

func (q *Queue) jobView(j *redriveJob) RedriveJob {
	return RedriveJob{Selector: j.sel, Rate: j.rate, Tasks: q.names(j.tasks), Skipped: q.names(j.skipped),
		Done: j.done, Gone: j.gone, Started: j.started, Next: j.next,
		Finished: j.pos == len(j.tasks)}
}
