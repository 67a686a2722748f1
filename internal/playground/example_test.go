package playground_test

import (
	"fmt"

	"github.com/dagq/dagq/internal/playground"
)

// A page opens a link, steps back to the death of a, and acts there: the
// later commands are dropped, the redrive runs at that step, and Undo
// brings the old ending back.
func Example() {
	p := playground.New()
	_, notices, _ := p.Open("?scenario=diamond-redrive&step=abc", "")
	fmt.Println(notices[0])
	s := p.Session()
	for k := 1; k <= s.Len(); k++ {
		if s.Step(k).Command.String() == "expect a DEAD" {
			p.Seek(k)
			break
		}
	}
	fmt.Println(p.Caption().Text)
	fmt.Println(p.ClickTask("b").Notice)
	a := p.ClickTask("a")
	out, _ := p.Act(playground.PopoverCommand(a.Popover.Buttons[0].Action, "a", ""))
	fmt.Println(out.Notice)
	fmt.Println(p.Caption().Text)
	fmt.Println(p.Address()[:16] + "…")
	p.Undo()
	fmt.Println(p.Address())
	// Output:
	// This link's step could not be read (must be a whole number or end, got "abc"), so it was left out.
	// expect holds: a is DEAD.
	// b is BLOCKED by a, which is DEAD: redrive a to release it.
	// Acted at step 14: 21 later commands were dropped (Undo brings them back).
	// a is redriven: READY with fresh attempts. Released: b, c, d.
	// #script=lJJBixQx…
	// ?scenario=diamond-redrive&step=14
}
