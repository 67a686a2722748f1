// Package strategytest is the conformance suite every cycle-check strategy
// of package incremental passes: [Exercise] drives a strategy through every
// small graph in every arrival order and through random large ones, checking
// each decision against an offline oracle (gonum's topo.Sort). [Graph] is
// the small graph it drives them with, interning names and forgetting the
// ids of a refused submit the way package core does.
package strategytest
