package durable

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

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
// Statements: BEGIN, one fenced UPDATE of every lease (unnest), one UPDATE
// of the dependents, and, when some become READY, one UPDATE of their
// places in line; COMMIT. The complexity is O(b + e) rows for b leases and
// their e out-edges.
//
// Two batches can only meet on dependents (a dependent of a RUNNING task
// is not RUNNING itself), and their rows are locked in name order before
// they are updated, so concurrent batches wait for one another instead of
// deadlocking, which Postgres would notice only after deadlock_timeout.
func (db *DB) completeBatch(ctx context.Context, dag string, leases []Lease) (unmatched []Lease, err error) {
	names := make([]string, len(leases))
	ids := make([]int64, len(leases))
	attempts := make([]int32, len(leases))
	for i, l := range leases {
		names[i], ids[i], attempts[i] = l.Task, int64(l.ID), int32(l.Attempt)
	}
	err = db.run(ctx, dag, &db.events, db.deliverer(dag), func(t *txn) error {
		unmatched = unmatched[:0]
		var wall any
		if db.clock != nil {
			wall = int64(db.clock())
		}
		rows, err := t.tx.Query(t.ctx, `WITH l AS (
				SELECT * FROM unnest($2::text[], $3::bigint[], $4::int[]) AS l(name, lease, attempt) ORDER BY name)
			UPDATE dagq_tasks t SET state = 'SUCCEEDED', timer_at = NULL, timer_seq = NULL
			FROM l, dagq_dags d
			WHERE t.dag = $1 AND t.name = l.name AND t.state = 'RUNNING' AND t.lease = l.lease AND t.attempts = l.attempt
				AND d.dag = t.dag AND (t.timer_at IS NULL OR t.timer_at > coalesce($5::bigint, d.now))
			RETURNING t.name, t.lease, coalesce($5::bigint, d.now)`, t.dag, names, ids, attempts, wall)
		if err != nil {
			return err
		}
		done := map[string]int64{} // a completed task's lease
		var succeeded []core.Event
		var name string
		var lease, now int64
		for rows.Next() {
			if err := rows.Scan(&name, &lease, &now); err != nil {
				return err
			}
			done[name] = lease
		}
		if err := rows.Err(); err != nil {
			return err
		}
		t.now = time.Duration(now)
		var completed []string
		for _, l := range leases {
			if id, ok := done[l.Task]; !ok || id != int64(l.ID) {
				unmatched = append(unmatched, l)
				continue
			}
			completed = append(completed, l.Task)
			checkMove(l.Task, core.Running, core.Succeeded)
			succeeded = append(succeeded, core.Event{Kind: core.EventSucceeded, Task: l.Task, From: core.Running, To: core.Succeeded, Attempt: l.Attempt})
		}
		// The events, as the completions one after another would emit
		// them: each EventSucceeded, then the EventReady of what it freed.
		var freed []string
		var by []int
		defer func() {
			j := 0
			for i, e := range succeeded {
				t.emit(e)
				for ; j < len(freed) && by[j] == i; j++ {
					checkMove(freed[j], core.Pending, core.Ready)
					t.emit(core.Event{Kind: core.EventReady, Task: freed[j], From: core.Pending, To: core.Ready})
				}
			}
		}()
		if len(completed) == 0 {
			return nil
		}
		// The dependents' decrements, each by the number of its
		// dependencies in the batch; each freed task comes back with the
		// completion that freed it (the last of those dependencies in the
		// batch) and its arrival.
		rows, err = t.tx.Query(t.ctx, `WITH e AS (
				SELECT e.task, count(*) AS c, max(b.i) AS by, max(e.arrival) AS arrival
				FROM unnest($2::text[]) WITH ORDINALITY AS b(name, i)
				JOIN dagq_edges e ON e.dag = $1 AND e.dep = b.name
				GROUP BY e.task),
			locked AS (
				SELECT t.name FROM dagq_tasks t JOIN e ON t.dag = $1 AND t.name = e.task
				ORDER BY t.name FOR UPDATE OF t)
			UPDATE dagq_tasks t SET waiting = t.waiting - e.c,
				state = CASE WHEN t.waiting = e.c AND t.state = 'PENDING' THEN 'READY' ELSE t.state END
			FROM e, locked WHERE t.dag = $1 AND t.name = e.task AND locked.name = e.task
			RETURNING t.name, t.state, e.by, e.arrival`, t.dag, completed)
		if err != nil {
			return err
		}
		type key struct{ by, arrival int64 }
		keys := map[string]key{}
		var state string
		var k key
		for rows.Next() {
			if err := rows.Scan(&name, &state, &k.by, &k.arrival); err != nil {
				return err
			}
			if core.State(state) == core.Ready {
				freed = append(freed, name)
				k.by-- // ordinality counts from 1
				keys[name] = k
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(freed) == 0 {
			return nil
		}
		slices.SortFunc(freed, func(a, b string) int {
			ka, kb := keys[a], keys[b]
			return cmp.Or(cmp.Compare(ka.by, kb.by), cmp.Compare(ka.arrival, kb.arrival))
		})
		by = make([]int, len(freed))
		for i, f := range freed {
			by[i] = int(keys[f].by)
		}
		// Places in line drawn first, then given out in freed's order:
		// nextval in a join runs in whatever order the plan visits rows.
		_, err = t.tx.Exec(t.ctx, `WITH v AS (SELECT nextval('dagq_line') AS seq FROM generate_series(1, $3::int)),
				r AS (SELECT seq, row_number() OVER (ORDER BY seq) AS i FROM v)
			UPDATE dagq_tasks t SET ready_seq = r.seq
			FROM unnest($2::text[]) WITH ORDINALITY AS u(n, i) JOIN r ON r.i = u.i
			WHERE t.dag = $1 AND t.name = u.n`, t.dag, freed, len(freed))
		return err
	})
	if err != nil {
		return nil, err
	}
	return unmatched, nil
}

// completion is a handler's success waiting for the completer.
type completion struct {
	lease Lease
	// result receives the outcome: nil when the queue completed it, the
	// refusal or the error of DB.Complete otherwise.
	result chan error
}

// completer commits handlers' successes in batches, on [completers]
// goroutines: while a batch commits, the next gathers, so that under load
// many completions share a transaction (and a commit), and alone each
// commits at once. Most is how many one transaction takes.
type completer struct {
	ctx  context.Context
	db   *DB
	in   chan completion
	most int
	wg   sync.WaitGroup
}

// completers is how many batches a worker commits at once: while one
// commits, the next gathers and the other may already be committing, so
// that a completion that frees dependents waits for less than a whole
// batch ahead of it. Batches that meet on a dependent wait for one another
// (or deadlock, and are retried).
const completers = 2

func newCompleter(ctx context.Context, db *DB, most int) *completer {
	c := &completer{ctx: ctx, db: db, in: make(chan completion, most), most: most}
	for range completers {
		c.wg.Add(1)
		go c.loop()
	}
	return c
}

// complete completes l in the next batch and returns its outcome.
func (c *completer) complete(l Lease) error {
	r := completion{lease: l, result: make(chan error, 1)}
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
	for first := range c.in {
		batch := []completion{first}
	gather:
		for len(batch) < c.most {
			select {
			case r, ok := <-c.in:
				if !ok {
					break gather
				}
				batch = append(batch, r)
			default:
				break gather
			}
		}
		c.commit(batch)
	}
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
