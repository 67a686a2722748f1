package incremental

// TwoWay keeps a topological order of the arrived nodes only, places each
// arriving node next to what constrains it, and when the order must change
// searches from both sides at once, stopping where the two searches cross.
//
// It rests on three observations about how a queue grows:
//
//   - A node nobody waits on yet cannot be on a new cycle, and may go after
//     everything: it goes at the back, with no search. That is every task
//     submitted after its dependencies (a chain in order, the shards and the
//     reducer of a wide graph).
//   - A node only named so far has no deps, so it needs no place until it
//     arrives: only arrived nodes are in the order. An arriving node whose
//     deps are all unplaced cannot be on a cycle either (no path leaves an
//     unplaced node) and goes at the front: a reversed chain, where each task
//     arrives before its dependency, costs one visit per edge.
//   - Otherwise the arriving node v must go after its highest placed dep, lo,
//     and before its lowest dependent, hi. If lo comes before hi, v is put
//     just after lo, costing one visit per dep and per dependent of v.
//
// When hi comes before lo, the affected region is lb = ord(hi) … ub = ord(lo)
// and there is a cycle exactly when a dependent of v reaches a dep of v
// inside it. A forward search from the dependents of v (through the nodes
// waiting on them, staying below ub) and a backward search from the deps of
// v (through their dependencies, staying above lb) run in turn, each taking
// its nodes in order (lowest first forward, highest first backward) and the
// side that has examined fewer edges going next. When a node is seen by both,
// the path through it is the cycle. Otherwise they stop as soon as the next
// forward node comes after the next backward node: every node that must move
// has then been seen, and the region is cut there. Backward nodes after the
// cut, v, and forward nodes before the cut are put at the cut in that order,
// each set keeping its own order. The search follows the ordered two-way
// search of B. Haeupler, T. Kavitha, R. Mathew, S. Sen and R. E. Tarjan,
// "Incremental Cycle Detection, Topological Ordering, and Strong Component
// Maintenance", ACM Transactions on Algorithms 8 (2012), cf. M. A. Bender,
// J. T. Fineman, S. Gilbert and R. E. Tarjan, "A New Approach to Incremental
// Cycle Detection and Related Problems", ACM Transactions on Algorithms 12
// (2016); here it is run once for a whole arriving node, over the arrived
// nodes only. Places are labels of an order-maintenance list, so a node can
// be put anywhere in amortized O(log n).
//
// A refused Insert changes nothing: the search runs before any node is
// placed or moved, and only an accepted Insert places a node, so ids the
// caller forgets after a refusal were never placed and may be reused.
//
// Visits count the d edges of the arriving node, the u edges to its
// dependents when they are looked at, and the edges the searches examine.
// The cost of a submit is O(1) for a node nobody waits on, O(d+u) when the
// order needs no change, and O(d+u+k log k) otherwise, where k is the number
// of edges the two searches examine: the side that has examined fewer always
// goes next, so k is at most about twice what the cheaper side examines up
// to the cut. The worst case is O((V+E) log V) per submit. Once warmed up,
// Insert allocates only when g grows, and to return a cycle.
type TwoWay struct {
	order orderList // the arrived nodes, dependencies first, and the marks of a search
	stamp uint32    // the current search's forward mark; stamp+1 is its backward mark
	fwd   heap      // the forward frontier, lowest label first
	bwd   heap      // the backward frontier, highest label first (labels negated)
	seenF []int32
	seenB []int32
	run   []int32 // the nodes reorder puts at the cut, in order
	counter
}

// A search marks the nodes it reaches in order.at[u].mark: stamp for a node
// that waits on v (forward), stamp+1 for one that v waits on (backward),
// anything else for neither. Every dep of v is marked backward, whatever its
// place. A node never keeps both marks: reaching a node marked the other way
// is a cycle, and the search stops. So one parent link per node serves both
// searches: towards v along the edges it was reached by.

// Insert implements [Strategy].
func (s *TwoWay) Insert(g Graph, v int32, deps []int32) []int32 {
	s.order.grow(g.Len())
	s.visitAll(deps) // the edges of v, each examined once
	ups := g.Dependents(v)
	if len(ups) == 0 {
		// Nobody waits on v: no cycle, and v may follow everything.
		s.order.pushBack(v)
		return nil
	}
	at := s.order.at
	lo, llo := int32(-1), uint64(0)
	for _, d := range deps {
		if l := at[d].label; l > llo { // an unplaced dep has label 0
			lo, llo = d, l
		}
	}
	if lo < 0 {
		// Every dep of v is unplaced, so has no deps: no path comes back.
		s.order.pushFront(v)
		return nil
	}
	s.stamp += 2
	if s.stamp == 0 { // wrapped: old marks could alias the new ones
		for i := range at {
			at[i].mark = 0
		}
		s.stamp = 2
	}
	back := s.stamp + 1
	for _, d := range deps {
		at[d].mark, at[d].parent = back, v
	}
	hi, lhi := int32(-1), uint64(0)
	for _, u := range ups {
		s.visit(u)
		if at[u].mark == back {
			return []int32{v, u, v}
		}
		if l := at[u].label; hi < 0 || l < lhi {
			hi, lhi = u, l
		}
	}
	if llo < lhi {
		s.order.insertAfter(lo, v)
		return nil
	}
	if cycle := s.search(g, v, ups, deps, lhi, llo); cycle != nil {
		return cycle
	}
	s.reorder(v, hi)
	return nil
}

// search runs the forward and backward searches over the region [lb, ub]
// until they cross, and returns a cycle if they meet. ups are the
// dependents of v; the deps of v are marked backward already.
func (s *TwoWay) search(g Graph, v int32, ups, deps []int32, lb, ub uint64) []int32 {
	at := s.order.at
	fwd, back := s.stamp, s.stamp+1
	s.fwd, s.bwd = s.fwd[:0], s.bwd[:0]
	s.seenF, s.seenB = s.seenF[:0], s.seenB[:0]
	for _, u := range ups {
		if n := &at[u]; n.label < ub && n.mark != fwd {
			n.mark, n.parent = fwd, v
			s.fwd.push(n.label, u)
		}
	}
	for _, d := range deps {
		if l := at[d].label; l > lb {
			s.bwd.push(^l, d)
		}
	}
	// Invariant: every node that waits on a dependent of v, transitively,
	// with a label below the forward frontier's least has been taken into
	// seenF; every node a dep of v waits on, transitively, with a label above
	// the backward frontier's greatest has been taken into seenB.
	var ef, eb int
	for len(s.fwd) > 0 && len(s.bwd) > 0 && s.fwd[0].key < ^s.bwd[0].key {
		if ef <= eb {
			f := s.fwd.pop()
			s.seenF = append(s.seenF, f)
			for _, w := range g.Dependents(f) {
				s.visit(w)
				ef++
				n := &at[w]
				if n.mark == back {
					return s.cycle(v, w, f)
				}
				if n.label < ub && n.mark != fwd {
					n.mark, n.parent = fwd, f
					s.fwd.push(n.label, w)
				}
			}
		} else {
			b := s.bwd.pop()
			s.seenB = append(s.seenB, b)
			for _, w := range g.Deps(b) {
				s.visit(w)
				eb++
				n := &at[w]
				if n.mark == fwd {
					return s.cycle(v, b, w)
				}
				if n.label > lb && n.mark != back {
					n.mark, n.parent = back, b
					s.bwd.push(^n.label, w)
				}
			}
		}
	}
	return nil
}

// reorder moves the nodes the searches took across the cut: right after the
// next backward node, or right before hi if the backward search is done.
// seenF is in increasing order of label, seenB in decreasing order.
func (s *TwoWay) reorder(v, hi int32) {
	at := int32(-1)          // the run goes right after at
	cut := s.order.label(hi) // nodes below cut stay in front of it
	if len(s.bwd) > 0 {
		at = s.bwd[0].u
		cut = s.order.label(at) + 1
	}
	run := s.run[:0]
	for i := len(s.seenB) - 1; i >= 0; i-- {
		if u := s.seenB[i]; s.order.label(u) >= cut {
			run = append(run, u)
		}
	}
	run = append(run, v)
	for _, u := range s.seenF {
		if s.order.label(u) < cut {
			run = append(run, u)
		}
	}
	for _, u := range run {
		if u != v {
			s.order.remove(u)
		}
	}
	if at < 0 {
		at = s.order.at[hi].prev // -1 if hi is the head: the run goes first
	}
	s.order.insertRunAfter(at, run)
	s.run = run
}

// cycle returns v, d, …, xb, xf, …, v: the parents of backward nodes lead
// from xb back to v through a dep d, xb waits on xf, and the parents of
// forward nodes lead from xf to v.
func (s *TwoWay) cycle(v, xb, xf int32) []int32 {
	p := []int32{v}
	for x := xb; x != v; x = s.order.at[x].parent {
		p = append(p, x)
	}
	for i, j := 1, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	for x := xf; x != v; x = s.order.at[x].parent {
		p = append(p, x)
	}
	return append(p, v)
}

// Ord returns the place of u in the order the strategy keeps: dependencies
// first. A node that has not arrived has no place and reports 0, before
// every placed node, which is right since it has no deps. Places are
// renumbered as nodes are inserted, so only their comparison means anything.
// They take 62 bits: Ord assumes a 64-bit int.
func (s *TwoWay) Ord(u int32) int { return int(s.order.label(u)) }

// heap is a binary min-heap of nodes keyed by label.
type heap []heapItem

type heapItem struct {
	key uint64
	u   int32
}

func (h *heap) push(key uint64, u int32) {
	a := append(*h, heapItem{key, u})
	// Invariant: a is a heap except that a[i] may be less than its parent.
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].key <= a[i].key {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
	*h = a
}

func (h *heap) pop() int32 {
	a := *h
	top := a[0].u
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	// Invariant: a is a heap except that a[i] may be greater than a child.
	for i := 0; ; {
		m := 2*i + 1
		if m >= n {
			break
		}
		if r := m + 1; r < n && a[r].key < a[m].key {
			m = r
		}
		if a[i].key <= a[m].key {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}
