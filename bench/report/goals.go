package main

import (
	"fmt"

	"github.com/dagq/dagq/bench"
)

// The benchmarks of the suite, as benchproc names them.
const (
	benchSubmit    = "Submit"
	benchLifecycle = "Lifecycle"
)

// baseline is the peer every strategy is compared with: gonum building its
// graph and sorting it once, offline.
const baseline = "gonum-offline"

// peers are the strategies of other libraries. They do not count visits:
// their visits/op are 0 for "not counted", not for "none".
var peers = []string{baseline, "heimdalr", "dominikbraun"}

// The goals of the benchmark issue.
const (
	// (a) The default strategy's whole lifecycle at n = goalN takes at most
	// goalRatio of gonum-offline's time, on every shape.
	goalN     = 100_000
	goalRatio = 0.5
	// (b) On goalLinearShapes the default strategy grows at most as
	// n^goalExponent and allocates at most goalAllocsPerTask per task (at
	// the largest n measured): none, but for the few allocations a graph
	// makes as its arrays grow.
	goalExponent      = 1.05
	goalAllocsPerTask = 0.01
	// (c) The default strategy submits a goalChainN-task chain at least
	// goalSpeedup times faster than each of goalSlowPeers.
	goalChainN  = 5_000
	goalSpeedup = 10_000
)

// The goals of the issue that won the core's speed back: (d) the default
// strategy's whole lifecycle takes at most speedRatio of gonum-offline's
// time on speedShapes at every n of speedNs; (e) it submits a
// goalChainN-task chain in at most submitPerTask seconds a task, with at
// most submitAllocsPerTask allocations a task.
const (
	speedRatio          = 0.25
	submitPerTask       = 250e-9
	submitAllocsPerTask = 0.05
)

var (
	speedShapes = []string{"chain", "chain-reverse", "wide", "random"}
	speedNs     = []int{100_000, 1_000_000}
)

var (
	goalLinearShapes = []string{"chain", "chain-reverse", "wide"}
	goalSlowPeers    = []string{"heimdalr", "dominikbraun"}
)

// A verdict says whether a goal is met by the figures of a results file.
type verdict int

const (
	unknown verdict = iota // the file lacks some figure the goal needs
	met
	notMet
)

func (v verdict) String() string {
	switch v {
	case met:
		return "met"
	case notMet:
		return "not met"
	default:
		return "unknown"
	}
}

// and combines the verdicts of the parts of a goal: any part not met is
// not met; else any part unknown is unknown.
func (v verdict) and(w verdict) verdict {
	switch {
	case v == notMet || w == notMet:
		return notMet
	case v == unknown || w == unknown:
		return unknown
	default:
		return met
	}
}

// check is met if ok, else not met.
func check(ok bool) verdict {
	if ok {
		return met
	}
	return notMet
}

// A goal is one goal, evaluated, with the figures it was judged on.
type goal struct {
	label, title string
	verdict      verdict
	header       []string
	// align has an 'l' or an 'r' for each column of header.
	align string
	rows  [][]string
}

// goals evaluates every goal for strategy def.
func (d *data) goals(def string) []goal {
	return []goal{d.goalFasterThanOffline(def), d.goalLinear(def), d.goalFasterThanPeers(def),
		d.goalQuarterOfOffline(def), d.goalSubmitPerTask(def)}
}

// shapeNames are the names of every shape of the suite.
func shapeNames() []string {
	var names []string
	for _, s := range bench.Shapes() {
		names = append(names, s.Name)
	}
	return names
}

func (d *data) goalFasterThanOffline(def string) goal {
	g := goal{
		label:   "a",
		title:   fmt.Sprintf("%s, whole lifecycle, n = %s, every shape: at most %s %s's time", def, thousands(goalN), ratio(goalRatio), baseline),
		verdict: met,
		header:  []string{"shape", def, baseline, "ratio", "verdict"},
		align:   "lrrrl",
	}
	for _, shape := range shapeNames() {
		row, v := d.toOffline(def, shape, goalN, goalRatio)
		g.verdict = g.verdict.and(v)
		g.rows = append(g.rows, append([]string{shape}, row...))
	}
	return g
}

// toOffline compares def's whole lifecycle on shape at n with the
// baseline's: the row [def's time, the baseline's, the ratio, the
// verdict], and whether the ratio is at most most.
func (d *data) toOffline(def, shape string, n int, most float64) ([]string, verdict) {
	ours, okOurs := d.median(cell{benchLifecycle, shape, def, n}, unitTime)
	theirs, okTheirs := d.median(cell{benchLifecycle, shape, baseline, n}, unitTime)
	row := []string{orDash(okOurs, seconds(ours)), orDash(okTheirs, seconds(theirs)), "—"}
	v := unknown
	if okOurs && okTheirs && theirs > 0 {
		r := ours / theirs
		v = check(r <= most)
		row[2] = ratio(r)
	}
	return append(row, v.String()), v
}

func (d *data) goalLinear(def string) goal {
	g := goal{
		label: "b",
		title: fmt.Sprintf("%s on %s: growth exponent at most %.2f and at most %g allocations a task",
			def, list(goalLinearShapes), goalExponent, goalAllocsPerTask),
		verdict: met,
		header:  []string{"benchmark", "shape", "exponent", "n fitted", "allocs/task at the largest n", "verdict"},
		align:   "llrrrl",
	}
	for _, b := range []string{benchSubmit, benchLifecycle} {
		for _, shape := range goalLinearShapes {
			row := []string{b, shape}
			fit, okFit := d.growthOf(b, shape, def, unitTime)
			if okFit {
				row = append(row, fmt.Sprintf("%.2f", fit.exponent), power(fit.lo)+"–"+power(fit.hi))
			} else {
				row = append(row, "—", "—")
			}
			v := unknown
			if okFit {
				v = check(fit.exponent <= goalExponent)
			}
			n, allocs, okAllocs := d.largest(b, shape, def, unitAllocs)
			if okAllocs {
				perTask := allocs / float64(n)
				row = append(row, sig(perTask)+" (n = "+power(n)+")")
				v = v.and(check(perTask <= goalAllocsPerTask))
			} else {
				row = append(row, "—")
				v = v.and(unknown)
			}
			g.verdict = g.verdict.and(v)
			g.rows = append(g.rows, append(row, v.String()))
		}
	}
	return g
}

func (d *data) goalFasterThanPeers(def string) goal {
	g := goal{
		label:   "c",
		title:   fmt.Sprintf("%s submits a %s-task chain at least %s faster than %s", def, thousands(goalChainN), thousands(goalSpeedup)+"×", list(goalSlowPeers)),
		verdict: met,
		header:  []string{"peer", "peer's time", def, "speed-up", "verdict"},
		align:   "lrrrl",
	}
	ours, okOurs := d.median(cell{benchSubmit, "chain", def, goalChainN}, unitTime)
	for _, peer := range goalSlowPeers {
		theirs, okTheirs := d.median(cell{benchSubmit, "chain", peer, goalChainN}, unitTime)
		row := []string{peer, orDash(okTheirs, seconds(theirs)), orDash(okOurs, seconds(ours))}
		v := unknown
		if okOurs && okTheirs && ours > 0 {
			r := theirs / ours
			v = check(r >= goalSpeedup)
			row = append(row, ratio(r))
		} else {
			row = append(row, "—")
		}
		g.verdict = g.verdict.and(v)
		g.rows = append(g.rows, append(row, v.String()))
	}
	return g
}

// largest returns the median of unit at the largest n that strategy was
// measured at on bench and shape.
func (d *data) largest(bench, shape, strategy, unit string) (n int, v float64, ok bool) {
	for _, m := range d.ns {
		if x, found := d.median(cell{bench, shape, strategy, m}, unit); found {
			n, v, ok = m, x, true
		}
	}
	return n, v, ok
}

// orDash returns s if ok, else "—".
func orDash(ok bool, s string) string {
	if ok {
		return s
	}
	return "—"
}

// list joins words as "a, b and c".
func list(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	s := words[0]
	for _, w := range words[1 : len(words)-1] {
		s += ", " + w
	}
	return s + " and " + words[len(words)-1]
}

func (d *data) goalQuarterOfOffline(def string) goal {
	g := goal{
		label: "d",
		title: fmt.Sprintf("%s, whole lifecycle, on %s at n = %s: at most %s %s's time",
			def, list(speedShapes), list([]string{power(speedNs[0]), power(speedNs[1])}), ratio(speedRatio), baseline),
		verdict: met,
		header:  []string{"shape", "n", def, baseline, "ratio", "verdict"},
		align:   "lrrrrl",
	}
	for _, shape := range speedShapes {
		for _, n := range speedNs {
			row, v := d.toOffline(def, shape, n, speedRatio)
			g.verdict = g.verdict.and(v)
			g.rows = append(g.rows, append([]string{shape, power(n)}, row...))
		}
	}
	return g
}

func (d *data) goalSubmitPerTask(def string) goal {
	g := goal{
		label: "e",
		title: fmt.Sprintf("%s submits a %s-task chain in at most %s a task, with at most %g allocations a task",
			def, thousands(goalChainN), seconds(submitPerTask), submitAllocsPerTask),
		verdict: met,
		header:  []string{"figure", "a task", "goal", "verdict"},
		align:   "lrrl",
	}
	c := cell{benchSubmit, "chain", def, goalChainN}
	for _, f := range []struct {
		name, unit string
		most       float64
		format     func(float64) string
	}{
		{"time", unitTime, submitPerTask, seconds},
		{"allocations", unitAllocs, submitAllocsPerTask, sig},
	} {
		x, ok := d.median(c, f.unit)
		v := unknown
		row := []string{f.name, "—", f.format(f.most)}
		if ok {
			perTask := x / float64(goalChainN)
			row[1] = f.format(perTask)
			v = check(perTask <= f.most)
		}
		g.verdict = g.verdict.and(v)
		g.rows = append(g.rows, append(row, v.String()))
	}
	return g
}
