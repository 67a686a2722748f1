package main

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// A growth is a fitted power law y ≈ c·n^exponent.
type growth struct {
	exponent float64
	// lo and hi are the smallest and largest n fitted; points how many.
	lo, hi, points int
}

// fitGrowth fits log y = log c + exponent·log n by least squares over the
// points with y > 0 (gonum's stat.LinearRegression, unweighted). ok is
// false with fewer than two distinct n to fit.
//
// The exponent is what a table of n and y cannot show at a glance: 1 is
// linear in n (constant per task), 2 quadratic.
func fitGrowth(ns []int, ys []float64) (g growth, ok bool) {
	var x, y []float64
	for i, n := range ns {
		if ys[i] <= 0 || n <= 0 {
			continue
		}
		x = append(x, math.Log(float64(n)))
		y = append(y, math.Log(ys[i]))
		if g.points == 0 || n < g.lo {
			g.lo = n
		}
		if n > g.hi {
			g.hi = n
		}
		g.points++
	}
	if g.points < 2 || g.lo == g.hi {
		return growth{}, false
	}
	_, g.exponent = stat.LinearRegression(x, y, nil, false)
	return g, true
}

// growthOf fits unit of strategy on bench and shape over the medians at
// every n measured.
func (d *data) growthOf(bench, shape, strategy, unit string) (growth, bool) {
	var ns []int
	var ys []float64
	for _, n := range d.ns {
		if v, ok := d.median(cell{bench, shape, strategy, n}, unit); ok {
			ns = append(ns, n)
			ys = append(ys, v)
		}
	}
	return fitGrowth(ns, ys)
}
