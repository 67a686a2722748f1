package durable

import (
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// submit is Queue.Submit inside its transaction: the DAG locked, the rows
// of the task and its dependencies read and share-locked (so that a
// concurrent Complete, death or redrive of a dependency waits for this
// submit or is seen by it), the cycle check on the order's labels
// (order.go), then the task, the names first seen and the edges written.
//
// Statements: a constant number when the labels agree with the new edges
// (chains in either direction, wide graphs): the lock, the DAG's row, the
// rows of the task and its deps, in one round trip; the new names, the
// task, the edges, the DAG's bounds, in another. With the transaction's
// BEGIN in the first and the COMMIT in the second (see pipeTx), a submit
// is two round trips; one without dependencies (submitRoot) is one. A
// search adds a few per edge that disagrees; a blocking wave two per level
// it reaches.
func (t *txn) submit(task string, deps []string, args []byte) error {
	if err := core.CheckNames(task, deps); err != nil {
		return t.reject(task, deps, err)
	}
	deps = dedupe(deps)
	if len(deps) == 0 {
		return t.submitRoot(task, args)
	}
	type known struct {
		state core.State
		root  string
	}
	seen := map[string]known{}
	ord := map[string]int64{}
	names := append([]string{task}, deps...)
	if err := t.lockThen(func(b *pgx.Batch) {
		b.Queue(`SELECT name, state, ord, coalesce(root, '') FROM dagq_tasks
			WHERE dag = $1 AND name = ANY($2) FOR SHARE`, t.dag, names)
	}, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		var name, state, root string
		var o int64
		_, err = pgx.ForEachRow(rows, []any{&name, &state, &o, &root}, func() error {
			seen[name] = known{core.State(state), root}
			ord[name] = o
			return nil
		})
		return err
	}); err != nil {
		return err
	}
	if k, ok := seen[task]; ok && k.state != "" {
		return t.reject(task, deps, &core.TaskError{Task: task, Err: core.ErrDuplicate})
	}
	if slices.Contains(deps, task) {
		return t.reject(task, deps, &core.CycleError{Path: []string{task, task}})
	}

	// Places for names not seen before: the task at the back, a
	// dependency at the front (see order.go).
	first, last := t.d.ordFirst, t.d.ordLast
	_, existed := seen[task]
	if !existed {
		last++
		ord[task] = last
	}
	var fresh []string
	var freshOrd []int64
	for _, d := range deps {
		if _, ok := seen[d]; !ok {
			first--
			ord[d] = first
			fresh = append(fresh, d)
			freshOrd = append(freshOrd, first)
		}
	}
	for _, d := range deps {
		if cycle, err := t.insertEdge(task, d, ord); err != nil {
			return err
		} else if cycle != nil {
			return t.reject(task, deps, &core.CycleError{Path: cycle})
		}
	}

	// The state it arrives in.
	waiting, root := 0, ""
	for _, d := range deps {
		k := seen[d]
		switch k.state {
		case core.Succeeded:
			continue
		case core.Dead:
			if root == "" {
				root = d
			}
		case core.Blocked:
			if root == "" {
				root = k.root
			}
		}
		waiting++
	}
	to := core.Pending
	switch {
	case root != "":
		to = core.Blocked
	case waiting == 0:
		to = core.Ready
	}
	checkMove(task, "", to)
	arrival := t.d.arrivals + 1

	// The writes, in one round trip.
	b := &pgx.Batch{}
	if len(fresh) > 0 {
		b.Queue(`INSERT INTO dagq_tasks (dag, name, ord)
			SELECT $1, n, o FROM unnest($2::text[], $3::bigint[]) AS u(n, o)`, t.dag, fresh, freshOrd)
	}
	var rootArg any
	if root != "" {
		rootArg = root
	}
	b.Queue(`INSERT INTO dagq_tasks AS t (dag, name, state, ord, arrival, deps, waiting, root, entered, ready_seq, dlq_seq, args)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
			CASE WHEN $3 = 'READY' THEN nextval('dagq_line') END,
			CASE WHEN $3 = 'BLOCKED' THEN nextval('dagq_line') END, $10)
		ON CONFLICT (dag, name) DO UPDATE SET state = EXCLUDED.state, ord = EXCLUDED.ord,
			arrival = EXCLUDED.arrival, deps = EXCLUDED.deps, waiting = EXCLUDED.waiting,
			root = EXCLUDED.root, entered = EXCLUDED.entered,
			ready_seq = EXCLUDED.ready_seq, dlq_seq = EXCLUDED.dlq_seq, args = EXCLUDED.args`,
		t.dag, task, string(to), ord[task], arrival, deps, waiting, rootArg, int64(t.now), args)
	if len(deps) > 0 {
		b.Queue(`INSERT INTO dagq_edges (dag, dep, task, arrival)
			SELECT $1, d, $2, $3 FROM unnest($4::text[]) AS d`, t.dag, task, arrival, deps)
	}
	b.Queue(`UPDATE dagq_dags SET ord_first = $2, ord_last = $3, arrivals = $4 WHERE dag = $1`,
		t.dag, first, last, arrival)
	// Arriving anything but BLOCKED, the writes are the submit's last
	// statements: the COMMIT may go with them. A blocking wave follows them.
	var err error
	if to == core.Blocked {
		err = t.tx.SendBatch(t.ctx, b).Close()
	} else {
		err = t.sendLast(b)
	}
	if err != nil {
		return err
	}
	e := core.Event{Kind: core.EventSubmitted, Task: task, To: to, Deps: deps}
	if to == core.Blocked {
		e.Root, e.Reason = root, "blocked by "+root
	}
	t.emit(e)
	if to == core.Blocked {
		t.noteEntry()
		n, err := t.blockWave(task, root)
		if err != nil {
			return err
		}
		if err := t.placeAlert(); err != nil {
			return err
		}
		if err := t.addBlocks(root, n+1); err != nil {
			return err
		}
	}
	return nil
}

// submitRoot is submit for a task without dependencies, which cannot
// close a cycle or arrive BLOCKED: it arrives READY unless its name is
// taken. So its writes need nothing read first, and go in the same round
// trip as the lock and the DAG's row (with the COMMIT when the operation
// ends there): one statement that inserts the task, or fills in the row
// of a name dependents awaited (which keeps its place in the order), and
// moves the DAG's bounds, and that writes nothing when the name is a
// task's already. A submit of a root is one round trip, where it was two:
// an idle worker's hand-out waits for it.
func (t *txn) submitRoot(task string, args []byte) error {
	var entered int64
	var written bool
	err := t.lockThenLast(func(b *pgx.Batch) {
		b.Queue(`WITH prior AS (
				SELECT state FROM dagq_tasks WHERE dag = $1 AND name = $2),
			ins AS (
				INSERT INTO dagq_tasks AS t (dag, name, state, ord, arrival, deps, waiting, root, entered, ready_seq, dlq_seq, args)
				SELECT d.dag, $2, 'READY', d.ord_last + 1, d.arrivals + 1, '{}', 0, NULL,
					coalesce(`+t.db.now("$4")+`, d.now), nextval('dagq_line'), NULL, $3
				FROM dagq_dags d
				WHERE d.dag = $1 AND NOT EXISTS (SELECT 1 FROM prior WHERE state <> '')
				ON CONFLICT (dag, name) DO UPDATE SET state = EXCLUDED.state, arrival = EXCLUDED.arrival,
					deps = EXCLUDED.deps, waiting = 0, root = NULL, entered = EXCLUDED.entered,
					ready_seq = EXCLUDED.ready_seq, dlq_seq = NULL, args = EXCLUDED.args
				RETURNING t.entered)
			UPDATE dagq_dags d SET arrivals = d.arrivals + 1,
				ord_last = d.ord_last + CASE WHEN EXISTS (SELECT 1 FROM prior) THEN 0 ELSE 1 END
			FROM ins WHERE d.dag = $1
			RETURNING ins.entered`, t.dag, task, args, t.db.nowArg())
	}, func(br pgx.BatchResults) error {
		err := br.QueryRow().Scan(&entered)
		if err == pgx.ErrNoRows {
			return nil
		}
		written = err == nil
		return err
	})
	if err != nil {
		return err
	}
	if !written {
		return t.reject(task, nil, &core.TaskError{Task: task, Err: core.ErrDuplicate})
	}
	checkMove(task, "", core.Ready)
	// The time the row records, which on the database's clock is read a
	// moment after the DAG's row was.
	t.now = time.Duration(entered)
	t.emit(core.Event{Kind: core.EventSubmitted, Task: task, To: core.Ready, Deps: []string{}})
	return nil
}

// reject refuses a submit: its EventRejected is delivered, and nothing
// changes.
func (t *txn) reject(task string, deps []string, err error) error {
	e := core.Event{Kind: core.EventRejected, Task: task, Reason: err.Error(), Deps: dedupe(deps)}
	if c, ok := err.(*core.CycleError); ok {
		e.Path = c.Path
	}
	if t.d == nil {
		t.now = t.storedNow()
	}
	t.emit(e)
	return refusal{err}
}

// storedNow reads the DAG's time for an operation that did not load its
// row: one statement; 0 if it cannot.
func (t *txn) storedNow() (now time.Duration) {
	var n int64
	if err := t.tx.QueryRow(t.ctx, "SELECT coalesce("+t.db.now("$2")+", now) FROM dagq_dags WHERE dag = $1",
		t.dag, t.db.nowArg()).Scan(&n); err != nil {
		return 0
	}
	return time.Duration(n)
}

// dedupe returns names without repeats, first occurrence kept.
func dedupe(names []string) []string {
	seen := make(map[string]bool, len(names))
	out := make([]string, 0, len(names))
	for _, s := range names {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
