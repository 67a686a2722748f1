package durable

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5"
)

// DeadLetterGroups returns the DEAD entries of the dead-letter queue
// grouped by the fingerprint of their error, in the order of their first
// entry, as core's Queue.DeadLetterGroups.
func (q *Queue) DeadLetterGroups() []core.DeadLetterGroup {
	return core.GroupDeadLetters(q.DeadLetters())
}

// ErrRateNotSupported refuses a bulk redrive at a rate: the durable queue
// redrives a selection all at once only, for now.
var ErrRateNotSupported = errors.New("durable: a redrive at a rate is not supported yet (redrive all at once)")

// RedriveMatching redrives, all at once and in one transaction, the DEAD
// tasks sel matches, in DLQ order, skipping poisoned ones, and decides the
// tasks they blocked once, after all of them are live, with core's events
// (EventRedriveStarted, the redrive's, EventRedriveProgress,
// EventRedriveDone) and errors (ErrNoMatch). A Rate other than the zero
// Rate is refused with ErrRateNotSupported.
func (q *Queue) RedriveMatching(sel core.Selector, rate core.Rate) (core.RedriveJob, error) {
	if err := validSelector(sel); err != nil {
		return core.RedriveJob{}, err
	}
	if rate != (core.Rate{}) {
		return core.RedriveJob{}, ErrRateNotSupported
	}
	var job core.RedriveJob
	err := q.run(func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
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
		if len(roots) > 0 {
			if _, err := t.redriveRoots(roots, false); err != nil {
				return err
			}
			t.emit(core.Event{Kind: core.EventRedriveProgress, Reason: sel.String(), Tasks: roots,
				Count: len(roots), Total: len(roots)})
		}
		t.emit(core.Event{Kind: core.EventRedriveDone, Reason: sel.String(), Count: len(roots), Total: len(roots)})
		job = core.RedriveJob{Selector: sel, Rate: rate, Tasks: roots, Skipped: skipped, Done: len(roots),
			Started: t.now, Finished: true}
		return nil
	})
	return job, err
}

// PreviewRedrive returns what RedriveMatching with sel would do now,
// changing nothing, as core's Queue.PreviewRedrive: it runs the redrive in
// a transaction and rolls it back.
func (q *Queue) PreviewRedrive(sel core.Selector) core.RedrivePreview {
	p := core.RedrivePreview{Selector: sel}
	if validSelector(sel) != nil {
		return p
	}
	q.db.run(q.ctx, q.dag, &q.events, nil, func(t *txn) error {
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
	return p
}

// CancelRedrive refuses with ErrNoRedrive: a redrive of the durable queue
// is done in one transaction, so none is ever in progress.
func (q *Queue) CancelRedrive() error {
	return fmt.Errorf("core: cannot cancel: %w", core.ErrNoRedrive)
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
