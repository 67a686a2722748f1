package durable

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// completeBatch completes leases of one DAG in one transaction, as that
// many [DB.Complete] calls one after another would, in the order given:
// each task SUCCEEDED (EventSucceeded), then each dependent decremented,
// and those left waiting on nothing, and PENDING, made READY in the order
// the sequential completions would have made them so (by the completion
// that freed them, the last of its dependencies in the batch, then by
// arrival). A lease that the fenced UPDATE does not match (stale, expired,
// not running) is left out and returned, for [DB.Complete] to settle alone
// and say why: it changes nothing here.
//
// It is one round trip and one statement, a call of dagq_complete_batch
// (migrations/0011_complete_by_key.sql: the fenced UPDATE of every lease,
// the dependents' decrements, their places in line), run again when it
// deadlocks. The complexity is O(b + e) rows for b leases and their e
// out-edges.
func (db *DB) completeBatch(ctx context.Context, dag string, leases []Lease) (unmatched []Lease, err error) {
	names := make([]string, len(leases))
	ids := make([]int64, len(leases))
	attempts := make([]int32, len(leases))
	for i, l := range leases {
		names[i], ids[i], attempts[i] = l.Task, int64(l.ID), int32(l.Attempt)
	}
	var events []core.Event
	var done []bool
	if err := againOnConflict(func() error {
		rows, err := db.pool.Query(ctx, db.completeBatchSQL(), dag, names, ids, attempts, db.nowArg())
		if err != nil {
			return err
		}
		events, done, err = batchEvents(rows, leases)
		return err
	}); err != nil {
		return nil, err
	}
	for i, l := range leases {
		if !done[i] {
			unmatched = append(unmatched, l)
		}
	}
	db.metrics.committed(dag, events)
	db.events.send(events, db.deliverer(dag))
	return unmatched, nil
}

// completeBatchSQL is a batch of completions of one DAG.
func (db *DB) completeBatchSQL() string {
	return "SELECT at, i, freed FROM dagq_complete_batch($1, $2, $3, $4, " + db.now("$5") + ")"
}

// batchEvents reads what dagq_complete_batch returned for leases: the
// events of the completions one after another (each EventSucceeded, then
// the EventReady of what it freed), and which leases it completed.
func batchEvents(rows pgx.Rows, leases []Lease) ([]core.Event, []bool, error) {
	defer rows.Close()
	done := make([]bool, len(leases))
	freed := make([][]string, len(leases)) // by the lease whose completion freed them, in READY order
	var at time.Duration
	for rows.Next() {
		var now, i int64
		var name *string
		if err := rows.Scan(&now, &i, &name); err != nil {
			return nil, nil, err
		}
		if i < 1 || int(i) > len(leases) {
			return nil, nil, fmt.Errorf("durable: dagq_complete_batch returned lease %d of %d", i, len(leases))
		}
		at = time.Duration(now)
		if name == nil {
			done[i-1] = true
		} else {
			freed[i-1] = append(freed[i-1], *name)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	var events []core.Event
	for i, l := range leases {
		if !done[i] {
			continue
		}
		checkMove(l.Task, core.Running, core.Succeeded)
		events = append(events, core.Event{Kind: core.EventSucceeded, Task: l.Task, From: core.Running,
			To: core.Succeeded, Attempt: l.Attempt, At: at})
		for _, f := range freed[i] {
			checkMove(f, core.Pending, core.Ready)
			events = append(events, core.Event{Kind: core.EventReady, Task: f, From: core.Pending, To: core.Ready, At: at})
		}
	}
	return events, done, nil
}

// completion is a handler's success waiting for the completer.
type completion struct {
	lease Lease
	// dependents is whether other tasks wait on the task.
	dependents bool
	// result receives the outcome: nil when the queue completed it, the
	// refusal or the error of DB.Complete otherwise.
	result chan error
}

// completer commits handlers' successes in batches, on [completers]
// goroutines: while a batch commits, the next gathers, so that under load
// many completions share a transaction (and a commit), and alone each
// commits at once.
//
// A batch gathers, one at a time, what has arrived; then, while handlers
// are still running (busy), it waits up to wait (gatherFor) for their
// successes to join it, up to most (batchMost). So the completions of a
// fetch, arriving microseconds apart, share one commit instead of taking
// one each. It waits
// for nothing when it is alone, or when one of its tasks has dependents
// while the worker is starved (its last fetch found fewer READY tasks than
// it had free handlers): then what the completion frees is what the
// handlers wait for, a DAG's critical path.
type completer struct {
	ctx     context.Context
	db      *DB
	in      chan completion
	most    int
	wait    time.Duration
	busy    func() int
	starved func() bool
	gather  sync.Mutex // held by the batch gathering
	wg      sync.WaitGroup
}

// completers is how many batches a worker commits at once: while one
// commits, the next gathers and the other may already be committing, so
// that a completion that frees dependents waits for less than a whole
// batch ahead of it. Batches that meet on a dependent wait for one another
// (or deadlock, and are retried).
const completers = 2

// batchMost is the most completions one transaction takes; gatherFor is
// the longest a batch waits for more (see [completer]).
const (
	batchMost = 1000
	gatherFor = 5 * time.Millisecond
)

func newCompleter(ctx context.Context, db *DB, busy func() int, starved func() bool) *completer {
	c := &completer{ctx: ctx, db: db, in: make(chan completion, batchMost), most: batchMost, wait: gatherFor,
		busy: busy, starved: starved}
	for range completers {
		c.wg.Add(1)
		go c.loop()
	}
	return c
}

// complete completes l in the next batch and returns its outcome;
// dependents is whether other tasks wait on l's task.
func (c *completer) complete(l Lease, dependents bool) error {
	r := completion{lease: l, dependents: dependents, result: make(chan error, 1)}
	c.in <- r
	return <-r.result
}

// close stops the completer once the batches sent to it have committed;
// nothing may be sent after.
func (c *completer) close() {
	close(c.in)
	c.wg.Wait()
}

func (c *completer) loop() {
	defer c.wg.Done()
	timer := time.NewTimer(c.wait)
	timer.Stop()
	for {
		batch, open := c.next(timer)
		if len(batch) > 0 {
			c.commit(batch)
		}
		if !open {
			return
		}
	}
}

// next gathers the next batch (see [completer]), and reports whether more
// may come.
func (c *completer) next(timer *time.Timer) ([]completion, bool) {
	c.gather.Lock()
	defer c.gather.Unlock()
	first, ok := <-c.in
	if !ok {
		return nil, false
	}
	batch := []completion{first}
	frees := first.dependents
	waiting := false
	defer timer.Stop()
	for len(batch) < c.most {
		var r completion
		select {
		case r, ok = <-c.in:
		default:
			if c.busy() == 0 || frees && c.starved() {
				return batch, true
			}
			if !waiting {
				waiting = true
				timer.Reset(c.wait)
			}
			select {
			case r, ok = <-c.in:
			case <-timer.C:
				return batch, true
			}
		}
		if !ok {
			return batch, false
		}
		batch = append(batch, r)
		frees = frees || r.dependents
	}
	return batch, true
}

// commit completes a batch, a transaction per DAG; a lease the batch did
// not match, and every lease of a batch that failed, is completed alone,
// so that it gets its own answer.
func (c *completer) commit(batch []completion) {
	byDAG := map[string][]completion{}
	var dags []string
	for _, r := range batch {
		if _, ok := byDAG[r.lease.DAG]; !ok {
			dags = append(dags, r.lease.DAG)
		}
		byDAG[r.lease.DAG] = append(byDAG[r.lease.DAG], r)
	}
	ctx := c.ctx
	for _, dag := range dags {
		rs := byDAG[dag]
		if len(rs) == 1 {
			rs[0].result <- c.db.Complete(ctx, rs[0].lease)
			continue
		}
		leases := make([]Lease, len(rs))
		for i, r := range rs {
			leases[i] = r.lease
		}
		unmatched, err := c.db.completeBatch(ctx, dag, leases)
		alone := map[uint64]bool{}
		for _, l := range unmatched {
			alone[l.ID] = true
		}
		for _, r := range rs {
			if err != nil || alone[r.lease.ID] {
				r.result <- c.db.Complete(ctx, r.lease)
			} else {
				r.result <- nil
			}
		}
	}
}
