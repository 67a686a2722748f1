package wording_test

import (
	"fmt"

	"github.com/dagq/dagq/internal/wording"
)

func Example() {
	fmt.Println(wording.Plural(1, "task"), wording.IsAre(1), "dead;", wording.Plural(3, "task"), wording.IsAre(3), "blocked")
	fmt.Println(wording.Names([]string{"a", "b", "c", "d"}, 2))
	fmt.Println(wording.Names([]string{"a", "b"}, 2))
	// Output:
	// 1 task is dead; 3 tasks are blocked
	// a, b and 2 more
	// a, b
}
