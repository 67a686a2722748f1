package practice_test

import (
	"fmt"

	"github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/practice"
)

// A learner practises the first L4 exercise: each question is asked
// before its step plays, graded against what the queue did, and
// explained; a wrong answer is told what is wrong with it. A "why" is
// answered in the learner's words, then self-graded against the points an
// interviewer listens for.
func ExamplePractice() {
	ex, _, _ := practice.FindExercise(playground.L4, "first-in-first-out")
	p, _ := practice.NewPractice(ex, false)
	q, _ := p.Current()
	fmt.Println(q.Prompt, q.Choices)
	fmt.Println(q.Grade(practice.Answer{}).Correct, q.Missing(practice.Answer{}))
	r, _ := p.Answer(practice.Answer{Task: "upload"})
	fmt.Println(r.Correct, r.Want.Task)
	fmt.Println(r.Mistake)
	p.Next()
	q, _ = p.Current()
	fmt.Println(q.Kind, q.Prompt)
	for _, pt := range q.Points {
		fmt.Println("-", pt)
	}
	r, _ = p.Answer(practice.Answer{Text: "The oldest goes first, so nobody waits for ever.", Heard: []int{0, 1}})
	fmt.Println(r.Correct)
	// Output:
	// Which task does next hand out? [resize thumbnail upload]
	// false Pick the task next hands out, or “nothing”.
	// false resize
	// upload is READY, but behind resize, thumbnail in the line (resize, thumbnail, upload): the front goes first.
	// why Why hand out READY tasks first in, first out? What would break with a stack, last in, first out?
	// - a READY task waits only for the tasks ahead of it: bounded waiting
	// - last in, first out lets new arrivals starve the oldest
	// - a fixed order is predictable and testable
	// true
}
