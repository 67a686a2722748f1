package durable

import (
	"github.com/dagq/dagq/core"
)

// submitAll submits tasks in order, in the transaction, as that many
// Submits one after another would: the same states, places in line, order
// and events, all or nothing. The DAG is locked once. When the batch is a
// new part of the DAG (no name of its tasks known yet, not even as a
// dependency; no dependency DEAD or BLOCKED; no cycle among them), it is
// written by submitBulk in a fixed number of statements whatever its size;
// otherwise each task is submitted in turn, as Submit does it. A refusal
// keeps only its own event.
func (t *txn) submitAll(tasks []NewTask) error {
	if len(tasks) == 0 {
		return nil
	}
	if err := t.lock(); err != nil {
		return err
	}
	done, err := t.submitBulk(tasks)
	if err != nil || done {
		return err
	}
	for _, nt := range tasks {
		mark := len(t.events)
		if err := t.submit(nt.Name, nt.Deps, nt.Args); err != nil {
			t.events = t.events[mark:]
			return err
		}
	}
	return nil
}

// submitBulk writes a batch of new tasks in at most five statements: the
// rows its names already have (one read, share-locked), the names first
// seen as dependencies, the tasks, their edges and the DAG's bounds. The
// cycle check is one topological sort of the batch (Kahn's algorithm,
// O(n + e) for its n tasks and e edges): the tasks take places at the back
// of the DAG's order in that sort's order and their new dependencies at
// the front, so every edge agrees with the order and none can close a
// cycle through the DAG's older tasks, which wait on none of them. It
// reports false, having written nothing, when the batch is not new in that
// sense (a name already known, a dependency DEAD or BLOCKED, a cycle in the
// batch, a name that is empty or waits on itself): the caller submits it
// task by task, which finds the refusal if there is one. The plans do not
// rest on statistics: the read is a join of an unnested array to the
// primary key, the writes take their rows from arrays.
func (t *txn) submitBulk(tasks []NewTask) (bool, error) {
	index := make(map[string]int, len(tasks))
	deps := make([][]string, len(tasks))
	names := make([]string, 0, len(tasks))
	for i, nt := range tasks {
		if nt.Name == "" {
			return false, nil
		}
		if _, dup := index[nt.Name]; dup {
			return false, nil
		}
		index[nt.Name] = i
		names = append(names, nt.Name)
	}
	var others []string // dependencies outside the batch, first seen first
	seenOther := map[string]bool{}
	for i, nt := range tasks {
		deps[i] = dedupe(nt.Deps)
		for _, d := range deps[i] {
			if d == "" || d == nt.Name {
				return false, nil
			}
			if _, in := index[d]; !in && !seenOther[d] {
				seenOther[d] = true
				others = append(others, d)
			}
		}
	}
	rows, err := t.tx.Query(t.ctx, `SELECT t.name, t.state FROM unnest($2::text[]) AS u(n)
		JOIN dagq_tasks t ON t.dag = $1 AND t.name = u.n FOR SHARE OF t`, t.dag, append(names, others...))
	if err != nil {
		return false, err
	}
	state := map[string]core.State{}
	for rows.Next() {
		var name, s string
		if err := rows.Scan(&name, &s); err != nil {
			rows.Close()
			return false, err
		}
		state[name] = core.State(s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	for _, n := range names {
		if _, known := state[n]; known {
			return false, nil
		}
	}
	for _, d := range others {
		if s := state[d]; s == core.Dead || s == core.Blocked {
			return false, nil
		}
	}
	order := topoOrder(tasks, deps, index)
	if order == nil {
		return false, nil
	}

	first, last := t.d.ordFirst, t.d.ordLast
	var fresh []string
	var freshOrd []int64
	for _, d := range others {
		if _, known := state[d]; !known {
			first--
			fresh = append(fresh, d)
			freshOrd = append(freshOrd, first)
		}
	}
	ords := make([]int64, len(tasks))
	for _, i := range order {
		last++
		ords[i] = last
	}
	states := make([]string, len(tasks))
	args := make([][]byte, len(tasks))
	waiting := make([]int32, len(tasks))
	arrivals := make([]int64, len(tasks))
	var edgeTask []int32
	var edgeDep, edgeTo []string
	var edgeArrival []int64
	events := make([]core.Event, len(tasks))
	for i, nt := range tasks {
		arrivals[i] = t.d.arrivals + int64(i) + 1
		args[i] = nt.Args
		for _, d := range deps[i] {
			if state[d] != core.Succeeded {
				waiting[i]++
			}
			edgeTask = append(edgeTask, int32(i+1))
			edgeDep = append(edgeDep, d)
			edgeTo = append(edgeTo, nt.Name)
			edgeArrival = append(edgeArrival, arrivals[i])
		}
		to := core.Pending
		if waiting[i] == 0 {
			to = core.Ready
		}
		checkMove(nt.Name, "", to)
		states[i] = string(to)
		events[i] = core.Event{Kind: core.EventSubmitted, Task: nt.Name, To: to, Deps: deps[i], At: t.now}
	}

	if len(fresh) > 0 {
		if _, err := t.tx.Exec(t.ctx, `INSERT INTO dagq_tasks (dag, name, ord)
			SELECT $1, n, o FROM unnest($2::text[], $3::bigint[]) AS u(n, o)`, t.dag, fresh, freshOrd); err != nil {
			return false, err
		}
	}
	if _, err := t.tx.Exec(t.ctx, `WITH u AS (
			SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::int[])
				WITH ORDINALITY AS u(name, state, ord, arrival, waiting, i)),
		r AS MATERIALIZED (SELECT i, nextval('dagq_line') AS seq FROM u WHERE state = 'READY' ORDER BY i),
		e AS (SELECT ti, array_agg(d ORDER BY k) AS deps
			FROM unnest($7::int[], $8::text[]) WITH ORDINALITY AS e(ti, d, k) GROUP BY ti)
		INSERT INTO dagq_tasks (dag, name, state, ord, arrival, deps, waiting, entered, ready_seq, args)
		SELECT $1, u.name, u.state, u.ord, u.arrival, coalesce(e.deps, '{}'), u.waiting, $9, r.seq, ($10::bytea[])[u.i::int]
		FROM u LEFT JOIN r ON r.i = u.i LEFT JOIN e ON e.ti = u.i`,
		t.dag, names, states, ords, arrivals, waiting, edgeTask, edgeDep, int64(t.now), args); err != nil {
		return false, err
	}
	if len(edgeDep) > 0 {
		// In key order, so that a task's dependents lie together on the
		// table's pages, as its completion reads them.
		if _, err := t.tx.Exec(t.ctx, `INSERT INTO dagq_edges (dag, dep, task, arrival)
			SELECT $1, d, v, a FROM unnest($2::text[], $3::text[], $4::bigint[]) AS u(d, v, a) ORDER BY d, a`,
			t.dag, edgeDep, edgeTo, edgeArrival); err != nil {
			return false, err
		}
	}
	if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_dags SET ord_first = $2, ord_last = $3, arrivals = $4 WHERE dag = $1`,
		t.dag, first, last, t.d.arrivals+int64(len(tasks))); err != nil {
		return false, err
	}
	t.events = append(t.events, events...)
	return true, nil
}

// topoOrder returns the indexes of tasks in an order where each comes after
// the tasks of the batch it waits on (Kahn's algorithm, ties in the batch's
// order), or nil if they wait on one another in a cycle. O(n + e).
func topoOrder(tasks []NewTask, deps [][]string, index map[string]int) []int {
	indeg := make([]int, len(tasks))
	dependents := make([][]int, len(tasks))
	for i := range tasks {
		for _, d := range deps[i] {
			if j, in := index[d]; in {
				indeg[i]++
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	order := make([]int, 0, len(tasks))
	for i := range tasks {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, w := range dependents[order[k]] {
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	if len(order) < len(tasks) {
		return nil
	}
	return order
}
