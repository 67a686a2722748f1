package durable

import (
	"context"
	"time"
)

// SkewLocalClock sets the process's own clock (localNow) d off the real
// one, keeping its monotonic reading, for a worker process of a test.
func SkewLocalClock(d time.Duration) {
	localNow = func() time.Time { return time.Now().Add(d) }
}

// LocalNow is the process's own clock, as the package reads it.
func LocalNow() time.Time { return localNow() }

// CompleteBatchOfDAG completes leases of one DAG in one statement, as a
// worker's completer does.
func (db *DB) CompleteBatchOfDAG(ctx context.Context, dag string, leases []Lease) ([]Lease, error) {
	return db.completeBatch(ctx, dag, leases)
}

// ObserveMoveCopy has f called (with the DAG's name) whenever a move's copy
// has committed, before the old rows are deleted: the moment a move that
// died would leave both copies. The returned func removes it.
func ObserveMoveCopy(f func(dag string)) (remove func()) {
	afterMoveCopy.Store(&f)
	return func() { afterMoveCopy.Store(nil) }
}
