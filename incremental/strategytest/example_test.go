package strategytest_test

import (
	"fmt"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/incremental/strategytest"
)

func ExampleGraph_Submit() {
	s, _ := incremental.New("pk")
	g := strategytest.NewGraph()
	fmt.Println(g.Submit(s, 1, 2)) // 1 waits on 2, which has not arrived
	fmt.Println(g.Submit(s, 2, 3))
	fmt.Println(g.Submit(s, 3, 1)) // 3 → 1 → 2 → 3
	fmt.Println(g.Len())
	// Output:
	// [] <nil>
	// [] <nil>
	// [3 1 2 3] <nil>
	// 3
}
