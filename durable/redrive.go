package durable

import (
	"github.com/jackc/pgx/v5"

	"cmp"
	"slices"

	"github.com/dagq/dagq/core"
)

// redrive is core's Queue.Redrive (ForceRedrive when force) in one
// transaction, the DAG locked: the DEAD task is READY with fresh attempts,
// then every task it blocked is decided again in Kahn's order,
// dependencies first: PENDING if no dependency is DEAD or BLOCKED any more
// (EventUnblocked), else BLOCKED under a root still DEAD (EventRerooted).
// The region is collected breadth first, one statement per level; the
// decisions read the region's dependencies once and write once.
func (t *txn) redrive(task string, force bool) error {
	if err := t.lock(); err != nil {
		return err
	}
	var state string
	var poisoned bool
	var redrives int
	err := t.tx.QueryRow(t.ctx, `SELECT state, poisoned, redrives FROM dagq_tasks WHERE dag = $1 AND name = $2 FOR UPDATE`,
		t.dag, task).Scan(&state, &poisoned, &redrives)
	switch {
	case err == pgx.ErrNoRows || (err == nil && state == ""):
		return refusal{&core.TaskError{Task: task, Err: core.ErrUnknown}}
	case err != nil:
		return err
	case core.State(state) != core.Dead:
		return refusal{&core.TaskError{Task: task, Err: core.ErrNotDead}}
	case poisoned && !force:
		return refusal{&core.TaskError{Task: task, Err: core.ErrPoisoned}}
	}
	if force {
		redrives = -1
	}
	checkMove(task, core.Dead, core.Ready)
	if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET state = 'READY', attempts = 0, reason = '', error = '',
		poisoned = false, redrives = $3, dlq_seq = NULL, ready_seq = nextval('dagq_line')
		WHERE dag = $1 AND name = $2`, t.dag, task, redrives+1); err != nil {
		return err
	}
	t.emit(core.Event{Kind: core.EventRedriven, Task: task, From: core.Dead, To: core.Ready})

	// The region: the tasks blocked by task, reached through each other,
	// nearest first, with their deps and arrival.
	type member struct {
		deps    []string
		arrival int64
		count   int // deps in the region still undecided
	}
	region := map[string]*member{}
	var order []string
	level := []string{task}
	for len(level) > 0 {
		rows, err := t.tx.Query(t.ctx, `SELECT e.task, t.deps, t.arrival FROM unnest($2::text[]) WITH ORDINALITY AS f(name, i)
			JOIN dagq_edges e ON e.dag = $1 AND e.dep = f.name
			JOIN dagq_tasks t ON t.dag = $1 AND t.name = e.task AND t.state = 'BLOCKED' AND t.root = $3
			ORDER BY f.i, e.arrival`, t.dag, level, task)
		if err != nil {
			return err
		}
		var next []string
		for rows.Next() {
			var w string
			m := &member{}
			if err := rows.Scan(&w, &m.deps, &m.arrival); err != nil {
				return err
			}
			if region[w] == nil {
				region[w] = m
				next = append(next, w)
				order = append(order, w)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		level = next
	}
	if len(order) == 0 {
		return nil
	}
	// States of the region's dependencies outside it, as they stand.
	var outside []string
	for _, w := range order {
		for _, d := range region[w].deps {
			if region[d] == nil {
				outside = append(outside, d)
			} else {
				region[w].count++
			}
		}
	}
	type dep struct {
		state core.State
		root  string
	}
	states := map[string]dep{task: {state: core.Ready}}
	rows, err := t.tx.Query(t.ctx, `SELECT name, state, coalesce(root, '') FROM dagq_tasks WHERE dag = $1 AND name = ANY($2)`,
		t.dag, dedupe(outside))
	if err != nil {
		return err
	}
	for rows.Next() {
		var n, s, r string
		if err := rows.Scan(&n, &s, &r); err != nil {
			return err
		}
		if n != task {
			states[n] = dep{core.State(s), r}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// dependents within the region, in arrival order.
	dependents := map[string][]string{}
	for _, w := range order {
		for _, d := range region[w].deps {
			if region[d] != nil || d == task {
				dependents[d] = append(dependents[d], w)
			}
		}
	}
	for _, ws := range dependents {
		slices.SortFunc(ws, func(a, b string) int { return cmp.Compare(region[a].arrival, region[b].arrival) })
	}
	// Kahn's order, as core's redriveRoots: the line starts with the
	// region's tasks none of whose deps is in the region, nearest first.
	var line []string
	for _, w := range order {
		if region[w].count == 0 {
			line = append(line, w)
		}
	}
	var names, roots []string
	var released []bool
	delta := map[string]int{}
	for i := 0; i < len(line); i++ {
		w := line[i]
		root := ""
		for _, d := range region[w].deps {
			s := states[d]
			if s.state == core.Dead {
				root = d
				break
			}
			if s.state == core.Blocked {
				root = s.root
				break
			}
		}
		names = append(names, w)
		roots = append(roots, root)
		released = append(released, root == "")
		delta[task]--
		if root == "" {
			checkMove(w, core.Blocked, core.Pending)
			states[w] = dep{state: core.Pending}
			t.emit(core.Event{Kind: core.EventUnblocked, Task: w, From: core.Blocked, To: core.Pending})
		} else {
			checkMove(w, core.Blocked, core.Blocked)
			states[w] = dep{core.Blocked, root}
			delta[root]++
			t.emit(core.Event{Kind: core.EventRerooted, Task: w, From: core.Blocked, To: core.Blocked,
				Root: root, Reason: "blocked by " + root})
		}
		for _, x := range dependents[w] {
			if region[x].count--; region[x].count == 0 {
				line = append(line, x)
			}
		}
	}
	if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks t SET
			state = CASE WHEN u.released THEN 'PENDING' ELSE 'BLOCKED' END,
			root = nullif(u.root, ''),
			dlq_seq = CASE WHEN u.released THEN NULL ELSE t.dlq_seq END
		FROM unnest($2::text[], $3::text[], $4::bool[]) AS u(n, root, released)
		WHERE t.dag = $1 AND t.name = u.n`, t.dag, names, roots, released); err != nil {
		return err
	}
	var blockNames []string
	var blockDelta []int
	for n, d := range delta {
		if d != 0 && n != task {
			blockNames, blockDelta = append(blockNames, n), append(blockDelta, d)
		}
	}
	// The redriven task is no longer DEAD: its radius is 0.
	blockNames, blockDelta = append(blockNames, task), append(blockDelta, 0)
	_, err = t.tx.Exec(t.ctx, `UPDATE dagq_tasks t SET blocks = CASE WHEN t.name = $3 THEN 0 ELSE t.blocks + u.d END
		FROM unnest($2::text[], $4::int[]) AS u(n, d)
		WHERE t.dag = $1 AND t.name = u.n`, t.dag, blockNames, task, blockDelta)
	return err
}
