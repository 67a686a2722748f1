package practice

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestPracticeCensus counts, over every question of the written
// exercises, what issue 25 asked to count, and holds the goals: no blank
// answer passes, every question with alternatives offers three or more,
// at most a third of a level's questions are about dependency counting or
// FIFO order, and every rubric point is asked at its level by three
// questions or more, a "why" among them. Run it with -v to see the counts:
//
//	go test -run TestPracticeCensus -v ./internal/playground
func TestPracticeCensus(t *testing.T) {
	total, blank, few := 0, 0, 0
	for _, rl := range Rubric() {
		l := rl.Level
		n, counting := 0, 0
		byPoint := map[string]int{}
		whys := map[string]int{}
		for _, ex := range Exercises(l) {
			p, err := NewPractice(ex, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range p.Questions() {
				checkGrading(t, string(l)+"/"+ex.Name, q)
				total++
				n++
				if q.Counting() {
					counting++
				}
				if q.Grade(Answer{}).Correct || q.Grade(q.ParseAnswer(nil)).Correct {
					blank++
				}
				choices := len(q.Choices)
				if q.Kind == AskNext {
					choices++ // "nothing"
				}
				if (q.Kind == AskNext || q.Kind == AskReason || q.Kind == AskTimer || q.Kind == AskPick) && choices < 3 {
					few++
				}
				byPoint[q.Rubric]++
				if q.Kind == AskWhy {
					whys[q.Rubric]++
				}
			}
		}
		var parts []string
		for _, pt := range rl.Points {
			parts = append(parts, fmt.Sprintf("%s %d (why %d)", pt.ID, byPoint[pt.ID], whys[pt.ID]))
			if byPoint[pt.ID] < 3 || whys[pt.ID] == 0 {
				t.Errorf("%s: rubric point %q is asked by %d questions, %d of them why, want 3 or more and a why", l, pt.ID, byPoint[pt.ID], whys[pt.ID])
			}
		}
		t.Logf("%s: %d questions, %d counting or FIFO (%d%%); by rubric point: %s; no point: %d", l, n, counting, 100*counting/n, strings.Join(parts, ", "), byPoint[""])
		if 3*counting > n {
			t.Errorf("%s: %d of %d questions are counting or FIFO, more than a third", l, counting, n)
		}
		for id := range byPoint {
			if id != "" && !slices.ContainsFunc(rl.Points, func(pt RubricPoint) bool { return pt.ID == id }) {
				t.Errorf("%s: questions name rubric point %q, not one of the level's", l, id)
			}
		}
	}
	t.Logf("all levels: %d questions; a blank answer passes %d; %d offer fewer than three choices", total, blank, few)
	if blank > 0 || few > 0 {
		t.Errorf("%d blank passes, %d questions with fewer than three choices", blank, few)
	}
}
