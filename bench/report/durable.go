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
// BenchmarkDurable/impl=…/shape=…/workers=…, and enqueueBench that of its
// enqueue, BenchmarkDurableEnqueue/impl=…/shape=…/stats=…; their results
// get a section of their own, and the cycle-check tables leave them out.
const (
	durableBench = "Durable"
	enqueueBench = "DurableEnqueue"
)

// enqueueGoal is the goal of the durable queue's enqueue: a 10⁴-task
// random DAG in one call at this many tasks a second, on a fresh database
// and on analyzed tables.
const enqueueGoal = 20_000

// The units of BenchmarkDurable, as benchfmt tidies them.
const (
	unitTasks = "tasks/s"
	unitP50   = "p50-handout-sec"
	unitP99   = "p99-handout-sec"
)

// The implementations BenchmarkDurable compares: dagq, River tuned as its
// own benchmark tunes it, River at its defaults.
const (
	implDagq          = "dagq"
	implRiver         = "river"
	implRiverDefaults = "river-defaults"
)

// A durableCell names one durable run: an implementation on a shape with
// a number of workers, on a server with fsync on or off.
type durableCell struct {
	fsync, impl, shape string
	workers            int
}

// durableData is the BenchmarkDurable results of the files, summarized.
type durableData struct {
	// fsyncs (on before off), impls (dagq first) and shapes are in the order
	// the files first name them; workers ascending.
	fsyncs, impls, shapes []string
	workers               []int
	cells                 map[durableCell]map[string]measure
	// enqueue is BenchmarkDurableEnqueue's tasks/s, by cell, its cells in
	// the order the files first name them (dagq first).
	enqueue      map[enqueueCell]measure
	enqueueCells []enqueueCell
}

// An enqueueCell names one enqueue run: an implementation submitting a
// shape, on a fresh database or on analyzed tables (stats).
type enqueueCell struct{ impl, shape, stats string }

// isDurable reports whether a result is of BenchmarkDurable or
// BenchmarkDurableEnqueue.
func isDurable(res *benchfmt.Result) bool {
	base := string(res.Name.Base())
	return base == durableBench || base == enqueueBench
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
	fsyncProj, err := parser.Parse("/fsync", nil)
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
	statsProj, err := parser.Parse("/stats", nil)
	if err != nil {
		return nil, err
	}
	d := &durableData{cells: map[durableCell]map[string]measure{}, enqueue: map[enqueueCell]measure{}}
	samples := map[durableCell]map[string][]float64{}
	enqueued := map[enqueueCell][]float64{}
	files := benchfmt.Files{Paths: paths}
	for files.Scan() {
		res, ok := files.Result().(*benchfmt.Result)
		if !ok || !isDurable(res) {
			continue
		}
		if string(res.Name.Base()) == enqueueBench {
			c := enqueueCell{implProj.Project(res).StringValues(), shapeProj.Project(res).StringValues(), statsProj.Project(res).StringValues()}
			units := unitProj.ProjectValues(res)
			for i, v := range res.Values {
				if units[i].Get(unitField) == unitTasks && c.impl != "" {
					if _, ok := enqueued[c]; !ok {
						d.enqueueCells = append(d.enqueueCells, c)
					}
					enqueued[c] = append(enqueued[c], v.Value)
				}
			}
			continue
		}
		workers, err := strconv.Atoi(workersProj.Project(res).StringValues())
		c := durableCell{fsyncProj.Project(res).StringValues(), implProj.Project(res).StringValues(), shapeProj.Project(res).StringValues(), workers}
		if err != nil || c.impl == "" || c.shape == "" {
			continue
		}
		if c.fsync == "" {
			c.fsync = "off" // the results from before the fsync level: the cluster ran without it
		}
		if !slices.Contains(d.fsyncs, c.fsync) {
			d.fsyncs = append(d.fsyncs, c.fsync)
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
	if len(samples) == 0 && len(enqueued) == 0 {
		return nil, nil
	}
	slices.Sort(d.workers)
	first := func(x string) func(a, b string) int {
		return func(a, b string) int {
			return map[bool]int{true: 0, false: 1}[a == x] - map[bool]int{true: 0, false: 1}[b == x]
		}
	}
	slices.SortStableFunc(d.impls, first(implDagq))
	slices.SortStableFunc(d.fsyncs, first("on"))
	slices.SortStableFunc(d.enqueueCells, func(a, b enqueueCell) int { return first(implDagq)(a.impl, b.impl) })
	thresholds := benchmath.DefaultThresholds
	for c, vs := range enqueued {
		d.enqueue[c] = measure{
			Summary: benchmath.AssumeNothing.Summary(benchmath.NewSample(vs, &thresholds), confidence),
			samples: len(vs),
		}
	}
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

// writeMarkdown writes the durable section: a table per shape and fsync
// setting, then the goals, and returns the error of the first write that
// failed.
func (d *durableData) writeMarkdown(out io.Writer) (err error) {
	w := bufio.NewWriter(out)
	defer func() { err = w.Flush() }()
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n## Durable\n\n")
	p("BenchmarkDurable burns down 10⁴ tasks whose handler does nothing, on Postgres (internal/pgtest's\n")
	p("throwaway clusters: fsync on, as a production server runs, and fsync off; synchronous commits on both),\n")
	p("with dagq's durable.Worker, with River tuned as its own benchmark tunes it (river: 1 ms fetch cooldown,\n")
	p("5 ms poll) and with River at its defaults (river-defaults: 100 ms cooldown, 1 s poll; it burns down\n")
	p("about 4 s worth of jobs, 40 a worker, up to 10⁴); see bench/durable_test.go.\n\n")
	p("- tasks/s counts a task once its completion has committed; ± is the 95%% confidence interval of its median.\n")
	p("- Hand-out latency is from the start of a submit to the start of its handler, for tasks submitted one at a time\n")
	p("  to idle workers after the burn-down: the wake-up of an idle worker (each run's p50 and p99; the median of the runs).\n")
	p("- The machine is shared and small: read the ± before a ratio; benchstat -col /impl -row /fsync,/shape,/workers@num\n")
	p("  says which differences are significant.\n")
	p("- ÷ river and ÷ defaults are dagq's tasks/s over River's, tuned and at its defaults, with as many workers on\n")
	p("  the same server: above 1 is faster.\n")
	for _, shape := range d.shapes {
		for _, fsync := range d.fsyncs {
			header := []string{"workers", "impl", "tasks/s", "±", "p50 hand-out", "p99 hand-out", "÷ river", "÷ defaults", "runs"}
			rows := [][]string{}
			for _, n := range d.workers {
				for _, impl := range d.impls {
					c := durableCell{fsync, impl, shape, n}
					m, ok := d.cells[c][unitTasks]
					if !ok {
						continue
					}
					vs := func(peer string) string {
						if r, ok := d.median(durableCell{fsync, peer, shape, n}, unitTasks); ok && r > 0 {
							return ratio(m.Center / r)
						}
						return "—"
					}
					p50, _ := d.median(c, unitP50)
					p99, _ := d.median(c, unitP99)
					rows = append(rows, []string{thousands(int64(n)), impl, count(m.Center), m.PctRangeString(),
						seconds(p50), seconds(p99), vs(implRiver), vs(implRiverDefaults), strconv.Itoa(m.samples)})
				}
			}
			if len(rows) == 0 {
				continue
			}
			p("\n### Durable · %s · fsync %s\n\n", shape, fsync)
			table(w, header, "rlrlrrrrr", rows)
		}
	}

	if len(d.enqueueCells) > 0 {
		p("\n### Durable · enqueue\n\n")
		p("BenchmarkDurableEnqueue submits 10⁴ tasks in one call, committed: dagq the random DAG (up to three earlier\n")
		p("tasks each, arriving shuffled) with Queue.SubmitAll, River as many independent jobs with InsertMany; on the\n")
		p("fsync-off cluster, on a database whose tables were never analyzed (fresh) and on analyzed ones; see\n")
		p("bench/durable_enqueue_test.go. ÷ river is dagq's tasks/s over River's on the same statistics.\n\n")
		header := []string{"impl", "shape", "stats", "tasks/s", "±", "÷ river", "runs"}
		var rows [][]string
		for _, c := range d.enqueueCells {
			m := d.enqueue[c]
			vs := "—"
			for _, r := range d.enqueueCells {
				if c.impl != implRiver && r.impl == implRiver && r.stats == c.stats && d.enqueue[r].Center > 0 {
					vs = ratio(m.Center / d.enqueue[r].Center)
				}
			}
			rows = append(rows, []string{c.impl, c.shape, c.stats, count(m.Center), m.PctRangeString(), vs, strconv.Itoa(m.samples)})
		}
		table(w, header, "lllrrrr", rows)
	}

	p("\n### Durable goals\n\n")
	header := []string{"goal", "fsync", "workers", "dagq", "against", "ratio", "verdict"}
	var rows [][]string
	for _, c := range d.enqueueCells {
		if c.impl != implDagq {
			continue
		}
		m := d.enqueue[c]
		rows = append(rows, []string{fmt.Sprintf("enqueue ≥ %s tasks/s, %s, %s", thousands(enqueueGoal), c.shape, c.stats), "off", "—",
			count(m.Center), thousands(enqueueGoal) + " (goal)", ratio(m.Center / enqueueGoal), verdictOf(m.Center >= enqueueGoal).String()})
	}
	for _, fsync := range d.fsyncs {
		for _, peer := range []struct{ impl, name string }{{implRiver, "River"}, {implRiverDefaults, "River at its defaults"}} {
			for _, n := range d.workers {
				dq, ok1 := d.median(durableCell{fsync, implDagq, "independent", n}, unitTasks)
				rv, ok2 := d.median(durableCell{fsync, peer.impl, "independent", n}, unitTasks)
				if ok1 && ok2 {
					rows = append(rows, []string{"dagq ≥ " + peer.name + ", independent", fsync, thousands(int64(n)), count(dq), count(rv) + " (" + peer.impl + ")", ratio(dq / rv), verdictOf(dq >= rv).String()})
				}
			}
		}
		for _, n := range d.workers {
			rd, ok1 := d.median(durableCell{fsync, implDagq, "random", n}, unitTasks)
			in, ok2 := d.median(durableCell{fsync, implDagq, "independent", n}, unitTasks)
			if ok1 && ok2 {
				rows = append(rows, []string{"random ≥ 0.5× independent", fsync, thousands(int64(n)), count(rd), count(in) + " (independent)", ratio(rd / in), verdictOf(rd >= in/2).String()})
			}
		}
		for _, peer := range []struct{ impl, name string }{{implRiver, "River's"}, {implRiverDefaults, "River's at its defaults"}} {
			for _, n := range d.workers {
				dq, ok1 := d.median(durableCell{fsync, implDagq, "independent", n}, unitP50)
				rv, ok2 := d.median(durableCell{fsync, peer.impl, "independent", n}, unitP50)
				if ok1 && ok2 && rv > 0 {
					rows = append(rows, []string{"p50 hand-out ≤ " + peer.name, fsync, thousands(int64(n)), seconds(dq), seconds(rv) + " (" + peer.impl + ")", ratio(dq / rv), verdictOf(dq <= rv).String()})
				}
			}
		}
	}
	table(w, header, "llrrrrl", rows)
	return nil
}

// verdictOf is met or notMet.
func verdictOf(ok bool) verdict {
	if ok {
		return met
	}
	return notMet
}
