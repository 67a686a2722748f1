package practice

import (
	"testing"
)

// TestTrainerResumesWhereTheStoredProgressWas is a reload in practice
// mode: a trainer made from the progress stored after each action comes
// back, with Resume, to the same question (asked or graded) and score; a
// finished exercise stays finished; the buttons that start an exercise
// again (no Resume) start at question 1.
func TestTrainerResumesWhereTheStoredProgressWas(t *testing.T) {
	link := PracticeLink{Level: L5, Set: SetBook, Exercise: "diamond-redrive"}
	tr, err := NewTrainer(link, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	reload := func(stored string) *Trainer {
		t.Helper()
		back, err := NewTrainer(link, 1, stored)
		if err != nil {
			t.Fatal(err)
		}
		if !back.Resume() {
			t.Fatalf("no place to resume in %s", stored)
		}
		return back
	}
	same := func(what string, got, want *Trainer) {
		t.Helper()
		g, w := got.Practice(), want.Practice()
		gr, ga := g.Score()
		wr, wa := w.Score()
		_, gg := g.Graded()
		_, wg := w.Graded()
		if g.Index() != w.Index() || gg != wg || gr != wr || ga != wa || g.Done() != w.Done() ||
			g.Session().Cursor() != w.Session().Cursor() || got.Status() != want.Status() {
			t.Fatalf("%s: reloaded at question %d graded %v score %d/%d step %d (%q), want %d %v %d/%d step %d (%q)", what,
				g.Index(), gg, gr, ga, g.Session().Cursor(), got.Status(), w.Index(), wg, wr, wa, w.Session().Cursor(), want.Status())
		}
		if gs, ws := g.Summary().HTML(), w.Summary().HTML(); gs != ws {
			t.Fatalf("%s: the reloaded summary says\n%s\nwant\n%s", what, gs, ws)
		}
		if got.LevelStatus() != want.LevelStatus() {
			t.Fatalf("%s: level status %q, want %q", what, got.LevelStatus(), want.LevelStatus())
		}
	}
	same("at the start", reload(tr.Stored()), tr)
	for i := 0; !tr.Practice().Done(); i++ {
		q, _ := tr.Practice().Current()
		a := q.Want
		if i%2 == 1 {
			a = wrongAnswers(q)[0]
		}
		if _, ok := tr.Answer(a); !ok {
			t.Fatalf("question %d not taken", i)
		}
		same("graded", reload(tr.Stored()), tr)
		tr.Next()
		same("moved on", reload(tr.Stored()), tr)
	}
	done := reload(tr.Stored())
	if !done.Practice().Done() {
		t.Fatal("a finished exercise opens unfinished")
	}
	if got, want := done.Practice().Summary(), tr.Practice().Summary(); got.Message != want.Message || len(got.Missed) != len(want.Missed) ||
		got.Missed[0].Why != want.Missed[0].Why {
		t.Errorf("summary after a reload %+v, want %+v", got, want)
	}

	again, err := NewTrainer(link, 1, tr.Stored())
	if err != nil {
		t.Fatal(err)
	}
	if again.Practice().Index() != 0 || again.Practice().Done() {
		t.Error("starting again does not start at question 1")
	}
	if again.Progress().Levels[L5].Answered != tr.Practice().Len() {
		t.Error("starting again lost the level's stats")
	}
	if back := reload(again.Stored()); back.Practice().Index() != 0 || back.Practice().Done() {
		t.Error("a reload after starting again does not come back to question 1")
	}

	other, err := NewTrainer(PracticeLink{Level: L5, Set: SetBook, Exercise: "1"}, 1, tr.Stored())
	if err != nil {
		t.Fatal(err)
	}
	if other.Practice().Exercise().Name != "diamond-redrive" && other.Resume() {
		t.Error("another exercise resumed the stored place")
	}
}

// TestResumeIgnoresStoredPlacesThatCannotBe reads stored places that are
// broken or do not fit the exercise: each is left out, and the exercise
// starts at question 1.
func TestResumeIgnoresStoredPlacesThatCannotBe(t *testing.T) {
	link := PracticeLink{Level: L5, Set: SetBook, Exercise: "diamond-redrive"}
	id := `"L5/book/diamond-redrive"`
	for _, stored := range []string{
		`{"levels":{},"resume":7}`,
		`{"levels":{},"resume":{"ex":` + id + `,"at":-1,"graded":false,"right":[]}}`,
		`{"levels":{},"resume":{"ex":` + id + `,"at":2,"graded":false,"right":[1]}}`,
		`{"levels":{},"resume":{"ex":` + id + `,"at":1,"graded":true,"right":[1]}}`,
		`{"levels":{},"resume":{"ex":` + id + `,"at":1,"graded":false,"right":[2]}}`,
		`{"levels":{},"resume":{"ex":` + id + `,"at":999,"graded":false,"right":[]}}`,
		`{"levels":{},"resume":{"ex":"L5/book/nothing","at":0,"graded":true,"right":[1]}}`,
	} {
		tr, err := NewTrainer(link, 1, stored)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Resume() || tr.Practice().Index() != 0 {
			t.Errorf("%s: resumed at question %d", stored, tr.Practice().Index())
		}
		if _, ok := tr.Practice().Current(); !ok {
			t.Errorf("%s: no question to ask", stored)
		}
	}
}

// TestResumeLinkNamesTheExercisePractisedLast: the page's Practise button
// names no exercise; the link it opens is the one the stored progress was
// in, book or random, and a trainer made from it resumes there. Progress
// with no place, or a place in no exercise there is, gives none.
func TestResumeLinkNamesTheExercisePractisedLast(t *testing.T) {
	for _, link := range []PracticeLink{
		{Level: L4, Set: SetBook, Exercise: "2"},
		{Level: L6, Set: SetBook, Exercise: "1"},
		{Level: L5, Set: SetRandom, Seed: 42, HasSeed: true},
	} {
		tr, err := NewTrainer(link, 7, "")
		if err != nil {
			t.Fatal(err)
		}
		q, _ := tr.Practice().Current()
		tr.Answer(q.Want)
		tr.Next()
		got, ok := ResumeLink(tr.Stored())
		if !ok {
			t.Fatalf("%+v: no link to resume in %s", link, tr.Stored())
		}
		back, err := NewTrainer(got, 99, tr.Stored())
		if err != nil {
			t.Fatal(err)
		}
		if !back.Resume() || back.Practice().Index() != 1 || back.Link() != tr.Link() {
			t.Errorf("%+v: ResumeLink gave %+v, which resumes at question %d of %+v; want question 1 of %+v",
				link, got, back.Practice().Index(), back.Link(), tr.Link())
		}
	}
	for _, stored := range []string{"", "{}", `{"levels":{}}`, `{"resume":{"ex":"L4/book/no-such-exercise","at":0}}`,
		`{"resume":{"ex":"L9/book/1","at":0}}`, `{"resume":{"ex":"L4/random/x","at":0}}`, `{"resume":{"ex":"L4","at":0}}`} {
		if got, ok := ResumeLink(stored); ok {
			t.Errorf("ResumeLink(%s) = %+v, want none", stored, got)
		}
	}
}
