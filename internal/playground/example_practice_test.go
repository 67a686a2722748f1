package playground_test

import (
	"fmt"

	"github.com/dagq/dagq/internal/playground"
)

// A learner practises the first L4 exercise: each question is asked
// before its step plays, graded against what the queue did, and explained.
func ExamplePractice() {
	ex, _, _ := playground.FindExercise(playground.L4, "first-in-first-out")
	p, _ := playground.NewPractice(ex, false)
	q, _ := p.Current()
	fmt.Println(q.Prompt)
	r, _ := p.Answer(playground.Answer{Changes: q.Want.Changes})
	fmt.Println(r.Correct)
	p.Next()
	for {
		q, ok := p.Current()
		if !ok || q.Kind == playground.AskNext {
			break
		}
		p.Answer(q.Want)
		p.Next()
	}
	q, _ = p.Current()
	fmt.Println(q.Prompt, q.Choices)
	r, _ = p.Answer(playground.Answer{Task: "upload"})
	fmt.Println(r.Correct, r.Want.Task)
	right, total := p.Score()
	fmt.Println(right, "of", total)
	// Output:
	// Which tasks change state when submit resize runs, and to what?
	// true
	// Which task does next hand out? [resize thumbnail upload]
	// false resize
	// 3 of 4
}
