// Check compares two files of benchmark results, a baseline's and a
// candidate's, and fails on a significant slowdown: for `make bench-check`.
//
// Usage:
//
//	go run ./bench/check [-threshold 10] [-instr-threshold 10] [-alpha 0.05] [-smoke] OLD NEW
//
// For every benchmark in OLD it compares the samples of sec/op and of
// allocs/op with NEW's: a metric is slower when its median grew by more
// than -threshold percent and the Mann–Whitney U test (benchstat's, from
// golang.org/x/perf/benchmath) says the two samples differ at -alpha. It
// prints one line a benchmark and metric, and exits 1 if any is slower.
// Counts of instructions (unit instructions/op, from callgrind) are
// compared by their medians alone: slower when grown by more than
// -instr-threshold percent (10).
// With -smoke it reports slowdowns without failing, for CI, whose samples
// are too few and too noisy to decide: it fails only when the files cannot
// be read or a benchmark of OLD is missing from NEW.
//
// The comparison is only as good as the samples: run both sides
// interleaved, on one machine, 10 times or more (as make bench-check
// does), so that both see the same load.
package main
