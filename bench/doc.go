// Package bench measures what a cycle check on every submit costs: dagq's
// strategies against each other and against the graph libraries people
// would otherwise use, on the graph shapes that hurt them.
//
// The shapes (see [Shapes]) give the tasks of a graph in arrival order. The
// benchmarks in this package's tests are named
//
//	BenchmarkSubmit/strategy=<s>/shape=<shape>/n=<n>     cycle check + insert of every task
//	BenchmarkLifecycle/strategy=<s>/shape=<shape>/n=<n>  submit everything, then hand out and complete every task
//
// so that benchstat pivots them: benchstat -col /strategy -row /shape,/n@num.
// One op is the whole graph of n tasks; visits/op counts the edges the cycle
// checks examined. The peers run under the same names: gonum-offline builds a
// gonum simple.DirectedGraph and topo.Sorts it once (the cost of one offline
// O(V+E) pass), heimdalr and dominikbraun check a cycle on every edge.
//
// A combination predicted to take too long is skipped with its prediction
// (see [Predict]).
package bench
