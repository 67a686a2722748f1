package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// The units the suite reports, as benchfmt tidies them: ns/op becomes
// sec/op, with its values in seconds.
const (
	unitTime   = "sec/op"
	unitVisits = "visits/op"
	unitBytes  = "B/op"
	unitAllocs = "allocs/op"
)

// confidence is the level of every confidence interval, as in benchstat.
const confidence = 0.95

// A cell names one benchmark: a strategy on a shape at one n.
type cell struct {
	bench, shape, strategy string
	n                      int
}

// A measure is the summary of one unit of one cell.
type measure struct {
	benchmath.Summary
	// samples is how many runs the summary is over.
	samples int
}

// A configValue is a file configuration key with the distinct values the
// file gives it, in the order first seen.
type configValue struct {
	key    string
	values []string
}

// data is a results file, grouped and summarized.
type data struct {
	// config holds the file configuration keys, in the order first seen.
	config []configValue
	// benches, shapes and strategies are in the order the file first names
	// them; ns is ascending.
	benches, shapes, strategies []string
	ns                          []int
	// cells maps a cell and a unit to its summary.
	cells map[cell]map[string]measure
	// warnings are about the input: syntax errors, results that are not
	// of the suite, cells that mix configurations.
	warnings []string
	// durable is BenchmarkDurable's results, nil when there are none.
	durable *durableData
}

// get returns the summary of unit in c, if the file measured it.
func (d *data) get(c cell, unit string) (measure, bool) {
	m, ok := d.cells[c][unit]
	return m, ok
}

// median returns the median of unit in c, if the file measured it.
func (d *data) median(c cell, unit string) (float64, bool) {
	m, ok := d.get(c, unit)
	return m.Center, ok
}

// nsOf returns the n measured for bench on shape by any strategy,
// ascending.
func (d *data) nsOf(bench, shape string) []int {
	var ns []int
	for _, n := range d.ns {
		for _, s := range d.strategies {
			if _, ok := d.cells[cell{bench, shape, s, n}]; ok {
				ns = append(ns, n)
				break
			}
		}
	}
	return ns
}

// hasShape reports whether bench was measured on shape at all.
func (d *data) hasShape(bench, shape string) bool {
	return len(d.nsOf(bench, shape)) > 0
}

// read reads the results files at paths and summarizes every cell. The
// report is of the cycle checks: a lifecycle with faults (every task failing
// once on the queue's clock, BenchmarkLifecycle/…/faults=once) is left out,
// for benchstat -col /faults to compare.
func read(paths []string) (*data, error) {
	filter, err := benchproc.NewFilter("-/faults:once")
	if err != nil {
		return nil, err
	}
	var parser benchproc.ProjectionParser
	parse := func(expr string) *benchproc.Projection {
		if err != nil {
			return nil
		}
		var p *benchproc.Projection
		p, err = parser.Parse(expr, filter)
		return p
	}
	benchProj := parse(".name")
	shapeProj := parse("/shape")
	strategyProj := parse("/strategy")
	nProj := parse("/n@num")
	if err != nil {
		return nil, err
	}
	unitProj, unitField, err := parser.ParseWithUnit("", filter)
	if err != nil {
		return nil, err
	}
	residueProj := parser.Residue()

	type group struct {
		bench, shape, strategy, n benchproc.Key
	}
	type sample struct {
		values   []float64
		residues map[benchproc.Key]bool
	}
	samples := map[group]map[string]*sample{}
	var benchKeys, shapeKeys, strategyKeys, nKeys []benchproc.Key
	seen := map[benchproc.Key]bool{}
	remember := func(list *[]benchproc.Key, k benchproc.Key) {
		if !seen[k] {
			seen[k] = true
			*list = append(*list, k)
		}
	}

	d := &data{cells: map[cell]map[string]measure{}}
	configAt := map[string]int{}
	files := benchfmt.Files{Paths: paths}
	for files.Scan() {
		var res *benchfmt.Result
		switch rec := files.Result().(type) {
		case *benchfmt.SyntaxError:
			d.warnings = append(d.warnings, fmt.Sprintf("%s:%d: %s", filepath.Base(rec.FileName), rec.Line, rec.Msg))
			continue
		case *benchfmt.Result:
			res = rec
		default:
			continue
		}
		for _, c := range res.Config {
			if !c.File {
				continue
			}
			i, ok := configAt[c.Key]
			if !ok {
				i = len(d.config)
				configAt[c.Key] = i
				d.config = append(d.config, configValue{key: c.Key})
			}
			if v := string(c.Value); !slices.Contains(d.config[i].values, v) {
				d.config[i].values = append(d.config[i].values, v)
			}
		}
		if isDurable(res) {
			continue // readDurable's
		}
		if ok, _ := filter.Apply(res); !ok {
			continue
		}
		g := group{benchProj.Project(res), shapeProj.Project(res), strategyProj.Project(res), nProj.Project(res)}
		if g.shape.StringValues() == "" || g.strategy.StringValues() == "" || g.n.StringValues() == "" {
			file, line := res.Pos()
			d.warnings = append(d.warnings, fmt.Sprintf("%s:%d: %s is not named …/strategy=…/shape=…/n=…; left out", filepath.Base(file), line, res.Name))
			continue
		}
		remember(&benchKeys, g.bench)
		remember(&shapeKeys, g.shape)
		remember(&strategyKeys, g.strategy)
		remember(&nKeys, g.n)
		residue := residueProj.Project(res)
		units := unitProj.ProjectValues(res)
		if samples[g] == nil {
			samples[g] = map[string]*sample{}
		}
		for i, v := range res.Values {
			unit := units[i].Get(unitField)
			s := samples[g][unit]
			if s == nil {
				s = &sample{residues: map[benchproc.Key]bool{}}
				samples[g][unit] = s
			}
			s.values = append(s.values, v.Value)
			s.residues[residue] = true
		}
	}
	if err := files.Err(); err != nil {
		return nil, err
	}

	for _, list := range [][]benchproc.Key{benchKeys, shapeKeys, strategyKeys, nKeys} {
		benchproc.SortKeys(list)
	}
	d.benches = values(benchKeys)
	d.shapes = values(shapeKeys)
	d.strategies = values(strategyKeys)
	for _, k := range nKeys {
		n, err := strconv.Atoi(k.StringValues())
		if err != nil {
			return nil, fmt.Errorf("n=%s is not a whole number", k.StringValues())
		}
		d.ns = append(d.ns, n)
	}
	slices.Sort(d.ns)
	d.ns = slices.Compact(d.ns)

	groups := make([]group, 0, len(samples))
	for g := range samples {
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b group) int {
		for _, p := range [][2]benchproc.Key{{a.bench, b.bench}, {a.shape, b.shape}, {a.strategy, b.strategy}, {a.n, b.n}} {
			if p[0].Less(p[1]) {
				return -1
			}
			if p[1].Less(p[0]) {
				return +1
			}
		}
		return 0
	})
	thresholds := benchmath.DefaultThresholds
	for _, g := range groups {
		n, _ := strconv.Atoi(g.n.StringValues())
		c := cell{g.bench.StringValues(), g.shape.StringValues(), g.strategy.StringValues(), n}
		d.cells[c] = map[string]measure{}
		for _, unit := range sortedKeys(samples[g]) {
			s := samples[g][unit]
			sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(s.values, &thresholds), confidence)
			d.cells[c][unit] = measure{Summary: sum, samples: len(s.values)}
			if len(s.residues) > 1 {
				var keys []benchproc.Key
				for k := range s.residues {
					keys = append(keys, k)
				}
				var names []string
				for _, f := range benchproc.NonSingularFields(keys) {
					names = append(names, f.Name)
				}
				slices.Sort(names)
				d.warnings = append(d.warnings, fmt.Sprintf("%s/strategy=%s/shape=%s/n=%d %s: runs differ in %v", c.bench, c.strategy, c.shape, c.n, unit, names))
			}
		}
	}
	return d, nil
}

// values returns the value of every single-field key.
func values(keys []benchproc.Key) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.StringValues()
	}
	return out
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
