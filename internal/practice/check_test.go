package practice

import (
	"strconv"
	"strings"
	"testing"
)

// TestCheckRefusesABlankFormAndGradesAFilledOne goes through a whole
// written exercise as the page does, with the form's fields: a blank
// Check is refused with what it needs and changes nothing; a "why" takes
// the learner's words, then the points ticked; the summary shows every
// answer given; a reload in the middle of a "why" comes back to its
// points with the words kept.
func TestCheckRefusesABlankFormAndGradesAFilledOne(t *testing.T) {
	link := PracticeLink{Level: L6, Set: SetBook, Exercise: "stale-completion"}
	tr, err := NewTrainer(link, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	whys := 0
	for i := 0; !tr.Practice().Done(); i++ {
		q, _ := tr.Practice().Current()
		before := tr.Stored()
		if need := tr.Check(nil); need == "" || tr.Stored() != before {
			t.Fatalf("question %d (%s): a blank Check said %q and changed the progress: %v", i, q.Kind, need, tr.Stored() != before)
		}
		if _, graded := tr.Practice().Graded(); graded {
			t.Fatalf("question %d: a blank Check graded it", i)
		}
		fields := formOf(q, q.Want)
		if q.Kind == AskWhy {
			whys++
			words := "Because a slow worker may finish after its lease expired."
			if need := tr.Check([]Field{{fieldText, words}}); need != "" {
				t.Fatalf("question %d: the words were refused: %s", i, need)
			}
			if _, graded := tr.Practice().Graded(); graded {
				t.Fatal("a why was graded before its points were ticked")
			}
			h := tr.Practice().InputsHTML()
			if !strings.Contains(h, words[:20]) || strings.Count(h, `name="heard"`) != len(q.Points) || tr.Practice().CheckLabel() != "Grade my answer" {
				t.Fatalf("question %d: the points to tick: %s (%q)", i, h, tr.Practice().CheckLabel())
			}
			// A reload now comes back to the points, the words kept.
			back, _ := NewTrainer(link, 1, tr.Stored())
			if !back.Resume() || back.Practice().InputsHTML() != h {
				t.Fatalf("question %d: after a reload the why shows %s", i, back.Practice().InputsHTML())
			}
			fields = nil
			for n := range q.Points {
				fields = append(fields, Field{fieldHeard, strconv.Itoa(n)})
			}
		}
		if need := tr.Check(fields); need != "" {
			t.Fatalf("question %d (%s): the right answer %v was refused: %s", i, q.Kind, fields, need)
		}
		r, graded := tr.Practice().Graded()
		if !graded || !r.Correct || r.Said == "" {
			t.Fatalf("question %d (%s): %v graded %+v", i, q.Kind, fields, r)
		}
		tr.Next()
	}
	if whys < 2 {
		t.Errorf("%d whys asked", whys)
	}
	sum := tr.Practice().Summary()
	if len(sum.Answers) != tr.Practice().Len() || !sum.Passed {
		t.Fatalf("summary %+v", sum)
	}
	h := sum.HTML()
	if strings.Count(h, `<li class="right">`) != tr.Practice().Len() || !strings.Contains(h, "You: ") || !strings.Contains(h, "passed") {
		t.Errorf("the summary does not show the answers: %s", h)
	}
	if !tr.Progress().Finished(tr.Practice().Exercise()) {
		t.Error("a passed exercise is not marked")
	}
}

// TestOnlyAPassTicksAnExercise: an exercise answered all wrong is not
// passed, its summary says so, and the picker shows no ✓ for it.
func TestOnlyAPassTicksAnExercise(t *testing.T) {
	tr, err := NewTrainer(PracticeLink{Level: L4, Set: SetBook, Exercise: "1"}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	for !tr.Practice().Done() {
		q, _ := tr.Practice().Current()
		tr.Answer(wrongAnswers(q)[0])
		tr.Next()
	}
	sum := tr.Practice().Summary()
	if sum.Passed || sum.Right != 0 || !strings.Contains(sum.HTML(), "not passed") || strings.Contains(sum.HTML(), `class="right"`) {
		t.Fatalf("an all-wrong summary: %+v", sum)
	}
	if tr.Progress().Finished(tr.Practice().Exercise()) {
		t.Error("an exercise answered all wrong is marked passed")
	}
	for _, c := range tr.ExerciseChoices() {
		if strings.Contains(c.Label, "✓") {
			t.Errorf("the picker ticks %q", c.Label)
		}
	}
}

// TestRubricLinksAskTheirPoint: the exercise each rubric point links to
// asks that point, by a question of its own.
func TestRubricLinksAskTheirPoint(t *testing.T) {
	for _, rl := range Rubric() {
		for _, pt := range rl.Points {
			ex, _, ok := FindExercise(rl.Level, pt.Exercise)
			if !ok {
				t.Fatalf("%s: no exercise %s", pt.ID, pt.Exercise)
			}
			p, _ := NewPractice(ex, false)
			n := 0
			for _, q := range p.Questions() {
				if q.Rubric == pt.ID {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s links to %s, which asks nothing about it", pt.ID, pt.Exercise)
			}
		}
	}
}

// TestABulkRedriveThatSkipsAPoisonPillSaysSo: L6's poison-pill asks what
// redrive matching does after decode died twice; the explanation is what
// the trace says (it started nothing, skipping decode), not the rule of a
// plain redrive, and the question is about the poison cap.
func TestABulkRedriveThatSkipsAPoisonPillSaysSo(t *testing.T) {
	ex, _, _ := FindExercise(L6, "poison-pill")
	p, _ := NewPractice(ex, false)
	found := false
	for _, q := range p.Questions() {
		if q.Command != "redrive matching invalid header" {
			continue
		}
		found = true
		if q.Topic != TopicPoison || q.Rubric != "poison" || !strings.Contains(q.Why, "started: 0 tasks at once, skipping decode (poisoned)") {
			t.Errorf("%s: topic %s, point %q, why %q", q.Kind, q.Topic, q.Rubric, q.Why)
		}
	}
	if !found {
		t.Fatal("poison-pill asks nothing about its bulk redrive")
	}
}

// TestAWrongCycleIsToldWhereItBreaks: a cycle typed along a missing
// arrow is told which arrow the drawing lacks, and the form a cycle is
// written in; a right one typed another way round is right.
func TestAWrongCycleIsToldWhereItBreaks(t *testing.T) {
	ex, _, _ := FindExercise(L5, "cycle-through-old-tasks")
	p, _ := NewPractice(ex, false)
	for _, q := range p.Questions() {
		if q.Kind != AskCycle || q.Want.Verdict != VerdictRefused {
			continue
		}
		// submit c a closes c → a → b → c.
		for _, s := range []string{"a b c a", "c a b", "c b a c", "b ← a ← c", "a, b, c"} {
			if r := q.Grade(q.ParseAnswer([]Field{{"choice", "refused"}, {"path", s}})); !r.Correct {
				t.Errorf("%q refused: %s", s, r.Mistake)
			}
		}
		r := q.Grade(q.ParseAnswer([]Field{{"choice", "refused"}, {"path", "c → b → a → c → b"}}))
		if r.Correct || !strings.Contains(r.Mistake, "c comes twice") && !strings.Contains(r.Mistake, "b comes twice") {
			t.Errorf("a path with a task twice: %+v", r)
		}
		r = q.Grade(q.ParseAnswer([]Field{{"choice", "refused"}, {"path", "c a c"}}))
		if r.Correct || !strings.Contains(r.Mistake, "a does not wait on c: the drawing has no arrow c → a") || !strings.Contains(r.Mistake, CycleForm) {
			t.Errorf("c a c: %+v", r)
		}
		r = q.Grade(q.ParseAnswer([]Field{{"choice", "accepted"}}))
		if r.Correct || !strings.Contains(r.Mistake, "It is refused: c waits on a, a on b, b on c") {
			t.Errorf("accepted: %+v", r)
		}
		return
	}
	t.Fatal("no refused cycle in cycle-through-old-tasks")
}

// TestAWrongAnswerPointsAtTheDrawing: every wrong step answer of the
// written exercises points at one task of the drawing or more, each a
// task there is; a right or blank one at none.
func TestAWrongAnswerPointsAtTheDrawing(t *testing.T) {
	for _, l := range Levels() {
		for _, ex := range Exercises(l) {
			p, _ := NewPractice(ex, false)
			for _, q := range p.Questions() {
				if len(q.Grade(q.Want).Point)+len(q.Grade(Answer{}).Point) > 0 {
					t.Fatalf("%s/%s step %d: a right or blank answer points at the drawing", l, ex.Name, q.Step)
				}
				if q.Kind == AskWhy || q.Kind == AskPick {
					continue
				}
				for _, a := range wrongAnswers(q) {
					r := q.Grade(a)
					if q.Missing(a) != "" {
						continue
					}
					if len(r.Point) == 0 {
						t.Fatalf("%s/%s step %d %s: the wrong answer %+v points at nothing (%s)", l, ex.Name, q.Step, q.Kind, a, r.Mistake)
					}
					for _, task := range r.Point {
						if _, ok := q.deps[task]; !ok {
							t.Fatalf("%s/%s step %d: points at %q, not a task", l, ex.Name, q.Step, task)
						}
					}
				}
			}
		}
	}
}
