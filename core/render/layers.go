package render

// layers assigns each node its longest-path layer: 0 for a node with no
// dependencies, else one more than its deepest dependency, so that every
// edge points one or more layers down and the drawing is as short as the
// longest chain. An edge that closes a cycle (it reaches a node still on
// the depth-first stack) is dropped from deps, so that every remaining
// dependency lies in a layer above.
//
// The walk is an iterative depth-first search, in input order, of the
// dependencies. The complexity is O(V + E).
func (g *graph) layers() []int {
	const (
		unseen = iota
		onStack
		done
	)
	n := len(g.names)
	layer := make([]int, n)
	mark := make([]uint8, n)
	type frame struct{ v, next int }
	var stack []frame
	for root := range n {
		if mark[root] != unseen {
			continue
		}
		mark[root] = onStack
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(g.deps[f.v]) {
				u := g.deps[f.v][f.next]
				switch mark[u] {
				case unseen:
					f.next++
					mark[u] = onStack
					stack = append(stack, frame{u, 0})
				case onStack: // closes a cycle: drop the edge
					d := g.deps[f.v]
					g.deps[f.v] = append(d[:f.next:f.next], d[f.next+1:]...)
				default:
					f.next++
				}
				continue
			}
			best := 0
			for _, u := range g.deps[f.v] {
				best = max(best, layer[u]+1)
			}
			layer[f.v], mark[f.v] = best, done
			stack = stack[:len(stack)-1]
		}
	}
	return layer
}
