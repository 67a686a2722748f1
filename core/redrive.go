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
// It refuses, changing nothing, an unknown task (ErrUnknown) or one that is
// not DEAD (ErrNotDead).
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
	q.op++
	defer q.flush()
	r, ok := q.lookup(task)
	if !ok {
		return &TaskError{Task: task, Err: ErrUnknown}
	}
	if q.nodes[r].state != dead {
		return &TaskError{Task: task, Err: ErrNotDead}
	}
	n := &q.nodes[r]
	n.attempts, n.reason = 0, ""
	q.move(r, ready, -1, Event{Kind: EventRedriven})

	// Collect the region: the tasks blocked by r, reached through each other,
	// nearest first. count[w]: its dependencies in the region not yet decided.
	q.newWalk()
	region := append(q.walk, r)
	for i := 0; i < len(region); i++ {
		for _, w := range q.nodes[region[i]].dependents {
			d := &q.nodes[w]
			if d.state != blocked || d.root != r {
				continue
			}
			if q.mark[w] != q.stamp {
				q.mark[w] = q.stamp
				q.count[w] = 0
				region = append(region, w)
			}
			if i > 0 {
				q.count[w]++
			}
		}
	}

	// Decide in Kahn's order: a task is decided when its count reaches 0.
	// Invariant: every task in line[:i] is decided and no longer names r.
	line := q.line[:0]
	for _, w := range region[1:] {
		if q.count[w] == 0 {
			line = append(line, w)
		}
	}
	for i := 0; i < len(line); i++ {
		w := line[i]
		q.decide(w)
		for _, x := range q.nodes[w].dependents {
			if q.mark[x] == q.stamp {
				if q.count[x]--; q.count[x] == 0 {
					line = append(line, x)
				}
			}
		}
	}
	q.line = line[:0]
	q.walk = region[:0]
	return nil
}

// decide settles a task that was blocked by a redriven root, once each of
// its dependencies is settled.
func (q *Queue) decide(w int32) {
	for _, d := range q.nodes[w].deps {
		switch dn := &q.nodes[d]; dn.state {
		case dead:
			q.move(w, blocked, d, Event{Kind: EventRerooted})
			return
		case blocked:
			q.move(w, blocked, dn.root, Event{Kind: EventRerooted})
			return
		}
	}
	q.move(w, pending, -1, Event{Kind: EventUnblocked})
}
