package incremental

import (
	"fmt"
	"slices"
	"strings"
)

// Graph is a read-only view of a directed graph over the dense ids
// 0..Len()-1. Deps(v) are the nodes v waits on (edges v→w); Dependents(w) are
// the nodes that wait on w. A node may be only named so far (a dependency of
// some node that has not arrived itself): it then has no Deps.
//
// The slices returned belong to the graph and must not be modified.
type Graph interface {
	Len() int
	Deps(v int32) []int32
	Dependents(v int32) []int32
}

// A Strategy checks arriving nodes for cycles.
//
// Insert is called before the edges v→d, for every d in deps, are added to g.
// deps are distinct, exist in g and do not include v. If the edges would close
// a cycle, Insert returns it as a path v, d, …, v (every step an edge of the
// graph with the new edges added) and changes nothing observable: the same
// call is rejected again, and an order the strategy keeps stays a valid order
// of g (pk may keep a reorder made for an earlier edge of the same call). The
// caller then forgets the ids it made for the call, and only those: ids are
// appended, never removed otherwise. If the edges keep g acyclic, Insert
// returns nil and updates whatever state it keeps; the caller then adds the
// edges to g before the next call.
//
// Visits reports the edges examined by all calls so far.
type Strategy interface {
	Insert(g Graph, v int32, deps []int32) (cycle []int32)
	Visits() uint64
}

// Default is the name of the strategy used when none is asked for: twoway,
// which costs about what pk costs on chains and wide graphs and a small,
// slowly growing number of visits per submit where pk's grow with the graph
// (see the package documentation). dfs and pk stay selectable by name.
const Default = "twoway"

var registry = map[string]func() Strategy{
	"dfs":    func() Strategy { return new(DFS) },
	"pk":     func() Strategy { return new(PK) },
	"twoway": func() Strategy { return new(TwoWay) },
}

// Names lists the strategies, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// New returns a fresh strategy by name; "" means [Default].
func New(name string) (Strategy, error) {
	if name == "" {
		name = Default
	}
	mk, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("incremental: unknown strategy %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return mk(), nil
}

// Orderer is implemented by strategies that keep a topological order of the
// graph: Ord(w) < Ord(v) for every edge v→w, after every call of Insert.
// Only comparisons between places mean anything; a strategy may renumber
// them on any call.
type Orderer interface {
	Ord(v int32) int
}
