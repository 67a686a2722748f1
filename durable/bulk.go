package durable

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
)

// DeadLetterGroups returns the DEAD entries of the dead-letter queue
// grouped by the fingerprint of their error, in the order of their first
// entry, as core's Queue.DeadLetterGroups.
func (q *Queue) DeadLetterGroups(ctx context.Context) ([]core.DeadLetterGroup, error) {
	dl, err := q.DeadLetters(ctx)
	if err != nil {
		return nil, err
	}
	return core.GroupDeadLetters(dl), nil
}

// RedriveMatching redrives the DEAD tasks sel matches, in DLQ order,
// skipping poisoned ones, as core's Queue.RedriveMatching: the tasks
// blocked by those redriven together are decided once, after all of them
// are live, with core's events (EventRedriveStarted, then per batch the
// redrive's and an EventRedriveProgress, EventRedriveDone after the last)
// and refusals (ErrRedriveRunning, ErrNoMatch, a selector or a Rate that
// core refuses).
//
// With the zero Rate every task is redriven in this one transaction. With
// a Rate, N are redriven now and N more every Per of the DAG's clock: the
// redrive in progress is a row of dagq_redrives (its selector, rate, task
// list and how far it got) and a timer in the DAG's row, fired in order
// with the tasks' timers by Advance (or by DB.Tick on a Clock), each batch
// in its own transaction with the time it was due. Starting it, each
// batch, and CancelRedrive commit with what they change, so a redrive
// under way survives a restart and goes on where it stood; one DAG has at
// most one.
//
// The cost is one statement to match (O(entries) rows), and per batch of
// k tasks one to read the states of the tasks still to come, the
// redrive's own (redriveRoots), and one to record the progress.
func (q *Queue) RedriveMatching(ctx context.Context, sel core.Selector, rate core.Rate) (core.RedriveJob, error) {
	if err := validSelector(sel); err != nil {
		return core.RedriveJob{}, err
	}
	if rate != (core.Rate{}) && (rate.N < 1 || rate.Per <= 0) {
		return core.RedriveJob{}, fmt.Errorf("core: rate %d per %v: want at least 1 task per period above 0, or the zero Rate (all at once)", rate.N, rate.Per)
	}
	var job core.RedriveJob
	err := q.run(ctx, func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		if t.d.jobAt.set {
			j, err := t.job()
			if err != nil {
				return err
			}
			return refusal{fmt.Errorf("core: redrive %s: %w: %s", sel, core.ErrRedriveRunning, j.Selector)}
		}
		roots, skipped, err := t.match(sel)
		if err != nil {
			return err
		}
		if len(roots)+len(skipped) == 0 {
			return refusal{fmt.Errorf("core: redrive %s: %w", sel, core.ErrNoMatch)}
		}
		t.emit(core.Event{Kind: core.EventRedriveStarted, Reason: sel.String(), Rate: rate,
			Total: len(roots), Tasks: roots, Skipped: skipped})
		j := &core.RedriveJob{Selector: sel, Rate: rate, Tasks: roots, Skipped: skipped, Started: t.now}
		if err := t.batch(j); err != nil {
			return err
		}
		if !j.Finished {
			if _, err := t.tx.Exec(t.ctx, `INSERT INTO dagq_redrives (dag, fingerprint, contains, rate_n, rate_per,
					tasks, skipped, pos, done, gone, started)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				t.dag, sel.Fingerprint, sel.Contains, rate.N, int64(rate.Per), roots, nonNil(skipped),
				j.Done+j.Gone, j.Done, j.Gone, int64(j.Started)); err != nil {
				return err
			}
		}
		job = *j
		return nil
	})
	return job, err
}

// redriveBatch redrives the next batch of the redrive in progress, whose
// timer has just fired (the DAG locked, the clock at the timer's time),
// and records how far it got, or ends it.
func (t *txn) redriveBatch() error {
	j, err := t.job()
	if err != nil {
		return err
	}
	if err := t.batch(&j); err != nil {
		return err
	}
	if j.Finished {
		_, err = t.tx.Exec(t.ctx, "DELETE FROM dagq_redrives WHERE dag = $1", t.dag)
		return err
	}
	_, err = t.tx.Exec(t.ctx, "UPDATE dagq_redrives SET pos = $2, done = $3, gone = $4 WHERE dag = $1",
		t.dag, j.Done+j.Gone, j.Done, j.Gone)
	return err
}

// batch redrives j's next batch now, as core's redriveBatch: from the
// tasks not handled yet, in order, up to Rate.N (all of them under the
// zero Rate) that are still DEAD and not poisoned, the others left alone
// (Gone); then it ends j (EventRedriveDone) or sets the timer of its next
// batch. Tasks[:Done+Gone] are the ones handled before.
func (t *txn) batch(j *core.RedriveJob) error {
	n := len(j.Tasks)
	if j.Rate.N > 0 {
		n = j.Rate.N
	}
	pos := j.Done + j.Gone
	rest := j.Tasks[pos:]
	live := map[string]bool{}
	rows, err := t.tx.Query(t.ctx, `SELECT name FROM dagq_tasks WHERE dag = $1 AND name = ANY($2)
		AND state = 'DEAD' AND NOT poisoned`, t.dag, rest)
	if err != nil {
		return err
	}
	var name string
	if _, err := pgx.ForEachRow(rows, []any{&name}, func() error { live[name] = true; return nil }); err != nil {
		return err
	}
	var batch []string
	for pos < len(j.Tasks) && len(batch) < n {
		v := j.Tasks[pos]
		pos++
		if live[v] {
			batch = append(batch, v)
		} else {
			j.Gone++
		}
	}
	if len(batch) > 0 {
		if _, err := t.redriveRoots(batch, false); err != nil {
			return err
		}
		j.Done += len(batch)
		t.emit(core.Event{Kind: core.EventRedriveProgress, Reason: j.Selector.String(), Tasks: batch,
			Count: j.Done, Total: len(j.Tasks)})
	}
	if pos == len(j.Tasks) {
		j.Next, j.Finished = 0, true
		t.emit(core.Event{Kind: core.EventRedriveDone, Reason: j.Selector.String(), Count: j.Done, Total: len(j.Tasks)})
		return nil
	}
	j.Next = later(t.now, j.Rate.Per)
	seq, err := t.seq()
	if err != nil {
		return err
	}
	t.d.jobAt = timerAt{at: int64(j.Next), seq: seq, set: true}
	t.d.dirty = true
	return nil
}

// job reads the redrive in progress; the DAG is locked and has one.
func (t *txn) job() (core.RedriveJob, error) {
	var j core.RedriveJob
	var per, started int64
	var pos int
	err := t.tx.QueryRow(t.ctx, `SELECT fingerprint, contains, rate_n, rate_per, tasks, skipped, pos, done, gone, started
		FROM dagq_redrives WHERE dag = $1`, t.dag).Scan(&j.Selector.Fingerprint, &j.Selector.Contains, &j.Rate.N, &per,
		&j.Tasks, &j.Skipped, &pos, &j.Done, &j.Gone, &started)
	if err != nil {
		return j, err
	}
	j.Rate.Per, j.Started = time.Duration(per), time.Duration(started)
	if len(j.Skipped) == 0 {
		j.Skipped = nil
	}
	if t.d.jobAt.set {
		j.Next = time.Duration(t.d.jobAt.at)
	}
	return j, nil
}

// nonNil is s, or an empty slice for a NOT NULL array column.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// PreviewRedrive returns what RedriveMatching with sel would do now,
// changing nothing, as core's Queue.PreviewRedrive: it runs the redrive in
// a transaction and rolls it back. A selector core refuses previews
// nothing; an error says the database could not be asked.
func (q *Queue) PreviewRedrive(ctx context.Context, sel core.Selector) (core.RedrivePreview, error) {
	p := core.RedrivePreview{Selector: sel}
	if validSelector(sel) != nil {
		return p, nil
	}
	err := q.db.run(ctx, q.dag, &q.events, nil, func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		roots, skipped, err := t.match(sel)
		if err != nil {
			return err
		}
		p.Skipped = skipped
		if len(roots) == 0 {
			return refusal{}
		}
		at := map[string]int{}
		for i, r := range roots {
			at[r] = i
			p.Roots = append(p.Roots, core.RootPreview{Task: r})
		}
		ds, err := t.redriveRoots(roots, false)
		if err != nil {
			return err
		}
		for _, d := range ds {
			rp := &p.Roots[at[d.was]]
			if d.root == "" {
				rp.Release = append(rp.Release, d.task)
				p.Released++
			} else {
				rp.Stay = append(rp.Stay, core.StillBlocked{Task: d.task, Root: d.root})
				p.Blocked++
			}
		}
		t.events = nil
		return refusal{} // roll back: a preview changes nothing
	})
	if err != nil {
		return core.RedrivePreview{Selector: sel}, err
	}
	return p, nil
}

// CancelRedrive stops the bulk redrive in progress, as core's: the tasks
// it redrove stay redriven, the others stay DEAD, and
// EventRedriveCancelled says how far it got; one transaction. It refuses,
// changing nothing, when none is in progress (ErrNoRedrive).
func (q *Queue) CancelRedrive(ctx context.Context) error {
	return q.run(ctx, func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		if !t.d.jobAt.set {
			return refusal{fmt.Errorf("core: cannot cancel: %w", core.ErrNoRedrive)}
		}
		j, err := t.job()
		if err != nil {
			return err
		}
		if _, err := t.tx.Exec(t.ctx, "DELETE FROM dagq_redrives WHERE dag = $1", t.dag); err != nil {
			return err
		}
		t.d.jobAt = timerAt{}
		t.d.dirty = true
		t.emit(core.Event{Kind: core.EventRedriveCancelled, Reason: j.Selector.String(), Count: j.Done, Total: len(j.Tasks)})
		return nil
	})
}

// Redriving returns the bulk redrive in progress, as it stood at the last
// commit; false if none is.
func (q *Queue) Redriving(ctx context.Context) (core.RedriveJob, bool, error) {
	var j core.RedriveJob
	err := q.run(ctx, func(t *txn) error {
		if err := t.load(); err != nil {
			return err
		}
		if !t.d.jobAt.set {
			return refusal{core.ErrNoRedrive}
		}
		var err error
		j, err = t.job()
		return err
	})
	if errors.Is(err, core.ErrNoRedrive) {
		return core.RedriveJob{}, false, nil
	}
	if err != nil {
		return core.RedriveJob{}, false, err
	}
	return j, true, nil
}

// match returns the DEAD tasks sel matches, in DLQ order: those to redrive
// and the poisoned ones, apart.
func (t *txn) match(sel core.Selector) (roots, poisoned []string, err error) {
	rows, err := t.tx.Query(t.ctx, `SELECT name, error, poisoned FROM dagq_tasks
		WHERE dag = $1 AND state = 'DEAD' ORDER BY dlq_seq`, t.dag)
	if err != nil {
		return nil, nil, err
	}
	var name, text string
	var p bool
	_, err = pgx.ForEachRow(rows, []any{&name, &text, &p}, func() error {
		if sel.Fingerprint != "" && core.Fingerprint(text) != sel.Fingerprint ||
			sel.Contains != "" && !strings.Contains(text, sel.Contains) {
			return nil
		}
		if p {
			poisoned = append(poisoned, name)
		} else {
			roots = append(roots, name)
		}
		return nil
	})
	return roots, poisoned, err
}

// validSelector refuses a selector without exactly one field set, as core
// does.
func validSelector(sel core.Selector) error {
	if (sel.Fingerprint == "") == (sel.Contains == "") {
		return errors.New("core: a selector needs exactly one of Fingerprint and Contains")
	}
	return nil
}
