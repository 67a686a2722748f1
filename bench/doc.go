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
// A quadratic combination predicted to take too long is skipped with its
// prediction (see [Skip]); -bench.all runs it anyway.
//
// To compare dfs, pk and twoway on chain and wide at n = 10⁴ (about two
// minutes on a 2-core machine), ten interleaved runs into
// results/cmp.txt, and benchstat's table of them, from the module's root:
//
//	make bench BENCH='^BenchmarkSubmit$$/^strategy=(dfs|pk|twoway)$$/^shape=(chain|wide)$$/^n=10000$$' COUNT=10 NAME=cmp
//	go tool benchstat -col /strategy -row /shape bench/results/cmp.txt
//
// A subset like this writes its report beside its results
// (results/cmp.md) and leaves RESULTS.md and the plots alone. Every level
// of a pattern is anchored: n=10000 alone would match 10⁵ and 10⁶ too,
// shape=chain chain-reverse. make bench-check guards the core's speed
// against a committed baseline (see the Makefile).
//
// The durable queue is measured on Postgres beside River, the Go job queue
// on Postgres, tuned as River's own benchmark tunes it and at its defaults,
// on a server with fsync on and one with it off:
//
//	BenchmarkDurable/fsync=<on|off>/impl=<dagq|river|river-defaults>/shape=<independent|random>/workers=<n>
//
// burns down 10⁴ tasks whose handler does nothing and reports tasks/s and
// the hand-out latency's p50 and p99 (see BenchmarkDurable); benchstat
// pivots it with -col /impl -row /fsync,/shape,/workers@num.
package bench
