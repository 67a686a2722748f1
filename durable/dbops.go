package durable

import (
	"context"

	"github.com/dagq/dagq/core"
)

// NextBatch hands out up to n READY tasks of any DAG of the database, in
// READY order across DAGs, in one statement (FOR UPDATE SKIP LOCKED):
// workers calling it at once take different tasks and never wait for one
// another. Each lease carries its DAG. Events go to Options.OnEvent.
func (db *DB) NextBatch(ctx context.Context, n int) ([]Lease, error) {
	hs, err := db.nextBatch(ctx, n, db.holder, false)
	if err != nil {
		return nil, err
	}
	leases := make([]Lease, len(hs))
	for i, h := range hs {
		leases[i] = h.lease
	}
	return leases, nil
}

// nextBatch is NextBatch to holder, with what a worker needs to know of
// each task: with results, what its dependencies recorded.
func (db *DB) nextBatch(ctx context.Context, n int, holder string, results bool) ([]handout, error) {
	hs, err := db.next(ctx, "", n, holder, results)
	if err == nil && db.onEvent != nil {
		for _, h := range hs {
			db.events.send([]core.Event{started(h.lease, h.now)}, db.deliverer(h.lease.DAG))
		}
	}
	return hs, err
}

// Complete completes a lease of any DAG (see [Queue.Complete]).
func (db *DB) Complete(ctx context.Context, l Lease) error {
	return db.complete(ctx, l.DAG, l.Lease, &db.events, db.deliverer(l.DAG))
}

// Fail fails a lease of any DAG (see [Queue.Fail]).
func (db *DB) Fail(ctx context.Context, l Lease, cause error) (core.State, error) {
	var st core.State
	err := db.run(ctx, l.DAG, &db.events, db.deliverer(l.DAG), func(t *txn) error {
		if err := t.lock(); err != nil {
			return err
		}
		r, expired, err := t.current(l.Lease)
		if err != nil {
			return t.settle(expired, err)
		}
		st, err = t.fail(r, cause)
		return err
	})
	if err != nil {
		return "", err
	}
	return st, nil
}

// Heartbeat renews a lease of any DAG (see [Queue.Heartbeat]).
func (db *DB) Heartbeat(ctx context.Context, l Lease) (Lease, error) {
	var out core.Lease
	err := db.run(ctx, l.DAG, &db.events, db.deliverer(l.DAG), func(t *txn) error {
		var err error
		out, err = t.heartbeat(l.Lease)
		return err
	})
	return Lease{DAG: l.DAG, Lease: out}, err
}
