package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// durableBench is the base name of the durable queue's benchmark,
// BenchmarkDurable/impl=…/shape=…/workers=…; its results get a section of
// their own, and the cycle-check tables leave them out.
const durableBench = "Durable"

// The units of BenchmarkDurable, as benchfmt tidies them.
const (
	unitTasks = "tasks/s"
	unitP50   = "p50-handout-sec"
	unitP99   = "p99-handout-sec"
)

// A durableCell names one durable run: an implementation on a shape with
// a number of workers.
type durableCell struct {
	impl, shape string
	workers     int
}

// durableData is the BenchmarkDurable results of the files, summarized.
type durableData struct {
	// impls and shapes are in the order the files first name them, with
	// dagq first; workers ascending.
	impls, shapes []string
	workers       []int
	cells         map[durableCell]map[string]measure
}

// isDurable reports whether a result is of BenchmarkDurable.
func isDurable(res *benchfmt.Result) bool {
	return string(res.Name.Base()) == durableBench
}

// readDurable reads the BenchmarkDurable results of the files at paths and
// summarizes each cell as the other tables do (benchmath, assuming nothing
// about the distribution); nil when there are none.
func readDurable(paths []string) (*durableData, error) {
	var parser benchproc.ProjectionParser
	implProj, err := parser.Parse("/impl", nil)
	if err != nil {
		return nil, err
	}
	shapeProj, err := parser.Parse("/shape", nil)
	if err != nil {
		return nil, err
	}
	workersProj, err := parser.Parse("/workers@num", nil)
	if err != nil {
		return nil, err
	}
	unitProj, unitField, err := parser.ParseWithUnit("", nil)
	if err != nil {
		return nil, err
	}
	d := &durableData{cells: map[durableCell]map[string]measure{}}
	samples := map[durableCell]map[string][]float64{}
	files := benchfmt.Files{Paths: paths}
	for files.Scan() {
		res, ok := files.Result().(*benchfmt.Result)
		if !ok || !isDurable(res) {
			continue
		}
		workers, err := strconv.Atoi(workersProj.Project(res).StringValues())
		c := durableCell{implProj.Project(res).StringValues(), shapeProj.Project(res).StringValues(), workers}
		if err != nil || c.impl == "" || c.shape == "" {
			continue
		}
		if !slices.Contains(d.impls, c.impl) {
			d.impls = append(d.impls, c.impl)
		}
		if !slices.Contains(d.shapes, c.shape) {
			d.shapes = append(d.shapes, c.shape)
		}
		if !slices.Contains(d.workers, c.workers) {
			d.workers = append(d.workers, c.workers)
		}
		if samples[c] == nil {
			samples[c] = map[string][]float64{}
		}
		units := unitProj.ProjectValues(res)
		for i, v := range res.Values {
			u := units[i].Get(unitField)
			samples[c][u] = append(samples[c][u], v.Value)
		}
	}
	if err := files.Err(); err != nil {
		return nil, err
	}
	if len(samples) == 0 {
		return nil, nil
	}
	slices.Sort(d.workers)
	slices.SortStableFunc(d.impls, func(a, b string) int {
		return map[bool]int{true: 0, false: 1}[a == "dagq"] - map[bool]int{true: 0, false: 1}[b == "dagq"]
	})
	thresholds := benchmath.DefaultThresholds
	for c, units := range samples {
		d.cells[c] = map[string]measure{}
		for u, vs := range units {
			d.cells[c][u] = measure{
				Summary: benchmath.AssumeNothing.Summary(benchmath.NewSample(vs, &thresholds), confidence),
				samples: len(vs),
			}
		}
	}
	return d, nil
}

// median returns the median of unit in c, if measured.
func (d *durableData) median(c durableCell, unit string) (float64, bool) {
	m, ok := d.cells[c][unit]
	return m.Center, ok
}

// writeMarkdown writes the durable section: a table per shape, then the
// goals, and returns the error of the first write that failed.
func (d *durableData) writeMarkdown(out io.Writer) (err error) {
	w := bufio.NewWriter(out)
	defer func() { err = w.Flush() }()
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n## Durable\n\n")
	p("BenchmarkDurable burns down 10⁴ tasks whose handler does nothing, on Postgres (internal/pgtest's\n")
	p("throwaway cluster, synchronous commits, fsync off), with dagq's durable.Worker and with River tuned\n")
	p("as its own benchmark tunes it (1 ms fetch cooldown, 5 ms poll); see bench/durable_test.go.\n\n")
	p("- tasks/s counts a task once its completion has committed; ± is the 95%% confidence interval of its median.\n")
	p("- Hand-out latency is from the start of a submit to the start of its handler, for tasks submitted one at a time\n")
	p("  to idle workers after the burn-down: the wake-up of an idle worker (each run's p50 and p99; the median of the runs).\n")
	p("- The machine is shared and small: read the ± before a ratio; benchstat -col /impl -row /shape,/workers@num\n")
	p("  says which differences are significant.\n")
	p("- ÷ river is dagq's tasks/s over River's with as many workers: above 1 is faster.\n")
	for _, shape := range d.shapes {
		p("\n### Durable · %s\n\n", shape)
		header := []string{"workers", "impl", "tasks/s", "±", "p50 hand-out", "p99 hand-out", "÷ river", "runs"}
		rows := [][]string{}
		for _, n := range d.workers {
			for _, impl := range d.impls {
				c := durableCell{impl, shape, n}
				m, ok := d.cells[c][unitTasks]
				if !ok {
					continue
				}
				vs := "—"
				if r, ok := d.median(durableCell{"river", shape, n}, unitTasks); ok && r > 0 {
					vs = ratio(m.Center / r)
				}
				p50, _ := d.median(c, unitP50)
				p99, _ := d.median(c, unitP99)
				rows = append(rows, []string{thousands(int64(n)), impl, count(m.Center), m.PctRangeString(),
					seconds(p50), seconds(p99), vs, strconv.Itoa(m.samples)})
			}
		}
		table(w, header, "rlrlrrrr", rows)
	}

	p("\n### Durable goals\n\n")
	header := []string{"goal", "workers", "dagq", "against", "ratio", "verdict"}
	var rows [][]string
	for _, n := range d.workers {
		dq, ok1 := d.median(durableCell{"dagq", "independent", n}, unitTasks)
		rv, ok2 := d.median(durableCell{"river", "independent", n}, unitTasks)
		if ok1 && ok2 {
			rows = append(rows, []string{"dagq ≥ River, independent", thousands(int64(n)), count(dq), count(rv) + " (River)", ratio(dq / rv), verdictOf(dq >= rv).String()})
		}
	}
	for _, n := range d.workers {
		rd, ok1 := d.median(durableCell{"dagq", "random", n}, unitTasks)
		in, ok2 := d.median(durableCell{"dagq", "independent", n}, unitTasks)
		if ok1 && ok2 {
			rows = append(rows, []string{"random ≥ 0.5× independent", thousands(int64(n)), count(rd), count(in) + " (independent)", ratio(rd / in), verdictOf(rd >= in/2).String()})
		}
	}
	table(w, header, "lrrrrl", rows)
	return nil
}

// verdictOf is met or notMet.
func verdictOf(ok bool) verdict {
	if ok {
		return met
	}
	return notMet
}
