package bench

import (
	"fmt"
	"time"
)

// Budget is the longest one op (one whole graph) may be predicted to take
// before its benchmark is skipped.
const Budget = 15 * time.Second

// perN2 is the cost in nanoseconds per unit of n² of the combinations
// that grow quadratically, about twice the medians at the largest n
// measured, so that a prediction errs on the side of skipping
// (TestPredictMatchesResults keeps them within 4× of the newest results
// file; fractions of a nanosecond, since dfs on random and heimdalr on
// wide take less): dfs walks every arrived ancestor of each new task
// (n²/2 visits on a chain); the peers search the graph on every edge.
var perN2 = map[[2]string]float64{
	{"dfs", "chain"}:   6,
	{"dfs", "random"}:  0.4,
	{"dfs", "reject"}:  0.45,
	{"dfs", "lattice"}: 4,

	{"heimdalr", "chain"}:         200,
	{"heimdalr", "chain-reverse"}: 250,
	{"heimdalr", "wide"}:          0.14,
	{"heimdalr", "random"}:        180,
	{"heimdalr", "lattice"}:       160,
	{"heimdalr", "reject"}:        190,

	{"dominikbraun", "chain"}:   140,
	{"dominikbraun", "random"}:  9,
	{"dominikbraun", "lattice"}: 80,
	{"dominikbraun", "reject"}:  9,
}

// perTask is the prediction per task of the combinations that are not
// quadratic: above what any of them measured (pk on random at 10⁶, the
// slowest, 24 µs a task).
const perTask = 30 * time.Microsecond

// Predict returns the predicted time of one op (a whole graph of n tasks)
// and how it was predicted: n² × the combination's perN2 if it grows
// quadratically, else n × perTask. TestPredictMatchesResults holds these
// to the newest results file.
func Predict(strategy, shape string, n int) (time.Duration, string) {
	if c, ok := perN2[[2]string{strategy, shape}]; ok {
		return time.Duration(float64(n) * float64(n) * c), fmt.Sprintf("n² × %gns", c)
	}
	return time.Duration(n) * perTask, fmt.Sprintf("n × %v", perTask)
}

// Skip reports whether the suite skips a combination at n, with its
// prediction: only quadratic ones predicted over Budget are skipped; a
// linear one runs whatever its size.
func Skip(strategy, shape string, n int) (skip bool, predicted time.Duration, how string) {
	predicted, how = Predict(strategy, shape, n)
	_, quadratic := perN2[[2]string{strategy, shape}]
	return quadratic && predicted > Budget, predicted, how
}
