package bench

import (
	"math/rand/v2"
	"strconv"

	"github.com/dagq/dagq/core"
)

// Shape makes the tasks of one kind of graph, in arrival order.
type Shape struct {
	Name string
	// Make returns n tasks (more for reject: its refused attempts come on
	// top). The same n and seed give the same tasks.
	Make func(n int, seed uint64) []core.Task
	// Refused is how many of the submits Make returns are meant to be
	// refused as cycles.
	Refused func(tasks []core.Task) int
}

// Shapes lists the benchmark shapes.
//   - chain: t1 waits on t0, t2 on t1, …, submitted in order.
//   - chain-reverse: the same chain, every task arriving before its
//     dependency (t0 first, waiting on t1, which has not arrived).
//   - wide: one download, n-2 shards each waiting on it, one reduce waiting
//     on every shard.
//   - random: each task waits on up to three distinct earlier tasks, chosen
//     at random; the tasks arrive shuffled.
//   - lattice: rows of √n tasks, each waiting on the task above it and the
//     one above and to the right: diamonds everywhere.
//   - reject: random, with a refused attempt before every tenth task that
//     already has a dependent: the task first asks to wait on that
//     dependent, closing a cycle, then arrives properly.
func Shapes() []Shape {
	return []Shape{
		{Name: "chain", Make: chain},
		{Name: "chain-reverse", Make: chainReverse},
		{Name: "wide", Make: wide},
		{Name: "random", Make: random},
		{Name: "lattice", Make: lattice},
		{Name: "reject", Make: reject, Refused: refusedAttempts},
	}
}

func names(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = "t" + strconv.Itoa(i)
	}
	return s
}

func chain(n int, _ uint64) []core.Task {
	name := names(n)
	tasks := make([]core.Task, n)
	tasks[0] = core.Task{Name: name[0]}
	for i := 1; i < n; i++ {
		tasks[i] = core.Task{Name: name[i], Deps: []string{name[i-1]}}
	}
	return tasks
}

func chainReverse(n int, _ uint64) []core.Task {
	name := names(n)
	tasks := make([]core.Task, n)
	for i := 0; i < n-1; i++ {
		tasks[i] = core.Task{Name: name[i], Deps: []string{name[i+1]}}
	}
	tasks[n-1] = core.Task{Name: name[n-1]}
	return tasks
}

func wide(n int, _ uint64) []core.Task {
	name := names(n)
	tasks := make([]core.Task, 0, n)
	tasks = append(tasks, core.Task{Name: name[0]})
	download := []string{name[0]}
	for i := 1; i < n-1; i++ {
		tasks = append(tasks, core.Task{Name: name[i], Deps: download})
	}
	tasks = append(tasks, core.Task{Name: name[n-1], Deps: name[1 : n-1]})
	return tasks
}

// randomDAG returns tasks in index order, each waiting on up to three
// distinct earlier ones.
func randomDAG(n int, rng *rand.Rand) []core.Task {
	name := names(n)
	tasks := make([]core.Task, n)
	for i := range tasks {
		tasks[i].Name = name[i]
		for range min(i, 3) {
			d := name[rng.IntN(i)]
			if !contains(tasks[i].Deps, d) {
				tasks[i].Deps = append(tasks[i].Deps, d)
			}
		}
	}
	return tasks
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func random(n int, seed uint64) []core.Task {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	tasks := randomDAG(n, rng)
	rng.Shuffle(len(tasks), func(i, j int) { tasks[i], tasks[j] = tasks[j], tasks[i] })
	return tasks
}

func lattice(n int, _ uint64) []core.Task {
	w := 1
	for w*w < n {
		w++
	}
	name := names(n)
	tasks := make([]core.Task, n)
	for i := range tasks {
		tasks[i].Name = name[i]
		if i >= w {
			tasks[i].Deps = append(tasks[i].Deps, name[i-w])
			if (i%w)+1 < w {
				tasks[i].Deps = append(tasks[i].Deps, name[i-w+1])
			}
		}
	}
	return tasks
}

func reject(n int, seed uint64) []core.Task {
	tasks := random(n, seed)
	dependent := map[string]string{} // a task → one arrived task waiting on it
	out := make([]core.Task, 0, n+n/10)
	for i, t := range tasks {
		if w, ok := dependent[t.Name]; ok && i%10 == 0 {
			out = append(out, core.Task{Name: t.Name, Deps: append(append([]string{}, t.Deps...), w)})
		}
		out = append(out, t)
		for _, d := range t.Deps {
			if _, ok := dependent[d]; !ok {
				dependent[d] = t.Name
			}
		}
	}
	return out
}

// refusedAttempts counts the attempts reject adds: a name that appears
// twice was refused the first time.
func refusedAttempts(tasks []core.Task) int {
	seen := make(map[string]bool, len(tasks))
	refused := 0
	for _, t := range tasks {
		if seen[t.Name] {
			refused++
		}
		seen[t.Name] = true
	}
	return refused
}
