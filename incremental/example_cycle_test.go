package incremental_test

import (
	"fmt"
	"strings"

	"github.com/dagq/dagq/incremental"
)

// tasks is a graph small enough to write out: deps[v] are the tasks v waits
// on, dependents[w] the tasks waiting on w.
type tasks struct{ deps, dependents [][]int32 }

func (g *tasks) Len() int                   { return len(g.deps) }
func (g *tasks) Deps(v int32) []int32       { return g.deps[v] }
func (g *tasks) Dependents(v int32) []int32 { return g.dependents[v] }

// submit asks s about v waiting on deps and adds the edges if s accepts.
func (g *tasks) submit(s incremental.Strategy, v int32, deps ...int32) []int32 {
	cycle := s.Insert(g, v, deps)
	if cycle == nil {
		g.deps[v] = deps
		for _, d := range deps {
			g.dependents[d] = append(g.dependents[d], v)
		}
	}
	return cycle
}

func ExampleTwoWay_Insert_cycle() {
	const fetch, parse, index = 0, 1, 2
	name := []string{"fetch", "parse", "index"}
	g := &tasks{deps: make([][]int32, 3), dependents: make([][]int32, 3)}
	var s incremental.TwoWay

	// Each task arrives before the one it waits on.
	fmt.Println(g.submit(&s, index, parse) == nil)
	fmt.Println(g.submit(&s, parse, fetch) == nil)

	// fetch waiting on index would close the loop: refused, with the path.
	var path []string
	for _, v := range g.submit(&s, fetch, index) {
		path = append(path, name[v])
	}
	fmt.Println(strings.Join(path, " waits on "))

	// Nothing changed: fetch may still arrive with no deps.
	fmt.Println(g.submit(&s, fetch) == nil)
	// Output:
	// true
	// true
	// fetch waits on index waits on parse waits on fetch
	// true
}
