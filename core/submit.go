package core

import "slices"

// Submit adds a task that waits on deps. Duplicate deps are dropped, order
// kept; deps need not have arrived yet (an unknown dependency counts as not
// succeeded, so tasks may arrive in any order).
//
// The task arrives
//   - BLOCKED if a dependency is DEAD or BLOCKED, with the root of the first
//     such dependency; every PENDING task already waiting on it, transitively,
//     is BLOCKED too, nearest first (else they would wait forever);
//   - READY, at the back of the line, if every dependency has succeeded;
//   - PENDING otherwise.
//
// Submit refuses, changing nothing, a name that is empty, longer than
// MaxName bytes or already submitted (*TaskError with ErrInvalidName,
// ErrNameTooLong or ErrDuplicate) and a task that
// would close a cycle, itself included (*CycleError, which is ErrCycle).
//
// The cost is O(d) for d deps plus the strategy's cycle check, plus
// O(V'+E') for the tasks V' a blocking wave reaches. A warmed-up queue does
// not allocate when no event is observed, beyond growing its tables.
func (q *Queue) Submit(task string, deps ...string) error {
	q.op++
	defer q.flush()
	if err := CheckNames(task, deps); err != nil {
		return q.refuse(task, deps, err)
	}
	if len(deps) >= 2 && q.table.large() {
		q.touched += q.table.touch(&q.nodes, task, deps)
	}
	// One probe of the name table for the task: the duplicate check and its
	// id, made here if it is new.
	known := q.nodes.len()
	v, named := q.intern(task)
	if named && q.nodes.at(v).state != unsubmitted {
		return q.refuse(task, deps, &TaskError{Task: task, Err: ErrDuplicate})
	}
	ids := q.internDeps(deps)
	if slices.Contains(ids, v) {
		q.forget(known)
		return q.refuse(task, deps, &CycleError{Path: []string{task, task}})
	}
	before := q.check.Visits()
	q.visited = q.visited[:0]
	if cycle := q.check.Insert((*graphView)(q), v, ids); cycle != nil {
		err := &CycleError{Path: q.names(cycle)}
		visited := q.visitedNames()
		q.forget(known)
		return q.refuseVisited(task, deps, err, q.check.Visits()-before, visited)
	}
	q.add(v, ids, q.check.Visits()-before)
	return nil
}

// admissible refuses empty names, names longer than MaxName and a task
// already submitted.
func (q *Queue) admissible(task string, deps []string) error {
	if err := CheckNames(task, deps); err != nil {
		return err
	}
	if _, ok := q.lookup(task); ok {
		return &TaskError{Task: task, Err: ErrDuplicate}
	}
	return nil
}

// internDeps returns the ids of deps, duplicates dropped, order kept, in a
// scratch slice valid until the next call. Up to dedupeScan deps are
// compared with each other, O(d²) for d deps; more take a walk's marks, O(d).
func (q *Queue) internDeps(deps []string) []int32 {
	ids := q.ids32[:0]
	for _, d := range deps {
		w, _ := q.intern(d)
		ids = append(ids, w)
	}
	kept := ids[:0]
	if len(ids) <= dedupeScan {
		for _, w := range ids {
			if !slices.Contains(kept, w) {
				kept = append(kept, w)
			}
		}
	} else {
		q.newWalk()
		for _, w := range ids {
			if q.mark[w] != q.stamp {
				q.mark[w] = q.stamp
				kept = append(kept, w)
			}
		}
	}
	q.ids32 = kept
	return kept
}

// dedupeScan is the most deps internDeps dedupes by comparing them with each
// other rather than by marking them: fewer than a walk costs.
const dedupeScan = 8

// add enters task v, already checked, with its dependencies: it arrives
// BLOCKED (and blocks its waiters), READY or PENDING.
func (q *Queue) add(v int32, ids []int32, visits uint64) {
	n := q.nodes.at(v)
	n.deps = q.arena.copyOf(ids)
	root := int32(-1)
	for _, w := range ids { // n's deps
		d := q.nodes.at(w)
		d.dependents = q.arena.push(d.dependents, v)
		switch d.state {
		case succeeded:
			continue
		case dead:
			if root < 0 {
				root = w
			}
		case blocked:
			if root < 0 {
				root = q.dl[w].root
			}
		}
		n.waiting++
	}
	q.order = append(q.order, v)

	var e *Event // nil when unobserved: an Event is large to build
	if q.onEvent != nil {
		e = &Event{Kind: EventSubmitted, Deps: q.names(q.arena.ints(n.deps)), Visits: visits, Visited: q.visitedNames()}
	}
	switch {
	case root >= 0:
		q.move(v, blocked, root, e)
		q.blockWave(v, root)
	case n.waiting == 0:
		q.move(v, ready, -1, e)
	default:
		q.move(v, pending, -1, e)
	}
}

// refuse reports a refused submit as an event and returns err.
func (q *Queue) refuse(task string, deps []string, err error) error {
	return q.refuseVisited(task, deps, err, 0, nil)
}

func (q *Queue) refuseVisited(task string, deps []string, err error, visits uint64, visited []string) error {
	if q.onEvent != nil {
		e := Event{Op: q.op, Kind: EventRejected, Task: task, Reason: err.Error(), Visits: visits, Visited: visited}
		e.Deps = dedupe(deps)
		if c, ok := err.(*CycleError); ok {
			e.Path = c.Path
		}
		q.emit(e)
	}
	return err
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

// blockWave blocks, nearest first, every PENDING task that waits on start
// transitively, naming root. A task already BLOCKED keeps its own root (one
// still DEAD), and so do the tasks behind it, so the wave stops there.
// The cost is O(V'+E') for the V' tasks it blocks.
func (q *Queue) blockWave(start, root int32) {
	wave := append(q.walk[:0], start)
	for i := 0; i < len(wave); i++ {
		for _, w := range q.arena.ints(q.nodes.at(wave[i]).dependents) {
			if q.nodes.at(w).state == pending {
				q.move(w, blocked, root, &Event{Kind: EventBlocked})
				wave = append(wave, w)
			}
		}
	}
	q.walk = wave[:0]
}
