package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synthetic writes a results file with one run of every benchmark given as
// name → ns/op (visits, bytes and allocations fixed) and reads it.
func synthetic(t *testing.T, results map[string]float64, allocs float64) *data {
	t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\n")
	for _, name := range sortedKeys(results) {
		fmt.Fprintf(&b, "Benchmark%s-2 1 %.0f ns/op 10 visits/op 100 B/op %.0f allocs/op\n", name, results[name], allocs)
	}
	path := filepath.Join(t.TempDir(), "synthetic.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func name(bench, strategy, shape string, n int) string {
	return fmt.Sprintf("%s/strategy=%s/shape=%s/n=%d", bench, strategy, shape, n)
}

func TestGoalFasterThanOffline(t *testing.T) {
	results := map[string]float64{}
	for _, shape := range shapeNames() {
		results[name("Lifecycle", "x", shape, goalN)] = 40e6
		results[name("Lifecycle", baseline, shape, goalN)] = 100e6
	}
	if g := synthetic(t, results, 0).goalFasterThanOffline("x"); g.verdict != met {
		t.Errorf("0.4× on every shape: %v, want met\n%v", g.verdict, g.rows)
	}
	results[name("Lifecycle", "x", "random", goalN)] = 60e6
	if g := synthetic(t, results, 0).goalFasterThanOffline("x"); g.verdict != notMet {
		t.Errorf("0.6× on random: %v, want not met\n%v", g.verdict, g.rows)
	}
	results[name("Lifecycle", "x", "random", goalN)] = 40e6
	delete(results, name("Lifecycle", baseline, "lattice", goalN))
	if g := synthetic(t, results, 0).goalFasterThanOffline("x"); g.verdict != unknown {
		t.Errorf("no gonum-offline on lattice: %v, want unknown\n%v", g.verdict, g.rows)
	}
}

func TestGoalLinear(t *testing.T) {
	results := func(exponent float64) map[string]float64 {
		r := map[string]float64{}
		for _, b := range []string{benchSubmit, benchLifecycle} {
			for _, shape := range goalLinearShapes {
				for _, n := range []int{1_000, 10_000, 100_000} {
					r[name(b, "x", shape, n)] = 1e3 * math.Pow(float64(n), exponent)
				}
			}
		}
		return r
	}
	for _, tc := range []struct {
		name     string
		exponent float64
		allocs   float64
		want     verdict
	}{
		{"LinearWithoutAllocationsIsMet", 1, 100, met},
		{"SlightlySuperlinearIsNotMet", 1.1, 100, notMet},
		{"AllocatingPerTaskIsNotMet", 1, 2_000, notMet},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if g := synthetic(t, results(tc.exponent), tc.allocs).goalLinear("x"); g.verdict != tc.want {
				t.Errorf("%v, want %v\n%v", g.verdict, tc.want, g.rows)
			}
		})
	}
	if g := synthetic(t, results(1), 100).goalLinear("other"); g.verdict != unknown {
		t.Errorf("a strategy not in the file: %v, want unknown", g.verdict)
	}
}

func TestGoalFasterThanPeers(t *testing.T) {
	results := map[string]float64{
		name("Submit", "x", "chain", goalChainN):            1e6,
		name("Submit", "heimdalr", "chain", goalChainN):     40e9,
		name("Submit", "dominikbraun", "chain", goalChainN): 20e9,
	}
	if g := synthetic(t, results, 0).goalFasterThanPeers("x"); g.verdict != met {
		t.Errorf("40,000× and 20,000×: %v, want met\n%v", g.verdict, g.rows)
	}
	results[name("Submit", "dominikbraun", "chain", goalChainN)] = 3e9
	g := synthetic(t, results, 0).goalFasterThanPeers("x")
	if g.verdict != notMet {
		t.Errorf("3,000× faster than dominikbraun: %v, want not met\n%v", g.verdict, g.rows)
	}
	if got := g.rows[1][3]; got != "3,000×" {
		t.Errorf("speed-up over dominikbraun shown as %q, want 3,000×", got)
	}
}

func TestVerdictAnd(t *testing.T) {
	for _, tc := range []struct{ a, b, want verdict }{
		{met, met, met},
		{met, unknown, unknown},
		{unknown, notMet, notMet},
		{notMet, met, notMet},
	} {
		if got := tc.a.and(tc.b); got != tc.want {
			t.Errorf("%v and %v = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestGoalQuarterOfOffline: 0.25× on every shape and n is met, 0.26× at
// random's 10⁶ is not, and a missing n is unknown.
func TestGoalQuarterOfOffline(t *testing.T) {
	results := map[string]float64{}
	for _, shape := range speedShapes {
		for _, n := range speedNs {
			results[name("Lifecycle", "x", shape, n)] = 25e6
			results[name("Lifecycle", baseline, shape, n)] = 100e6
		}
	}
	if g := synthetic(t, results, 0).goalQuarterOfOffline("x"); g.verdict != met {
		t.Errorf("0.25× everywhere: %v, want met\n%v", g.verdict, g.rows)
	}
	results[name("Lifecycle", "x", "random", 1_000_000)] = 26e6
	if g := synthetic(t, results, 0).goalQuarterOfOffline("x"); g.verdict != notMet {
		t.Errorf("0.26× on random at 10⁶: %v, want not met\n%v", g.verdict, g.rows)
	}
	results[name("Lifecycle", "x", "random", 1_000_000)] = 25e6
	delete(results, name("Lifecycle", "x", "wide", 1_000_000))
	if g := synthetic(t, results, 0).goalQuarterOfOffline("x"); g.verdict != unknown {
		t.Errorf("no wide at 10⁶: %v, want unknown\n%v", g.verdict, g.rows)
	}
}

// TestGoalSubmitPerTask: a 5,000-task chain in 1.25 ms (250 ns a task)
// with 250 allocations (0.05 a task) is met; 1.3 ms, or 300 allocations,
// is not.
func TestGoalSubmitPerTask(t *testing.T) {
	c := name("Submit", "x", "chain", goalChainN)
	for _, tc := range []struct {
		ns, allocs float64
		want       verdict
	}{{1.25e6, 250, met}, {1.3e6, 250, notMet}, {1.25e6, 300, notMet}} {
		if g := synthetic(t, map[string]float64{c: tc.ns}, tc.allocs).goalSubmitPerTask("x"); g.verdict != tc.want {
			t.Errorf("%v ns and %v allocations: %v, want %v\n%v", tc.ns, tc.allocs, g.verdict, tc.want, g.rows)
		}
	}
	if g := synthetic(t, map[string]float64{name("Submit", "x", "wide", goalChainN): 1}, 0).goalSubmitPerTask("x"); g.verdict != unknown {
		t.Errorf("no chain: %v, want unknown", g.verdict)
	}
}
