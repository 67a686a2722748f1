package core

import "slices"

// Task is one task of a batch: its name and what it waits on.
type Task struct {
	Name string
	Deps []string
}

// SubmitBatch submits many tasks at once, all or none. It refuses the whole
// batch, changing nothing, if a name is empty, a task is already submitted
// or named twice in the batch (*TaskError), or the tasks would close a cycle
// (*CycleError naming one cycle, starting at a task of the batch).
//
// The cycle check is one pass of Kahn's algorithm instead of a check per
// task: a new cycle must go through a task of the batch, so the pass covers
// only the batch and the tasks already waiting on it, transitively. Once the
// batch is known to be acyclic, the tasks are entered in the order given,
// each as [Queue.Submit] would; events of the whole batch share one Op.
//
// The cost is O(V'+E') for the batch and the tasks waiting on it, plus
// whatever the strategy needs to keep its own order (nothing for dfs).
func (q *Queue) SubmitBatch(tasks []Task) error {
	q.op++
	defer q.flush()
	names := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		if err := q.admissible(t.Name, t.Deps); err != nil {
			return q.refuse(t.Name, t.Deps, err)
		}
		if names[t.Name] {
			return q.refuse(t.Name, t.Deps, &TaskError{Task: t.Name, Err: ErrDuplicate})
		}
		names[t.Name] = true
	}

	known := q.nodes.len()
	ids := make([]int32, len(tasks))
	deps := make([][]int32, len(tasks))
	batch := make(map[int32]int, len(tasks)) // id → index in tasks
	for i, t := range tasks {
		ids[i], _ = q.intern(t.Name)
		batch[ids[i]] = i
	}
	for i, t := range tasks {
		deps[i] = slices.Clone(q.internDeps(t.Deps))
		if slices.Contains(deps[i], ids[i]) {
			q.forget(known)
			return q.refuse(t.Name, t.Deps, &CycleError{Path: []string{t.Name, t.Name}})
		}
	}
	if cycle := q.batchCycle(ids, deps, batch); cycle != nil {
		first := tasks[batch[cycle[0]]]
		err := &CycleError{Path: q.names(cycle)}
		q.forget(known)
		return q.refuse(first.Name, first.Deps, err)
	}

	s, ok := q.check.(interface{ Stateless() bool })
	stateless := ok && s.Stateless()
	for i, v := range ids {
		before := q.check.Visits()
		q.visited = q.visited[:0]
		if !stateless {
			if cycle := q.check.Insert((*graphView)(q), v, deps[i]); cycle != nil {
				panic("core: strategy " + q.cfg.Strategy + " found a cycle Kahn's pass did not")
			}
		}
		q.add(v, deps[i], q.check.Visits()-before)
	}
	return nil
}

// batchCycle runs Kahn's algorithm over the batch and the tasks waiting on
// it, transitively, with the batch's edges added; it returns a cycle (first
// and last a task of the batch) or nil.
func (q *Queue) batchCycle(ids []int32, deps [][]int32, batch map[int32]int) []int32 {
	waiters := make(map[int32][]int32) // batch edges, reversed
	for i, v := range ids {
		for _, w := range deps[i] {
			waiters[w] = append(waiters[w], v)
		}
	}
	depsOf := func(x int32) []int32 {
		if i, ok := batch[x]; ok {
			return deps[i]
		}
		return q.arena.ints(q.nodes.at(x).deps)
	}
	forEachWaiter := func(x int32, f func(int32)) {
		for _, y := range q.arena.ints(q.nodes.at(x).dependents) {
			f(y)
		}
		for _, y := range waiters[x] {
			f(y)
		}
	}

	// The region: the batch and everything waiting on it, transitively.
	q.newWalk()
	region := append(q.walk[:0], ids...)
	for _, v := range ids {
		q.mark[v] = q.stamp
	}
	for i := 0; i < len(region); i++ {
		forEachWaiter(region[i], func(y int32) {
			if q.mark[y] != q.stamp {
				q.mark[y] = q.stamp
				region = append(region, y)
			}
		})
	}
	// count[x]: x's dependencies in the region not yet taken.
	line := q.line[:0]
	for _, x := range region {
		q.count[x] = 0
		for _, d := range depsOf(x) {
			if q.mark[d] == q.stamp {
				q.count[x]++
			}
		}
		if q.count[x] == 0 {
			line = append(line, x)
		}
	}
	for i := 0; i < len(line); i++ {
		forEachWaiter(line[i], func(y int32) {
			if q.count[y]--; q.count[y] == 0 {
				line = append(line, y)
			}
		})
	}
	q.walk, q.line = region[:0], line[:0]
	if len(line) == len(region) {
		return nil
	}

	// Every task left has a dependency left: follow them until one repeats.
	var start int32 = -1
	for _, x := range region {
		if q.count[x] > 0 {
			start = x
			break
		}
	}
	pos := map[int32]int{}
	var path []int32
	for x := start; ; {
		if at, seen := pos[x]; seen {
			path = path[at:]
			break
		}
		pos[x] = len(path)
		path = append(path, x)
		for _, d := range depsOf(x) {
			if q.mark[d] == q.stamp && q.count[d] > 0 {
				x = d
				break
			}
		}
	}
	// Rotate to start at a task of the batch; close the cycle.
	for i, x := range path {
		if _, ok := batch[x]; ok {
			path = slices.Concat(path[i:], path[:i])
			break
		}
	}
	return append(path, path[0])
}
