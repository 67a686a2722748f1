// Command report turns a results file of the bench suite into
// bench/RESULTS.md and its plots.
//
// Usage:
//
//	go run ./bench/report [-o RESULTS.md] [-plots DIR] [-default STRATEGY] FILE...
//
// FILE is in the Go benchmark format, as `make bench` writes it under
// bench/results: configuration lines (goos, goarch, cpu, go, commit, date)
// and then every benchmark run COUNT times, interleaved. The report reads it
// with golang.org/x/perf/benchfmt, groups it with benchproc (by .name,
// /shape, /strategy, /n and unit) and summarizes every group as benchstat
// does, with benchmath: the median and its 95% confidence interval, making
// no assumption about the distribution (benchmath.AssumeNothing).
//
// The markdown it writes (to standard output, or to -o) holds
//   - the configuration the file was measured on;
//   - for each benchmark and shape, a table of strategies × n: time per op
//     and per task, the ratio to gonum-offline at the same n, visits,
//     bytes and allocations, with a note for every combination that is
//     missing (skipped by [bench.Predict], or not in the run);
//   - the growth exponent of every strategy on every shape: the slope of
//     log(time/op), and of log(visits/op) where visits are counted and
//     nonzero, against log(n), fitted by least squares with gonum's
//     stat.LinearRegression;
//   - the goals of the benchmark issue, each met, not met, or unknown when
//     the file lacks the figures, evaluated for the default strategy
//     (incremental.Default, or -default).
//
// With -plots DIR it also writes, for each benchmark and shape, time/op and
// visits/op against n on log–log axes, one line per strategy, as
// DIR/<bench>-<shape>-ns.svg and DIR/<bench>-<shape>-visits.svg, and links
// them from the markdown (relative to the -o file).
//
// The output depends only on the input: every list is sorted (benchmarks,
// shapes and strategies in the order the file first names them, n
// ascending) and every number has a fixed format, so the report is tested
// against golden files in testdata.
package main
