package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// A plotUnit is a unit that gets a plot for every benchmark and shape.
type plotUnit struct {
	unit   string  // as benchfmt tidies it
	scale  float64 // from unit to what the axis shows
	label  string  // of the axis
	suffix string  // of the file name
	// counted keeps only the strategies that count this unit, and their
	// nonzero values: a log axis has no 0.
	counted bool
}

var plotUnits = []plotUnit{
	{unit: unitTime, scale: 1e9, label: "ns/op", suffix: "ns"},
	{unit: unitVisits, scale: 1, label: "visits/op", suffix: "visits", counted: true},
}

// plotName is the file name of the plot of u for bench on shape.
func plotName(bench, shape string, u plotUnit) string {
	return fmt.Sprintf("%s-%s-%s.svg", bench, shape, u.suffix)
}

// The size of a plot, its legend column included.
const (
	plotWidth   = 18 * vg.Centimeter
	plotHeight  = 10 * vg.Centimeter
	legendWidth = 3.5 * vg.Centimeter
)

// writePlots writes a plot of every unit of plotUnits for every benchmark
// and shape into dir, which it makes if need be, and removes the plots of
// an earlier report that this one has not written again.
func (d *data) writePlots(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	written := map[string]bool{}
	for _, b := range d.benches {
		for _, shape := range d.shapes {
			if !d.hasShape(b, shape) {
				continue
			}
			for _, u := range plotUnits {
				svg, err := d.plot(b, shape, u)
				if err != nil {
					return fmt.Errorf("plot of %s on %s: %w", b, shape, err)
				}
				name := plotName(b, shape, u)
				if err := os.WriteFile(filepath.Join(dir, name), svg, 0o644); err != nil {
					return err
				}
				written[name] = true
			}
		}
	}
	for _, u := range plotUnits {
		old, err := filepath.Glob(filepath.Join(dir, "*-"+u.suffix+".svg"))
		if err != nil {
			return err
		}
		for _, f := range old {
			if !written[filepath.Base(f)] {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// plot draws u against n on log–log axes for bench on shape, one line per
// strategy, and returns it as SVG.
func (d *data) plot(bench, shape string, u plotUnit) ([]byte, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s · %s: %s", bench, shape, u.label)
	p.X.Label.Text = "n (tasks)"
	p.Y.Label.Text = u.label
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = decadeTicks{}, decadeTicks{}
	p.Add(plotter.NewGrid())
	// The legend goes in a column of its own, right of the plot, where it
	// hides no line.
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true

	var xs, ys []float64
	for i, s := range d.strategies {
		if u.counted && isPeer(s) {
			continue
		}
		var pts plotter.XYs
		var bars errorBars
		for _, n := range d.ns {
			m, ok := d.get(cell{bench, shape, s, n}, u.unit)
			v := m.Center
			if !ok || v <= 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: float64(n), Y: v * u.scale})
			xs = append(xs, float64(n))
			ys = append(ys, v*u.scale)
			// The 95% interval of the median, where benchmath has one
			// (6 runs or more) that a log scale can draw.
			if m.Lo > 0 && m.Hi > m.Lo && !math.IsInf(m.Hi, 0) && (m.Lo < v || m.Hi > v) {
				bars.XYs = append(bars.XYs, plotter.XY{X: float64(n), Y: v * u.scale})
				bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{(v - m.Lo) * u.scale, (m.Hi - v) * u.scale})
				ys = append(ys, m.Lo*u.scale, m.Hi*u.scale)
			}
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color = plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i)
		points.Color = plotutil.Color(i)
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		if len(bars.XYs) > 0 {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, err
			}
			eb.Color = plotutil.Color(i)
			p.Add(eb)
		}
		legend.Add(s, line, points)
	}
	p.X.Min, p.X.Max = decades(xs)
	p.Y.Min, p.Y.Max = decades(ys)

	canvas := vgsvg.New(plotWidth, plotHeight)
	c := draw.New(canvas)
	p.Draw(draw.Crop(c, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(c, plotWidth-legendWidth+vg.Millimeter, 0, 0, -vg.Centimeter))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// errorBars are the medians of one line and their 95% intervals, as
// plotter.NewYErrorBars takes them.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

// decades returns the powers of ten just below the least of vs and just
// above the greatest: the range of a log axis. With no vs it is 1 to 10.
func decades(vs []float64) (lo, hi float64) {
	if len(vs) == 0 {
		return 1, 10
	}
	lo = math.Pow(10, math.Floor(math.Log10(slices.Min(vs))))
	hi = math.Pow(10, math.Ceil(math.Log10(slices.Max(vs))))
	if hi <= lo {
		hi = lo * 10
	}
	return lo, hi
}

// decadeTicks are the ticks of a log axis, labelled 10³, 10⁴, ….
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" && t.Value >= 1 {
			ticks[i].Label = power(int(math.Round(t.Value)))
		}
	}
	return ticks
}
