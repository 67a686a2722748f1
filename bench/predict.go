package bench

import (
	"fmt"
	"time"
)

// Budget is the longest one op (one whole graph) may be predicted to take
// before its benchmark is skipped.
const Budget = 15 * time.Second

// perN2 is the cost per unit of n² of the combinations that grow
// quadratically, rounded up from runs at n = 1,000 to 100,000
// (go test ./bench -run '^$' -bench . -benchtime=1x): dfs walks
// every arrived ancestor of each new task (n²/2 visits on a chain); the
// peers search the graph on every edge.
var perN2 = map[[2]string]time.Duration{
	{"dfs", "chain"}:   6,
	{"dfs", "random"}:  6,
	{"dfs", "reject"}:  6,
	{"dfs", "lattice"}: 8,

	{"heimdalr", "chain"}:         200,
	{"heimdalr", "chain-reverse"}: 250,
	{"heimdalr", "wide"}:          4,
	{"heimdalr", "random"}:        400,
	{"heimdalr", "lattice"}:       250,
	{"heimdalr", "reject"}:        400,

	{"dominikbraun", "chain"}:   140,
	{"dominikbraun", "random"}:  20,
	{"dominikbraun", "lattice"}: 80,
	{"dominikbraun", "reject"}:  20,
}

// Predict returns the predicted time of one op (a whole graph of n tasks)
// and how it was predicted. Combinations not known to be quadratic are
// predicted at 5 µs a task, above what any of them measures, so that only
// quadratic ones are ever skipped.
func Predict(strategy, shape string, n int) (time.Duration, string) {
	if c, ok := perN2[[2]string{strategy, shape}]; ok {
		return time.Duration(n) * time.Duration(n) * c, fmt.Sprintf("n² × %v", c)
	}
	return time.Duration(n) * 5 * time.Microsecond, "n × 5µs"
}
