package durable

import (
	"github.com/jackc/pgx/v5"

	"cmp"
	"slices"

	"github.com/dagq/dagq/core"
)

// redrive is core's Queue.Redrive (ForceRedrive when force) in one
// transaction, the DAG locked: the checks, then redriveRoots.
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
	_, err = t.redriveRoots([]string{task}, force)
	return err
}

// decision is what a redrive decided for a task its roots blocked: its
// root before (one of the roots), and after ("" released, PENDING).
type decision struct {
	task, was, root string
}

// redriveRoots redrives the DEAD tasks roots at once, in the order given
// (READY with fresh attempts, one more redrive each; force: the count of
// redrives starts over), and then decides every task BLOCKED by any of
// them, once, after all of them are live again, as core's redriveRoots:
// in Kahn's order, dependencies first, PENDING if no dependency is DEAD or
// BLOCKED any more (EventUnblocked), else BLOCKED under a root still DEAD
// (EventRerooted). The region is collected breadth first, one statement
// per level; the decisions read the region's dependencies once and write
// once. It returns the decisions in the order made.
func (t *txn) redriveRoots(roots []string, force bool) ([]decision, error) {
	for _, r := range roots {
		checkMove(r, core.Dead, core.Ready)
	}
	if _, err := t.tx.Exec(t.ctx, `WITH s AS MATERIALIZED (`+inLine+`)
		UPDATE dagq_tasks t SET state = 'READY', attempts = 0, reason = '', error = '', poisoned = false,
			redrives = CASE WHEN $3 THEN 0 ELSE t.redrives + 1 END, dlq_seq = NULL, blocks = 0, ready_seq = s.seq
		FROM s WHERE t.dag = $1 AND t.name = s.n`, t.dag, roots, force); err != nil {
		return nil, err
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
		t.emit(core.Event{Kind: core.EventRedriven, Task: r, From: core.Dead, To: core.Ready})
	}

	// The region: the tasks blocked by the roots, reached through each
	// other, nearest first, with their deps, arrival and root.
	type member struct {
		deps    []string
		arrival int64
		was     string
		count   int // deps in the region still undecided
	}
	region := map[string]*member{}
	var order []string
	level := roots
	for len(level) > 0 {
		rows, err := t.tx.Query(t.ctx, `SELECT e.task, t.deps, t.arrival, t.root FROM unnest($2::text[]) WITH ORDINALITY AS f(name, i)
			JOIN dagq_edges e ON e.dag = $1 AND e.dep = f.name
			JOIN dagq_tasks t ON t.dag = $1 AND t.name = e.task AND t.state = 'BLOCKED' AND t.root = ANY($3)
			ORDER BY f.i, e.arrival`, t.dag, level, roots)
		if err != nil {
			return nil, err
		}
		var next []string
		for rows.Next() {
			var w string
			m := &member{}
			if err := rows.Scan(&w, &m.deps, &m.arrival, &m.was); err != nil {
				return nil, err
			}
			if region[w] == nil {
				region[w] = m
				next = append(next, w)
				order = append(order, w)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		level = next
	}
	if len(order) == 0 {
		return nil, nil
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
	states := map[string]dep{}
	rows, err := t.tx.Query(t.ctx, `SELECT name, state, coalesce(root, '') FROM dagq_tasks WHERE dag = $1 AND name = ANY($2)`,
		t.dag, dedupe(outside))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var n, s, r string
		if err := rows.Scan(&n, &s, &r); err != nil {
			return nil, err
		}
		states[n] = dep{core.State(s), r}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// dependents within the region, in arrival order.
	dependents := map[string][]string{}
	for _, w := range order {
		for _, d := range region[w].deps {
			if region[d] != nil {
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
	var names, newRoots []string
	var released []bool
	var out []decision
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
		newRoots = append(newRoots, root)
		released = append(released, root == "")
		out = append(out, decision{w, region[w].was, root})
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
		WHERE t.dag = $1 AND t.name = u.n`, t.dag, names, newRoots, released); err != nil {
		return nil, err
	}
	if len(delta) == 0 {
		return out, nil
	}
	var blockNames []string
	var blockDelta []int
	for n, d := range delta {
		blockNames, blockDelta = append(blockNames, n), append(blockDelta, d)
	}
	_, err = t.tx.Exec(t.ctx, `UPDATE dagq_tasks t SET blocks = t.blocks + u.d
		FROM unnest($2::text[], $3::int[]) AS u(n, d)
		WHERE t.dag = $1 AND t.name = u.n`, t.dag, blockNames, blockDelta)
	return out, err
}
