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
// to nodes already seen. Every strategy counts the arriving node's own edges,
// one visit each, so a submit with d deps costs at least d visits.
//
// The strategies:
//
//   - dfs, the textbook answer: from each dependency of v, a depth-first search
//     along dependency edges looking for v, with a visited mark per check. It
//     walks every transitive dependency of v, so a chain of n tasks submitted
//     in order costs n²/2 visits in all. Worst case O(V+E) per submit.
//
//   - pk, Pearce and Kelly's dynamic topological order ([PK]): it keeps ord, a
//     place for every node, and checks each new edge against it in O(1); only
//     an edge against ord is searched, forward and backward within the
//     affected region of ord, which is then reordered. A name first seen as a
//     dependency goes at the front and a new task at the back, so chains in
//     either direction and wide graphs cost one visit per edge. Worst case
//     O((V+E) log V) per edge; on shuffled arrivals the affected regions grow with
//     the graph (three random dependencies a task: about 31 visits a submit at
//     10^4 tasks, 68 at 10^5; a shuffled lattice: about 780 and 7,600).
//
//   - twoway, the default ([TwoWay]): it orders only the tasks that have
//     arrived. A task nobody waits on goes at the back with no search, one
//     whose dependencies have not arrived goes at the front, and one that fits
//     between its highest dependency and its lowest dependent goes there:
//     O(d+u) for d deps and u dependents. Otherwise a forward and a backward
//     search run in turn, each in order of place, and stop where they cross,
//     so the cost follows the cheaper side: about 5.8 visits a submit on the
//     shuffled random graphs at 10^5 tasks (3 of them its own edges) and 15
//     on the shuffled lattice.
//     Worst case O((V+E) log V) per submit.
//
// Strategies are picked by name with [New]; [Names] lists them and [Default]
// names the one used when none is asked for. A strategy that keeps an order
// implements [Orderer], which the conformance suite in package strategytest
// checks after every call.
package incremental
