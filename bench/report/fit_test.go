package main

import (
	"math"
	"testing"
)

func TestFitGrowth(t *testing.T) {
	ns := []int{1_000, 5_000, 10_000, 100_000, 1_000_000}
	ys := func(f func(n float64) float64) []float64 {
		out := make([]float64, len(ns))
		for i, n := range ns {
			out[i] = f(float64(n))
		}
		return out
	}
	// wobble is a fixed ±3% noise, as repeated runs might leave in medians.
	wobble := []float64{1.03, 0.97, 1.02, 0.98, 1.01}
	noisy := func(f func(n float64) float64) []float64 {
		out := ys(f)
		for i := range out {
			out[i] *= wobble[i]
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		ys        []float64
		want, tol float64
	}{
		{"QuadraticIsTwo", ys(func(n float64) float64 { return 3e-9 * n * n }), 2, 0.01},
		{"NoisyQuadraticIsTwo", noisy(func(n float64) float64 { return 0.5 * n * n }), 2, 0.01},
		{"LinearIsOne", ys(func(n float64) float64 { return 700e-9 * n }), 1, 0.01},
		{"NoisyLinearIsOne", noisy(func(n float64) float64 { return 700e-9 * n }), 1, 0.01},
		{"ConstantIsZero", ys(func(float64) float64 { return 42 }), 0, 0.01},
		{"NLogNIsABitOverOne", ys(func(n float64) float64 { return n * math.Log(n) }), 1.10, 0.01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := fitGrowth(ns, tc.ys)
			if !ok {
				t.Fatal("no fit")
			}
			if math.Abs(g.exponent-tc.want) > tc.tol {
				t.Errorf("exponent %.4f, want %.2f ± %.2f", g.exponent, tc.want, tc.tol)
			}
			if g.lo != 1_000 || g.hi != 1_000_000 || g.points != 5 {
				t.Errorf("fitted n %d–%d over %d points, want 1,000–1,000,000 over 5", g.lo, g.hi, g.points)
			}
		})
	}
}

func TestFitGrowthSkipsZerosAndNeedsTwoN(t *testing.T) {
	g, ok := fitGrowth([]int{1_000, 10_000, 100_000}, []float64{0, 1e4, 1e6})
	if !ok || math.Abs(g.exponent-2) > 1e-9 || g.lo != 10_000 || g.points != 2 {
		t.Errorf("fit over a zero: %+v %v, want exponent 2 from 10,000 over 2 points", g, ok)
	}
	for _, tc := range []struct {
		name string
		ns   []int
		ys   []float64
	}{
		{"None", nil, nil},
		{"One", []int{1_000}, []float64{5}},
		{"AllZero", []int{1_000, 10_000}, []float64{0, 0}},
		{"OneNonzero", []int{1_000, 10_000}, []float64{0, 7}},
		{"SameN", []int{1_000, 1_000}, []float64{5, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if g, ok := fitGrowth(tc.ns, tc.ys); ok {
				t.Errorf("fitted %+v", g)
			}
		})
	}
}
