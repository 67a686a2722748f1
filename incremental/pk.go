package incremental

import (
	"cmp"
	"slices"
)

// PK keeps a topological order of the graph and repairs it edge by edge, as
// in D. J. Pearce and P. H. J. Kelly, "A Dynamic Topological Sort Algorithm
// for Directed Acyclic Graphs", ACM Journal of Experimental Algorithmics 11
// (2006). The paper's names are kept: ord, lb, ub, dfsF, dfsB, deltaF,
// deltaB, reorder.
//
// ord gives every node a distinct place, dependencies first: ord[w] < ord[v]
// for every edge v→w. For a new edge v→d the check is one comparison when
// ord[d] < ord[v] already. Otherwise only the affected region
// lb = ord[v] … ub = ord[d] is searched: dfsF walks from v through the nodes
// that wait on it, staying below ub, and finds a cycle if it reaches d (the
// path comes from its parent links); dfsB walks from d through its
// dependencies, staying above lb; reorder then hands the places of both sets,
// pooled and sorted, to deltaB first and deltaF after, each in its old order.
// The deps of one Insert are taken one edge at a time.
//
// Where a node the strategy has not placed yet goes matters as much as the
// search. Ids in [known, g.Len()), known being g.Len() at the last accepted
// Insert, are new: a node first seen as a dependency goes at the front, below
// every ord, and a new arriving task at the back, above every ord. Both are
// right at once: a name with no deps may precede everything, a task nobody
// waits on may follow everything. So a chain in order (each task after its
// dependency), a reversed chain (each task before its dependency: the
// dependency is new and goes in front of the task, which was itself put in
// front when it was named) and a wide graph agree with ord edge by edge and
// cost one visit per edge. The usual "append at max+1" puts a new dependency
// behind the task waiting on it; on a reversed chain every edge then
// disagrees and dfsF walks the whole chain so far, n²/2 visits in all.
//
// A refused Insert changes nothing the caller can see: the places given to
// new ids are dropped (the caller forgets those ids and may reuse them), and
// the front and back are restored. Edges of the same call accepted before
// the cycle was found may already have reordered some nodes; reorder only
// ever yields an order of the graph plus the edges taken so far, which is
// also an order of the graph without them, so ord stays topological and the
// same Insert is refused again (dfsF finds every cycle through v).
//
// The cost of an edge is O(1) when ord agrees, else O(δ log δ) where δ is the
// number of edges of the affected region (deltaF, deltaB and their edges),
// the sort of reorder taking the log; the worst case is O((V+E) log V) per
// edge. Once warmed up, Insert allocates only when g grows, and to return a
// cycle.
type PK struct {
	ord    []int    // ord[u]: the place of u; ord[w] < ord[u] for every edge u→w
	first  int      // every ord lies in [first, last]
	last   int      //
	known  int      // ids below known are placed
	mark   []uint32 // mark[u] == stamp: u was entered by the current search
	parent []int32  // parent[u]: the node dfsF came from to enter u
	stamp  uint32
	stack  []int32
	deltaF []placed
	deltaB []placed
	pool   []int
	counter
}

// placed is a node with its place, for sorting by place.
type placed struct {
	ord int
	u   int32
}

func byOrd(a, b placed) int { return cmp.Compare(a.ord, b.ord) }

// Insert implements [Strategy].
func (s *PK) Insert(g Graph, v int32, deps []int32) []int32 {
	n := g.Len()
	if len(s.ord) < n {
		s.ord = append(s.ord, make([]int, n-len(s.ord))...)
		s.mark = append(s.mark, make([]uint32, n-len(s.mark))...)
		s.parent = append(s.parent, make([]int32, n-len(s.parent))...)
	}
	first, last := s.first, s.last
	for u := s.known; u < n; u++ {
		if int32(u) == v {
			s.last++
			s.ord[u] = s.last
		} else {
			s.first--
			s.ord[u] = s.first
		}
	}
	for _, d := range deps {
		s.visit(d)
		lb, ub := s.ord[v], s.ord[d]
		if ub < lb {
			continue // ord agrees with the edge v→d
		}
		// Discovery.
		s.newSearch()
		if u, found := s.dfsF(g, v, ub); found {
			s.first, s.last = first, last
			return s.path(v, d, u)
		}
		s.dfsB(g, d, lb)
		// Reassignment.
		s.reorder()
	}
	s.known = n
	return nil
}

// newSearch starts a search: marks of earlier searches no longer count.
func (s *PK) newSearch() {
	s.stamp++
	if s.stamp == 0 {
		clear(s.mark)
		s.stamp = 1
	}
}

// dfsF collects into deltaF the nodes that wait on v, transitively, with
// ord below ub. It reports the node u through which the node at ub (the new
// edge's dependency) waits on v, if there is one: that is a cycle.
func (s *PK) dfsF(g Graph, v int32, ub int) (u int32, found bool) {
	s.deltaF = append(s.deltaF[:0], placed{s.ord[v], v})
	s.mark[v] = s.stamp
	stack := append(s.stack[:0], v)
	// Invariant: every node on the stack is marked and in deltaF, and its
	// parent links lead back to v along edges of the graph.
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range g.Dependents(u) {
			s.visit(w)
			o := s.ord[w]
			if o == ub {
				s.stack = stack
				return u, true
			}
			if o > ub || s.mark[w] == s.stamp {
				continue
			}
			s.mark[w] = s.stamp
			s.parent[w] = u
			s.deltaF = append(s.deltaF, placed{o, w})
			stack = append(stack, w)
		}
	}
	s.stack = stack
	return 0, false
}

// dfsB collects into deltaB d and the nodes d waits on, transitively, with
// ord above lb.
func (s *PK) dfsB(g Graph, d int32, lb int) {
	s.deltaB = append(s.deltaB[:0], placed{s.ord[d], d})
	s.mark[d] = s.stamp
	stack := append(s.stack[:0], d)
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range g.Deps(u) {
			s.visit(w)
			o := s.ord[w]
			if o < lb || s.mark[w] == s.stamp {
				continue
			}
			s.mark[w] = s.stamp
			s.deltaB = append(s.deltaB, placed{o, w})
			stack = append(stack, w)
		}
	}
	s.stack = stack
}

// reorder gives the places of deltaB and deltaF, pooled and sorted, to
// deltaB first and deltaF after, each set keeping its own order: everything
// d waits on now comes before everything that waits on v.
func (s *PK) reorder() {
	slices.SortFunc(s.deltaB, byOrd)
	slices.SortFunc(s.deltaF, byOrd)
	pool := s.pool[:0]
	for _, p := range s.deltaB {
		pool = append(pool, p.ord)
	}
	for _, p := range s.deltaF {
		pool = append(pool, p.ord)
	}
	slices.Sort(pool)
	for i, p := range s.deltaB {
		s.ord[p.u] = pool[i]
	}
	for i, p := range s.deltaF {
		s.ord[p.u] = pool[len(s.deltaB)+i]
	}
	s.pool = pool
}

// path returns the cycle v, d, u, …, v: v waits on d by the new edge, d on u,
// and u on v through the parent links of dfsF.
func (s *PK) path(v, d, u int32) []int32 {
	p := []int32{v, d}
	for x := u; x != v; x = s.parent[x] {
		p = append(p, x)
	}
	return append(p, v)
}

// Ord returns the place of u in the order the strategy keeps: dependencies
// first. It is defined for the ids of the graph passed to the last accepted
// Insert.
func (s *PK) Ord(u int32) int { return s.ord[u] }
