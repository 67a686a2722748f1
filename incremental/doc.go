// Package incremental holds the cycle-check strategies of dagq: each decides,
// for a task arriving with its dependencies, whether the new edges would close
// a cycle, and counts what that decision cost.
//
// The graph is a read-only view over dense int32 ids (see [Graph]). An edge
// v→w means v waits on w. The graph is acyclic before every call, so a new
// cycle must pass through the arriving node v: it exists only if some
// dependency of v already waits on v, transitively, which needs v to have been
// named as a dependency before it arrived.
//
// Cost is counted in visits: one visit is one edge examined. Every node a
// search enters is reached through an edge (the arriving node's own dependency
// edges included), so visits count the nodes entered plus the edges that led
// to nodes already seen.
//
// The strategies:
//
//   - dfs, the textbook answer: from each dependency of v, a depth-first search
//     along dependency edges looking for v, with a visited mark per check. It
//     walks every transitive dependency of v, so a chain of n tasks submitted
//     in order costs n²/2 visits in all. Worst case O(V+E) per submit.
//
// Strategies are picked by name with [New]; [Names] lists them and [Default]
// names the one used when none is asked for.
package incremental
