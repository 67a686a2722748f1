package practice

import (
	"github.com/dagq/dagq/internal/playground"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
)

// TestPracticeScoresAStreakAndASummary answers an exercise, the first two
// questions wrong and the rest right, and reads the score, the streak, the
// summary's missed steps and links, and the session's cursor on the way.
func TestPracticeScoresAStreakAndASummary(t *testing.T) {
	ex, _, ok := FindExercise(L5, "diamond-redrive")
	if !ok {
		t.Fatal("no exercise diamond-redrive at L5")
	}
	p, err := NewPractice(ex, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() < 5 {
		t.Fatalf("%d questions", p.Len())
	}
	for i := 0; !p.Done(); i++ {
		q, _ := p.Current()
		if got := p.Session().Cursor(); got != q.AskedAt() {
			t.Fatalf("question %d asked at step %d, want %d", i, got, q.AskedAt())
		}
		if p.Next() {
			t.Fatal("Next moved on before an answer")
		}
		a := q.Want
		if i < 2 {
			a = wrongAnswers(q)[0]
		}
		r, ok := p.Answer(a)
		if !ok || r.Correct != (i >= 2) || r.Why == "" {
			t.Fatalf("question %d: %+v %v", i, r, ok)
		}
		if again, _ := p.Answer(q.Want); again.Correct != r.Correct {
			t.Fatal("a second answer changed the result")
		}
		if got := p.Session().Cursor(); got != q.Step {
			t.Fatalf("graded question %d shows step %d, want %d", i, got, q.Step)
		}
		p.Next()
	}
	right, total := p.Score()
	if right != total-2 || total != p.Len() {
		t.Fatalf("score %d of %d, want %d of %d", right, total, p.Len()-2, p.Len())
	}
	if p.Streak() != total-2 {
		t.Errorf("streak %d, want %d", p.Streak(), total-2)
	}
	sum := p.Summary()
	if len(sum.Missed) != 2 || sum.Missed[0].Index != 0 || sum.Missed[1].Index != 1 {
		t.Fatalf("missed %+v", sum.Missed)
	}
	for _, m := range sum.Missed {
		l, errs := playground.ParseLink("", m.Link)
		if len(errs) > 0 || !l.HasScript || l.Script != ex.Text || l.Step != m.Step {
			t.Errorf("missed step %d links to %q: %+v %v", m.Step, m.Link, l, errs)
		}
	}
	if len(sum.Topics) == 0 || sum.Percent != percent(right, total) || !strings.Contains(sum.Message, "right") {
		t.Errorf("summary %+v", sum)
	}
	if _, ok := p.Answer(Answer{}); ok {
		t.Error("an answer after the end was taken")
	}
	if p.Session().Cursor() != p.Session().Len() {
		t.Error("a done exercise does not show its end")
	}
}

func TestProgressRecordsAndSurvivesBadData(t *testing.T) {
	var pr Progress
	q := Question{Topic: TopicRootCause}
	pr.Record(L5, q, Result{Correct: true})
	pr.Record(L5, q, Result{Correct: true})
	pr.Record(L5, q, Result{Correct: false})
	pr.Record(L5, Question{Topic: TopicRedrive}, Result{Correct: true})
	pr.Finish(Exercise{Level: L5, Set: SetBook, Name: "diamond-redrive"})
	pr.Finish(Exercise{Level: L5, Set: SetBook, Name: "diamond-redrive"})
	back := ParseProgress(pr.Encode())
	lp := back.Levels[L5]
	if lp == nil || lp.Right != 3 || lp.Answered != 4 || lp.Streak != 1 || lp.Best != 2 || lp.Missed[TopicRootCause] != 1 || len(lp.Done) != 1 {
		t.Fatalf("round trip: %+v", lp)
	}
	if !back.Finished(Exercise{Level: L5, Set: SetBook, Name: "diamond-redrive"}) {
		t.Error("the finished exercise is not finished")
	}
	if top := back.TopMissed(L5); len(top) != 1 || top[0].Topic != TopicRootCause {
		t.Errorf("top missed %+v", top)
	}
	for _, bad := range []string{"", "null", "{", "[]", `"x"`, `{"levels":7}`, `{"levels":{"L9":{"right":3}}}`,
		`{"levels":{"L5":null}}`, `{"levels":{"L5":{"right":-4,"answered":-1,"missed":{"99":3,"1":-2}}}}`,
		`{"levels":{"L5":{"right":50,"answered":2,"streak":9,"best":1}}}`, `{"levels":{"L5":{"done":[1,2]}}}`} {
		p := ParseProgress(bad)
		for l, lp := range p.Levels {
			if !slices.Contains(Levels(), l) || lp.Right < 0 || lp.Right > lp.Answered || lp.Streak > lp.Best || lp.Best > lp.Right {
				t.Errorf("%s: %s %+v", bad, l, lp)
			}
			for topic := range lp.Missed {
				if !slices.Contains(Topics(), topic) {
					t.Errorf("%s: unknown topic %d kept", bad, topic)
				}
			}
		}
		p.Record(L4, q, Result{Correct: true}) // usable afterwards
	}
}

func TestPracticeLinks(t *testing.T) {
	for _, c := range []struct {
		query   string
		want    PracticeLink
		bad     []string
		address string
	}{
		{"?practice=L5", PracticeLink{Level: L5}, nil, "practice=L5&set=book&ex=1"},
		{"?practice=l4&set=book&ex=3", PracticeLink{Level: L4, Set: SetBook, Exercise: "3"}, nil, "practice=L4&set=book&ex=3"},
		{"?practice=L5&ex=diamond-redrive&interviewer=1", PracticeLink{Level: L5, Exercise: "diamond-redrive", Interviewer: true}, nil, "practice=L5&set=book&ex=6&interviewer=1"},
		{"?practice=L6&seed=42", PracticeLink{Level: L6, Set: SetRandom, Seed: 42, HasSeed: true}, nil, "practice=L6&set=random&seed=42"},
		{"?practice=L6&set=random", PracticeLink{Level: L6, Set: SetRandom}, nil, "practice=L6&set=random&seed=7"},
		{"?practice=L7", PracticeLink{}, []string{"practice"}, ""},
		{"?practice=L5&set=nope&ex=99&seed=-1&interviewer=maybe", PracticeLink{Level: L5}, []string{"set", "seed", "interviewer", "ex"}, "practice=L5&set=book&ex=1"},
		{"?scenario=two-roots", PracticeLink{}, nil, ""},
	} {
		got, errs := ReadLink(c.query, "")
		var bad []string
		for _, e := range errs {
			bad = append(bad, e.(*playground.LinkError).Param)
		}
		if got != c.want || !slices.Equal(bad, c.bad) {
			t.Errorf("%s: %+v %v, want %+v %v", c.query, got, bad, c.want, c.bad)
			continue
		}
		if !got.On() {
			continue
		}
		ex, pl := Resolve(got, 7)
		if got := (playground.Link{Practice: pl}).Query(); got != "?"+c.address {
			t.Errorf("%s: address %s, want ?%s", c.query, got, c.address)
		}
		if ex.Text == "" || ex.Level != c.want.Level {
			t.Errorf("%s: exercise %+v", c.query, ex)
		}
		again, _ := playground.ParseLink(playground.Link{Practice: pl}.Query(), "")
		if again.Practice != pl {
			t.Errorf("%s: the address reads back as %+v, want %+v", c.query, again.Practice, pl)
		}
	}
}

func TestRubricLinksExist(t *testing.T) {
	var b strings.Builder
	if err := WriteRubric(&b); err != nil {
		t.Fatal(err)
	}
	for _, rl := range Rubric() {
		if len(rl.Points) < 4 {
			t.Errorf("%s: %d points", rl.Name, len(rl.Points))
		}
		for _, pt := range rl.Points {
			if _, _, ok := FindExercise(rl.Level, pt.Exercise); !ok {
				t.Errorf("%s: no exercise %q at %s", rl.Name, pt.Exercise, rl.Level)
			}
			if _, ok := scenario.Lookup(pt.Scenario); !ok {
				t.Errorf("%s: no scenario %q", rl.Name, pt.Scenario)
			}
			if !strings.Contains(b.String(), "ex="+pt.Exercise) {
				t.Errorf("the page does not link %s", pt.Exercise)
			}
		}
	}
}

func TestTrainerNextLinkWalksTheBookThenTheLevels(t *testing.T) {
	for _, c := range []struct{ from, want string }{
		{"?practice=L4&ex=1", "?practice=L4&set=book&ex=2"},
		{"?practice=L4&ex=8", "?practice=L4&set=book&ex=9"},
		{"?practice=L4&ex=9", "?practice=L5&set=book&ex=1"},
		{"?practice=L6&ex=10", "?practice=L4&set=book&ex=1"},
		{"?practice=L6&seed=41&interviewer=1", "?practice=L6&set=random&seed=42&interviewer=1"},
	} {
		pl, _ := PracticeFrom(c.from, "")
		tr, err := NewTrainer(pl, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := (playground.Link{Practice: tr.NextLink()}).Query(); got != c.want {
			t.Errorf("after %s: %s, want %s", c.from, got, c.want)
		}
	}
}

// TestPracticeMarkupHasAnInputPerChoiceAndTask: the page reads answers
// back from these inputs, so each question kind must draw what its
// answer needs.
func TestPracticeMarkupHasAnInputPerChoiceAndTask(t *testing.T) {
	seen := map[Kind]bool{}
	for _, l := range Levels() {
		for _, ex := range Exercises(l) {
			p, _ := NewPractice(ex, true)
			for _, q := range p.Questions() {
				seen[q.Kind] = true
				h := q.InputsHTML()
				radios, selects := strings.Count(h, `type="radio"`), strings.Count(h, "<select ")
				var want [2]int
				switch q.Kind {
				case AskNext:
					want = [2]int{len(q.Choices) + 1, 0}
				case AskReason, AskTimer, AskPick:
					want = [2]int{len(q.Choices), 0}
				case AskCycle:
					want = [2]int{2, 0}
					if !strings.Contains(h, `name="path"`) {
						t.Errorf("%s: a cycle question without a path input", ex.Name)
					}
				case AskChanges, AskRedrive:
					want = [2]int{0, len(q.Tasks)}
				case AskWhy:
					if !strings.Contains(h, `<textarea name="text"`) {
						t.Errorf("%s: a why question without a text box", ex.Name)
					}
				}
				// No hint names a task: a hint must not be an answer.
				for _, part := range strings.Split(h, `placeholder="`)[1:] {
					hint, _, _ := strings.Cut(part, `"`)
					for task := range q.deps {
						if slices.Contains(strings.Fields(hint), task) {
							t.Errorf("%s step %d: the hint %q names %s", ex.Name, q.Step, hint, task)
						}
					}
				}
				if [2]int{radios, selects} != want {
					t.Errorf("%s step %d %s: %d radios, %d selects, want %v", ex.Name, q.Step, q.Kind, radios, selects, want)
				}
				right, wrong := q.ResultHTML(q.Grade(q.Want)), q.ResultHTML(q.Grade(Answer{}))
				if q.Kind == AskWhy {
					if !strings.Contains(right, "Right: you made") || !strings.Contains(wrong, "Not quite: you made 0 of") || !strings.Contains(wrong, html.EscapeString(q.Model)) {
						t.Errorf("%s step %d: results %q / %q", ex.Name, q.Step, right, wrong)
					}
				} else if !strings.Contains(right, "Right.") ||
					!strings.Contains(wrong, "Not quite. You said: (no answer). The answer: "+html.EscapeString(FormatAnswer(q, q.Want))) ||
					!strings.Contains(wrong, `<p class="mistake">No answer was given.`) {
					t.Errorf("%s step %d: results %q / %q", ex.Name, q.Step, right, wrong)
				}
				if !strings.Contains(q.ProbeHTML(), "Probe next:") {
					t.Errorf("%s step %d: no probe", ex.Name, q.Step)
				}
			}
		}
	}
	if len(seen) != len(Kinds()) {
		t.Errorf("the exercises ask %d kinds of question, want %d", len(seen), len(Kinds()))
	}
	ex, _, _ := FindExercise(L4, "1")
	p, _ := NewPractice(ex, false)
	for !p.Done() {
		p.Answer(Answer{Task: "\x00"})
		p.Next()
	}
	h := p.Summary().HTML()
	if n := strings.Count(h, `<a href="./#script=`); n != p.Len() {
		t.Errorf("the summary of an all-wrong exercise links %d steps, want %d", n, p.Len())
	}
}

// TestAnExerciseIsTickedOnlyWhenPassed: an exercise finished with every
// answer wrong gets no ✓ in the picker (it once did, at 0 of 9); one
// finished with every answer right does.
func TestAnExerciseIsTickedOnlyWhenPassed(t *testing.T) {
	for _, right := range []bool{false, true} {
		pl, _ := PracticeFrom("?practice=L4&set=book&ex=1", "")
		tr, err := NewTrainer(pl, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		for {
			q, ok := tr.Practice().Current()
			if !ok {
				break
			}
			a := Answer{Task: "\x00"}
			if right {
				a = q.Want
			}
			tr.Answer(a)
			if !tr.Next() {
				break
			}
		}
		ticked := strings.HasSuffix(tr.ExerciseChoices()[0].Label, "✓")
		if ticked != right {
			t.Errorf("every answer right: %v; the picker says %q", right, tr.ExerciseChoices()[0].Label)
		}
	}
}

func TestPercentRoundsToTheNearestBelowThePassMark(t *testing.T) {
	for _, c := range []struct{ right, total, want int }{
		{0, 0, 0}, {0, 3, 0}, {1, 3, 33}, {2, 3, 67}, {1, 2, 50}, {3, 3, 100},
		{4, 5, 80}, {1, 8, 13}, {7, 9, 78},
		{159, 200, 79}, // 79.5%: short of the pass mark, not shown as 80%
		{160, 200, 80},
	} {
		if got := percent(c.right, c.total); got != c.want {
			t.Errorf("percent(%d, %d) = %d, want %d", c.right, c.total, got, c.want)
		}
	}
}
