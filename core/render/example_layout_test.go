package render_test

import (
	"fmt"

	"github.com/dagq/dagq/core/render"
)

// A diamond, listed in arrival order: fetch first, then two tasks waiting
// on it, then one waiting on both. Each task lands one layer below its
// deepest dependency; merge sits midway under its two dependencies. Then
// a late task arrives, and no box moves.
func ExampleLayOut() {
	nodes := []render.Node{
		{Name: "fetch"},
		{Name: "parse", Deps: []string{"fetch"}},
		{Name: "index", Deps: []string{"fetch"}},
		{Name: "merge", Deps: []string{"parse", "index"}},
	}
	l := render.LayOut(nodes)
	for _, n := range nodes {
		fmt.Printf("%-5s layer %d at %v\n", n.Name, l.Layer[n.Name], l.Pos[n.Name])
	}
	fmt.Println("size", l.Width, "×", l.Height)

	after := render.LayOut(append(nodes, render.Node{Name: "report", Deps: []string{"merge", "fetch"}}))
	for _, n := range nodes {
		if after.Pos[n.Name] != l.Pos[n.Name] {
			fmt.Println(n.Name, "moved")
		}
	}
	fmt.Println("report layer", after.Layer["report"], "at", after.Pos["report"])
	// Output:
	// fetch layer 0 at {88 42}
	// parse layer 1 at {88 142}
	// index layer 1 at {244 142}
	// merge layer 2 at {166 242}
	// size 332 × 284
	// report layer 3 at {88 342}
}
