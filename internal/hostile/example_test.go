package hostile_test

import (
	"fmt"
	"strings"

	"github.com/dagq/dagq/internal/hostile"
)

// A chain that a submit closes into a cycle through every task, repeated
// up to the largest script a server accepts: each repetition makes the
// cycle check walk the whole chain.
func Example() {
	script := hostile.Fill(hostile.ChainOf(3, "x"), "submit x c3\n")
	lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
	fmt.Println(lines[:5])
	fmt.Println(len(script) <= hostile.MaxScript, len(script)+len("submit x c3\n") > hostile.MaxScript)
	// Output:
	// [submit c1 x submit c2 c1 submit c3 c2 submit x c3 submit x c3]
	// true true
}
