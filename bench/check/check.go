package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// metrics are the units compared, as benchfmt tidies them.
var metrics = []string{"sec/op", "allocs/op", instructions}

// instructions is the unit of callgrind's counts (make bench-check's
// BenchmarkInstr lines): a few runs' median, compared with the threshold
// alone, no test, since a count varies little and load does not move it.
const instructions = "instructions/op"

// ErrSlower is returned when a benchmark is significantly slower.
var ErrSlower = errors.New("check: significantly slower")

// run is the whole command: flags, then OLD and NEW.
func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(w)
	threshold := fs.Float64("threshold", 10, "percent a median may grow before it counts as slower")
	instrThreshold := fs.Float64("instr-threshold", 10, "percent a median count of instructions may grow before it counts as slower")
	alpha := fs.Float64("alpha", 0.05, "significance level of the U test")
	smoke := fs.Bool("smoke", false, "report slowdowns without failing on them")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if fs.NArg() != 2 {
		return errors.New("check: want two files, OLD and NEW")
	}
	if *threshold < 0 || *instrThreshold < 0 || *alpha <= 0 || *alpha >= 1 {
		return fmt.Errorf("check: -threshold %v and -alpha %v: want a threshold ≥ 0 and 0 < alpha < 1", *threshold, *alpha)
	}
	old, err := read(fs.Arg(0))
	if err != nil {
		return err
	}
	cur, err := read(fs.Arg(1))
	if err != nil {
		return err
	}
	verdicts, err := compare(old, cur, *threshold/100, *instrThreshold/100, *alpha)
	if err != nil {
		return err
	}
	slower := 0
	for _, v := range verdicts {
		fmt.Fprintln(w, v)
		if v.Slower {
			slower++
		}
	}
	switch {
	case slower == 0:
		fmt.Fprintf(w, "check: no significant slowdown over %v%% (alpha %v)\n", *threshold, *alpha)
	case *smoke:
		fmt.Fprintf(w, "check: %d slower, not failing (-smoke: too few samples to decide)\n", slower)
	default:
		return fmt.Errorf("%w: %d of %d over %v%% (alpha %v)", ErrSlower, slower, len(verdicts), *threshold, *alpha)
	}
	return nil
}

// samples are a file's measurements: by benchmark name (with its -N), then
// by unit, the values in file order.
type samples map[string]map[string][]float64

// read reads a file of benchmark results.
func read(path string) (samples, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	defer f.Close()
	out := samples{}
	r := benchfmt.NewReader(f, path)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, fmt.Errorf("check: %w", rec)
		case *benchfmt.Result:
			name := rec.Name.String()
			if out[name] == nil {
				out[name] = map[string][]float64{}
			}
			for _, v := range rec.Values {
				out[name][v.Unit] = append(out[name][v.Unit], v.Value)
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("check: %s has no benchmark results", path)
	}
	return out, nil
}

// Verdict is the comparison of one benchmark's metric.
type Verdict struct {
	Name, Unit string
	Old, New   float64 // the medians
	P          float64 // the U test's p-value
	N          [2]int  // the samples on each side
	Slower     bool    // grew by more than the threshold, significantly
}

func (v Verdict) String() string {
	mark := "  "
	if v.Slower {
		mark = "✗ "
	}
	delta := "~"
	if v.Old != 0 {
		delta = fmt.Sprintf("%+.1f%%", 100*(v.New/v.Old-1))
	}
	return fmt.Sprintf("%s%-70s %-9s %12.4g → %-12.4g %7s  p=%.3f n=%d+%d",
		mark, v.Name, v.Unit, v.Old, v.New, delta, v.P, v.N[0], v.N[1])
}

// compare compares every benchmark of old with cur's: a metric is slower
// when its median grew by more than threshold (a fraction) and the U test's
// p-value is below alpha; a count of instructions, when its median grew by
// more than instrThreshold. A benchmark of old missing from cur is an
// error. The verdicts come sorted by name, then unit.
func compare(old, cur samples, threshold, instrThreshold, alpha float64) ([]Verdict, error) {
	names := make([]string, 0, len(old))
	for name := range old {
		names = append(names, name)
	}
	slices.Sort(names)
	var missing []string
	var out []Verdict
	th := benchmath.Thresholds{CompareAlpha: alpha}
	for _, name := range names {
		if cur[name] == nil {
			missing = append(missing, name)
			continue
		}
		for _, unit := range metrics {
			a, b := old[name][unit], cur[name][unit]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			sa := benchmath.NewSample(slices.Clone(a), &th)
			sb := benchmath.NewSample(slices.Clone(b), &th)
			v := Verdict{Name: name, Unit: unit, N: [2]int{len(a), len(b)},
				Old: benchmath.AssumeNothing.Summary(sa, 0.95).Center,
				New: benchmath.AssumeNothing.Summary(sb, 0.95).Center}
			v.P = benchmath.AssumeNothing.Compare(sa, sb).P
			if slices.Equal(sa.Values, sb.Values) {
				v.P = 1 // identical samples, as allocs/op often are
			}
			v.Slower = v.New > v.Old*(1+threshold) && v.P < alpha
			if unit == instructions {
				v.Slower = v.New > v.Old*(1+instrThreshold)
			}
			out = append(out, v)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("check: %d benchmarks of the baseline are not in the new results: %s", len(missing), strings.Join(missing, ", "))
	}
	return out, nil
}
