package incremental

// DFS is the textbook per-submit check: from each dependency of the arriving
// node v, a depth-first search along dependency edges looking for v.
//
// It keeps no order between calls, only a visited mark per node stamped with
// the number of the check, so marks never need clearing. A check walks every
// transitive dependency of v that is reachable before v is found: O(V+E) per
// submit in the worst case, and n²/2 visits in all for a chain of n tasks
// submitted in order. It is the baseline the other strategies are measured
// against.
type DFS struct {
	mark   []uint32 // mark[u] == stamp: u was entered in the current check
	parent []int32  // parent[u]: the node whose edge led to u, for the path
	stack  []int32
	stamp  uint32
	counter
}

// Insert implements [Strategy].
func (s *DFS) Insert(g Graph, v int32, deps []int32) []int32 {
	n := g.Len()
	if len(s.mark) < n {
		s.mark = append(s.mark, make([]uint32, n-len(s.mark))...)
		s.parent = append(s.parent, make([]int32, n-len(s.parent))...)
	}
	s.stamp++
	if s.stamp == 0 { // wrapped: old marks could alias the new stamp
		clear(s.mark)
		s.stamp = 1
	}
	// Invariant: every node on the stack is marked, and parent leads from it
	// back to v through edges of the graph plus the new edges.
	stack := s.stack[:0]
	for _, d := range deps {
		s.visit(d)
		if s.mark[d] == s.stamp {
			continue
		}
		s.mark[d] = s.stamp
		s.parent[d] = v
		stack = append(stack, d)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range g.Deps(u) {
				s.visit(w)
				if w == v {
					s.stack = stack
					return s.path(v, u)
				}
				if s.mark[w] == s.stamp {
					continue
				}
				s.mark[w] = s.stamp
				s.parent[w] = u
				stack = append(stack, w)
			}
		}
	}
	s.stack = stack
	return nil
}

// path returns v, …, u, v following parent links back from u.
func (s *DFS) path(v, u int32) []int32 {
	var rev []int32
	for x := u; x != v; x = s.parent[x] {
		rev = append(rev, x)
	}
	p := make([]int32, 0, len(rev)+2)
	p = append(p, v)
	for i := len(rev) - 1; i >= 0; i-- {
		p = append(p, rev[i])
	}
	return append(p, v)
}

// Stateless reports that DFS keeps nothing between calls: a caller that
// already knows an insert keeps the graph acyclic (a batch checked as a
// whole) need not call Insert at all.
func (s *DFS) Stateless() bool { return true }
