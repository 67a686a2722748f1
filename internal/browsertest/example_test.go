package browsertest_test

import (
	"fmt"

	"github.com/dagq/dagq/internal/browsertest"
)

// wasm_exec.js prints a Go panic and the end of the program with
// console.log; a test's own panic, on purpose, can be let through.
func ExampleGoTrouble() {
	fmt.Println(browsertest.GoTrouble("panic: runtime error: index out of range [3] with length 3"))
	fmt.Println(browsertest.GoTrouble("Error: Go program has already exited"))
	fmt.Println(browsertest.GoTrouble("drawn in 12 ms"))
	fmt.Println(browsertest.GoTrouble("panic: on purpose", "on purpose"))
	// Output:
	// true
	// true
	// false
	// false
}
