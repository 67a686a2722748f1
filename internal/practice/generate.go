package practice

import (
	"github.com/dagq/dagq/internal/playground"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// genNames are the task names a generated exercise draws from.
var genNames = []string{"fetch", "parse", "resize", "index", "upload", "notify", "build", "test", "deploy", "lint",
	"bundle", "sign", "thumb", "report", "email", "audit", "merge", "scan", "train", "export", "sync", "price", "pack", "ship"}

// genErrors are the errors a generated exercise's failures give.
var genErrors = []string{"connection reset", "HTTP 503", "timeout", "disk full", "out of memory"}

// genLease and genBackoff are the timers of a generated L6 exercise.
const (
	genLease   = 10 * time.Second
	genBackoff = "backoff 1s 2 8s"
)

// Generate returns a random small exercise at a level, made from a seed:
// the same level and seed always give the same exercise, so that a link
// can send one to two people. It has 6 to 12 tasks, some submitted before
// the tasks they wait on, one submit refused for closing a cycle through
// them, a failure that is retried, a task that dies with tasks
// downstream, and its redrive; at L5 often a second dead root that shares
// downstream tasks with the first; at L6 leases of 10s that a crashed
// worker lets expire, a backoff between retries, and sometimes a
// permanent error. Every task SUCCEEDED at the end. It panics if its own
// script does not run, which TestGenerateRunsCleanAndRepeats rules out.
//
// The cost is O(steps × tasks) for about 4 steps a task.
func Generate(l Level, seed uint64) Exercise {
	lvl := uint64(slices.Index(Levels(), l) + 1)
	rng := rand.New(rand.NewPCG(seed, lvl))
	n := 6 + rng.IntN(7)
	perm := rng.Perm(len(genNames))
	tasks := make([]string, n)
	for i := range tasks {
		tasks[i] = genNames[perm[i]]
	}
	// tasks is a topological order: each task waits on 0 to 2 earlier ones.
	deps := map[string][]string{}
	for i := 1; i < n; i++ {
		k := rng.IntN(3)
		for range k {
			d := tasks[rng.IntN(i)]
			if !slices.Contains(deps[tasks[i]], d) {
				deps[tasks[i]] = append(deps[tasks[i]], d)
			}
		}
	}
	if len(deps[tasks[n-1]]) == 0 {
		deps[tasks[n-1]] = []string{tasks[n-2]}
	}
	// Submit roughly in order, some tasks before their dependencies, and
	// at least the last dependency edge forward.
	keys := make(map[string]float64, n)
	for i, t := range tasks {
		keys[t] = float64(i) + 3*rng.Float64()
	}
	order := slices.Clone(tasks)
	slices.SortStableFunc(order, func(a, b string) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	if !forwardRef(order, deps) {
		last := tasks[n-1]
		i, j := slices.Index(order, last), slices.Index(order, deps[last][0])
		order[i], order[j] = order[j], order[i]
	}

	attempts := 2
	var head strings.Builder
	head.WriteString("# Random exercise " + string(l) + ", seed " + strconv.FormatUint(seed, 10) + "\n#\n")
	head.WriteString("# Goal: " + strconv.Itoa(n) + " tasks arrive in a random order, some before what they wait on; one submit closes a loop, tasks fail, one dies and is redriven. Predict every step.\n\n")
	if l == L6 {
		attempts = 3
		head.WriteString("lease " + scenario.FormatDuration(genLease) + "\n" + genBackoff + "\n")
	}
	head.WriteString("attempts " + strconv.Itoa(attempts) + "\n")
	s, err := session.New(head.String(), scenario.Options{})
	if err != nil {
		panic("playground: Generate: " + err.Error())
	}
	do := func(cmd string) scenario.Step {
		if err := s.Append(cmd); err != nil {
			panic("playground: Generate: " + cmd + ": " + err.Error())
		}
		s.Seek(playground.StepEnd)
		return s.Step(s.Len())
	}

	// Arrivals, with one submit that closes a cycle.
	cycled := false
	submitted := map[string]bool{}
	for _, t := range order {
		if !cycled {
			if x := farthestWaiter(t, order, deps, submitted); x != "" {
				do("submit " + t + " " + x)
				cycled = true
			}
		}
		do(strings.TrimSpace("submit " + t + " " + strings.Join(deps[t], " ")))
		submitted[t] = true
	}

	// Who fails: a victim with dependents dies; a flaky task fails once.
	hasDependents := func(t string) bool {
		for _, ds := range deps {
			if slices.Contains(ds, t) {
				return true
			}
		}
		return false
	}
	var roots []string
	for _, t := range tasks {
		if hasDependents(t) {
			roots = append(roots, t)
		}
	}
	fails := map[string]int{}
	victim := roots[rng.IntN(len(roots))]
	fails[victim] = attempts
	if l == L5 && len(roots) > 1 && rng.IntN(2) == 0 {
		second := roots[rng.IntN(len(roots))]
		if second != victim {
			fails[second] = attempts
		}
	}
	for _, t := range rng.Perm(n) {
		if fails[tasks[t]] == 0 {
			fails[tasks[t]] = 1
			break
		}
	}
	errFor := map[string]string{}
	for _, t := range tasks {
		if fails[t] > 0 {
			errFor[t] = genErrors[rng.IntN(len(genErrors))]
		}
	}

	crashed := false
	resolve := func(t string) {
		if fails[t] == 0 {
			do("complete " + t)
			return
		}
		fails[t]--
		switch {
		case l == L6 && !crashed && rng.IntN(2) == 0:
			crashed = true
			do("advance " + scenario.FormatDuration(genLease)) // the worker went silent
		case l == L6 && fails[t] > 0 && t == victim && rng.IntN(3) == 0:
			fails[t] = 0
			do("fail! " + t + " " + errFor[t])
		default:
			do("fail " + t + " " + errFor[t])
		}
	}
	for range 40 * n {
		if ready := s.Ready(); len(ready) > 0 {
			t := do("next").Task
			if len(ready) > 1 && rng.IntN(3) == 0 {
				u := do("next").Task
				if s.State(t) == core.Running {
					resolve(t)
				}
				if s.State(u) == core.Running {
					resolve(u)
				}
				continue
			}
			if s.State(t) == core.Running {
				resolve(t)
			}
			continue
		}
		if due, ok := nextTimer(s); ok {
			do("advance " + scenario.FormatDuration(due-s.Step(s.Len()).Now))
			continue
		}
		var dead []string
		for _, d := range s.Board().DeadLetters() {
			if d.State == core.Dead {
				dead = append(dead, d.Task)
			}
		}
		if len(dead) == 0 {
			break
		}
		if l == L6 && rng.IntN(2) == 0 {
			do("redrive matching " + errFor[dead[0]])
		} else {
			do("redrive " + dead[0])
		}
		for _, t := range dead {
			fails[t] = 0
		}
	}
	return exercise(l, SetRandom, strconv.FormatUint(seed, 10), s.Text())
}

// forwardRef reports whether some task in order comes before one it waits on.
func forwardRef(order []string, deps map[string][]string) bool {
	for i, t := range order {
		for _, d := range deps[t] {
			if slices.Index(order, d) > i {
				return true
			}
		}
	}
	return false
}

// farthestWaiter returns a submitted task that waits on t, directly or
// through submitted tasks, the farthest from t; "" if none does. t then
// waiting on it closes a cycle.
func farthestWaiter(t string, order []string, deps map[string][]string, submitted map[string]bool) string {
	dist := map[string]int{t: 0}
	far := ""
	for changed := true; changed; {
		changed = false
		for _, x := range order {
			if !submitted[x] {
				continue
			}
			for _, d := range deps[x] {
				if dd, ok := dist[d]; ok {
					if cur, seen := dist[x]; !seen || dd+1 > cur {
						if !seen {
							changed = true
						}
						dist[x] = dd + 1
						if far == "" || dist[x] > dist[far] {
							far = x
						}
					}
				}
			}
		}
	}
	return far
}

// nextTimer returns the earliest lease deadline or due time at the end of
// a session.
func nextTimer(s *session.Session) (time.Duration, bool) {
	b := s.Board()
	var best time.Duration
	found := false
	for _, t := range b.Tasks() {
		if at, ok := b.Timer(t); ok && (!found || at < best) {
			best, found = at, true
		}
	}
	return best, found
}
