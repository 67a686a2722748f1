package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// TestPredictMatchesResults holds Predict to the newest committed results
// file, the times measured there (no timing here): at the largest n
// measured of each quadratic combination (n ≥ 5,000, where the n² term
// rules), the prediction is within 4× of the median either way, so that a
// skip is not made on a guess 10× off; a linear one (5 µs a task) is never
// below what was measured, so that only quadratic ones are skipped.
func TestPredictMatchesResults(t *testing.T) {
	files, _ := filepath.Glob("results/*.txt")
	if len(files) == 0 {
		t.Fatal("no results/*.txt to check the predictions against")
	}
	slices.Sort(files)
	path := files[len(files)-1]
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type cell struct {
		strategy, shape string
		n               int
	}
	times := map[cell][]float64{}
	r := benchfmt.NewReader(f, path)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		var c cell
		faults := ""
		_, parts := res.Name.Parts()
		for _, part := range parts {
			k, v, _ := strings.Cut(strings.TrimPrefix(string(part), "/"), "=")
			switch k {
			case "strategy":
				c.strategy = v
			case "shape":
				c.shape = v
			case "n":
				c.n, _ = strconv.Atoi(v)
			case "faults":
				faults = v
			}
		}
		if c.strategy == "" || c.shape == "" || c.n == 0 || faults == "once" {
			continue
		}
		if sec, ok := res.Value("sec/op"); ok {
			times[c] = append(times[c], sec*1e9)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	largest := map[[2]string]int{}
	for c := range times {
		if k := [2]string{c.strategy, c.shape}; c.n > largest[k] {
			largest[k] = c.n
		}
	}
	checked := 0
	for c, ts := range times {
		slices.Sort(ts)
		measured := time.Duration(ts[len(ts)/2])
		predicted, how := Predict(c.strategy, c.shape, c.n)
		_, quadratic := perN2[[2]string{c.strategy, c.shape}]
		switch {
		case quadratic && c.n == largest[[2]string{c.strategy, c.shape}] && c.n >= 5000:
			checked++
			if predicted > 4*measured || 4*predicted < measured {
				t.Errorf("%s on %s at n = %d: predicted %v (%s), measured %v in %s: more than 4× off",
					c.strategy, c.shape, c.n, predicted, how, measured, filepath.Base(path))
			}
		case !quadratic && measured > predicted:
			t.Errorf("%s on %s at n = %d: measured %v in %s, over the linear prediction %v (%s): a quadratic combination not in perN2?",
				c.strategy, c.shape, c.n, measured, filepath.Base(path), predicted, how)
		}
	}
	if checked == 0 {
		t.Errorf("no quadratic combination measured at n ≥ 5,000 in %s", path)
	}
}
