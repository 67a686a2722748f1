package core

// Redrive gives a DEAD task fresh attempts: it leaves the dead-letter queue
// and is READY at the back of the line. Then every task that was BLOCKED by
// it is decided again, dependencies before dependents:
//   - if none of its dependencies is DEAD or BLOCKED any more, it becomes
//     PENDING (it cannot be READY: it waits, at least, on the redriven task);
//   - otherwise it stays BLOCKED, its reason renamed to a root that is still
//     DEAD — a dead dependency, or the root of a blocked one (Rerooted).
//
// So after a redrive no reason names a task that is not DEAD, however deep,
// and a diamond below the task is released whole.
//
// It refuses, changing nothing, an unknown task (ErrUnknown), one that is
// not DEAD (ErrNotDead) and a poisoned one (ErrPoisoned: see
// Config.PoisonAfter and [Queue.ForceRedrive]). A redrive counts towards
// the poison-pill cap.
//
// Why this order is needed: the tasks blocked by R, the redriven task, are
// reached from R through tasks also blocked by R (each took its reason from
// R or from a dependency blocked by R). A task can only be decided once each
// of its dependencies in that region is decided; a task decided earlier
// might still see a dependency blocked by R and keep a reason naming it. So
// the region is collected first, then decided in Kahn's order.
//
// The cost is O(V'+E') for the V' tasks blocked by R and their edges.
func (q *Queue) Redrive(task string) error {
	return q.redriveOne(task, false)
}

// ForceRedrive is [Queue.Redrive] for a task that needs a human: it moves a
// DEAD task whether poisoned or not, and clears its poison mark and its
// count of redrives, so that it gets Config.PoisonAfter redrives again
// before it is poisoned anew (a person looked at it; its history starts
// over). It refuses an unknown task (ErrUnknown) and one that is not DEAD
// (ErrNotDead). The cost is Redrive's.
func (q *Queue) ForceRedrive(task string) error {
	return q.redriveOne(task, true)
}

func (q *Queue) redriveOne(task string, force bool) error {
	q.op++
	defer q.flush()
	r, ok := q.lookup(task)
	if !ok {
		return &TaskError{Task: task, Err: ErrUnknown}
	}
	n := q.nodes.at(r)
	if n.state != dead {
		return &TaskError{Task: task, Err: ErrNotDead}
	}
	if q.dl[r].poisoned && !force {
		return &TaskError{Task: task, Err: ErrPoisoned}
	}
	if force {
		q.dl[r].redrives = -1 // redriveRoots counts this one: 0 after
	}
	q.roots = append(q.roots[:0], r)
	q.redriveRoots(q.roots)
	return nil
}

// redriveRoots redrives the DEAD tasks roots at once, in the order given,
// and then decides every task BLOCKED by any of them, once, after all of
// them are live again: the region of each root (the tasks blocked by it,
// reached from it through tasks also blocked by it) is collected in one
// walk marking what it reached, so a task held by several of the roots, or
// behind several of them, is reached once, and the union is decided in
// Kahn's order as Redrive's region is. A task of the region is decided when
// each of its dependencies in the region is: the roots are READY, and
// whatever is outside the region does not change in this pass, so it sees
// its dependencies as they end. The cost is O(k + V' + E') for k roots
// blocking V' tasks in all, with their edges; the edges examined are added
// to [Stats.RedriveVisits].
func (q *Queue) redriveRoots(roots []int32) {
	for _, r := range roots {
		q.nodes.at(r).attempts = 0
		n := &q.dl[r]
		n.reason, n.errText, n.fp, n.fpOK, n.poisoned = "", "", "", false, false
		n.redrives++
		q.move(r, ready, -1, &Event{Kind: EventRedriven})
	}
	region, k := q.collectRegion(roots)

	// Decide in Kahn's order: a task is decided when its count reaches 0.
	// Invariant: every task in line[:i] is decided and no longer names a
	// root of roots.
	line := q.line[:0]
	for _, w := range region[k:] {
		if q.count[w] == 0 {
			line = append(line, w)
		}
	}
	for i := 0; i < len(line); i++ {
		w := line[i]
		q.decide(w)
		for _, x := range q.arena.ints(q.nodes.at(w).dependents) {
			q.dlqVisits++
			if q.mark[x] == q.stamp {
				if q.count[x]--; q.count[x] == 0 {
					line = append(line, x)
				}
			}
		}
	}
	q.line = line[:0]
	q.walk = region[:0]
}

// collectRegion starts a walk and collects the roots, then every task
// BLOCKED by one of them, reached through each other, nearest first:
// region[:k] are the roots, region[k:] the tasks to decide, each marked,
// and count[w] is how many of w's dependencies are in region[k:]. The roots
// are marked too, and being marked is how a task's root is known to be one
// of them: a BLOCKED task's root is DEAD, never a task of the region.
func (q *Queue) collectRegion(roots []int32) (region []int32, k int) {
	q.newWalk()
	region = append(q.walk, roots...)
	for _, r := range roots {
		q.mark[r] = q.stamp
	}
	k = len(roots)
	for i := 0; i < len(region); i++ {
		for _, w := range q.arena.ints(q.nodes.at(region[i]).dependents) {
			q.dlqVisits++
			d := q.nodes.at(w)
			if d.state != blocked || q.mark[q.dl[w].root] != q.stamp {
				continue
			}
			if q.mark[w] != q.stamp {
				q.mark[w] = q.stamp
				q.count[w] = 0
				region = append(region, w)
			}
			if i >= k {
				q.count[w]++
			}
		}
	}
	return region, k
}

// decide settles a task that was blocked by a redriven root, once each of
// its dependencies is settled.
func (q *Queue) decide(w int32) {
	for _, d := range q.arena.ints(q.nodes.at(w).deps) {
		switch dn := q.nodes.at(d); dn.state {
		case dead:
			q.move(w, blocked, d, &Event{Kind: EventRerooted})
			return
		case blocked:
			q.move(w, blocked, q.dl[d].root, &Event{Kind: EventRerooted})
			return
		}
	}
	q.move(w, pending, -1, &Event{Kind: EventUnblocked})
}
