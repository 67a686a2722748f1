package practice

import (
	"github.com/dagq/dagq/internal/playground"
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"

	"github.com/dagq/dagq/internal/wording"
)

// Trainer is practice mode as the page shows it: the exercise a link
// names, practised ([Practice]), the learner's [Progress] updated with
// every answer, and what the page says about them. The page draws the
// trainer's session, forwards answers, and stores [Trainer.Stored] in
// localStorage under [ProgressKey] after each one, after each move to the
// next question and when an exercise starts, so that a reload comes back
// to the same place ([Trainer.Resume]).
type Trainer struct {
	link     PracticeLink
	p        *Practice
	progress Progress
	stored   *Resume // where the stored progress was, for [Trainer.Resume]
}

// PracticeFrom returns the practice part of an address, and whether it
// asks for practice mode at all.
func PracticeFrom(query, fragment string) (PracticeLink, bool) {
	l, _ := playground.ParseLink(query, fragment)
	return l.Practice, l.Practice.On()
}

// NewTrainer starts the exercise a practice link names (seed makes a
// random one when the link has no seed), with the progress stored before,
// read tolerantly ([ParseProgress]). It starts at the first question, and
// the progress it keeps says so from now on; [Trainer.Resume] goes back to
// where the stored progress was instead.
func NewTrainer(pl PracticeLink, seed uint64, stored string) (*Trainer, error) {
	if !pl.On() {
		pl.Level = L4
	}
	ex, pl := Resolve(pl, seed)
	p, err := NewPractice(ex, pl.Interviewer)
	if err != nil {
		return nil, err
	}
	t := &Trainer{link: pl, p: p, progress: ParseProgress(stored)}
	t.stored = t.progress.Resume
	t.keep()
	return t, nil
}

// Resume moves the practice to where the stored progress says the
// learner was in this exercise, as a reload of the page does: the same
// question, asked or graded, with the answers given before counted; a
// finished exercise shows its summary. It reports false, changing
// nothing, when the stored progress is of another exercise or of none.
//
// The cost is O(questions).
func (t *Trainer) Resume() bool {
	if !t.p.restore(t.stored) {
		return false
	}
	t.keep()
	return true
}

// Next moves on to the next question once the current one is graded
// ([Practice.Next]); the progress keeps the place.
func (t *Trainer) Next() bool {
	if !t.p.Next() {
		return false
	}
	t.keep()
	return true
}

// keep notes in the progress where the practice is.
func (t *Trainer) keep() { t.progress.Resume = t.p.resume() }

// Practice returns the exercise being practised.
func (t *Trainer) Practice() *Practice { return t.p }

// Link returns the practice link of what is shown.
func (t *Trainer) Link() PracticeLink { return t.link }

// Address returns the address bar's query for what is shown.
func (t *Trainer) Address() string { return playground.Link{Practice: t.link}.Query() }

// Progress returns the learner's progress, as stored after the last answer.
func (t *Trainer) Progress() Progress { return t.progress }

// Stored returns the progress as the page stores it.
func (t *Trainer) Stored() string { return t.progress.Encode() }

// Answer grades an answer to the current question, plays its step and
// counts it in the progress (the exercise as passed after its last
// question, when [Practice.Passed]: a ✓ at 0 of 9 said the opposite of
// what happened). ok is false, and nothing changes, when there is no
// question waiting for an answer.
func (t *Trainer) Answer(a Answer) (r Result, ok bool) {
	q, ok := t.p.Current()
	if !ok || t.p.graded {
		return Result{}, false
	}
	r, _ = t.p.Answer(a)
	t.progress.Record(t.link.Level, q, r)
	if t.p.at == len(t.p.questions)-1 && t.p.Passed() {
		t.progress.Finish(t.p.ex)
	}
	t.keep()
	return r, true
}

// Check acts on the practice form as the page's Check button does,
// given its fields ([Field]): it grades the answer they make, counted
// like [Trainer.Answer], and returns "". It returns what the answer lacks
// instead ([Question.Missing]), changing nothing, when the form is blank
// or incomplete: the page shows it and grades nothing. The first Check of
// a "why" keeps the learner's words and shows the model answer and its
// points ([Practice.InputsHTML]); the second grades the points ticked.
func (t *Trainer) Check(fields []Field) (need string) {
	q, ok := t.p.Current()
	if !ok || t.p.graded {
		return ""
	}
	a := q.ParseAnswer(fields)
	if q.Kind == AskWhy && t.p.draft != "" {
		a.Text = t.p.draft
	}
	if m := q.Missing(a); m != "" {
		return m
	}
	if q.Kind == AskWhy && t.p.draft == "" {
		t.p.draft = a.Text
		t.keep()
		return ""
	}
	t.Answer(a)
	return ""
}

// Status returns the line above the question: where the learner is in
// the exercise, the score and the streak.
func (t *Trainer) Status() string {
	right, answered := t.p.Score()
	n := t.p.Len()
	at := min(t.p.Index()+1, n)
	out := "Question " + strconv.Itoa(at) + " of " + strconv.Itoa(n) + " · score " + strconv.Itoa(right) + "/" + strconv.Itoa(answered)
	if s := t.p.Streak(); s > 1 {
		out += " · streak " + strconv.Itoa(s)
	}
	return out
}

// LevelStatus returns what the progress says about the level practised:
// the answers right, the best streak, the exercises done, and the topics
// missed most.
func (t *Trainer) LevelStatus() string {
	l := t.link.Level
	lp := t.progress.Levels[l]
	if lp == nil || lp.Answered == 0 {
		return string(l) + ": no answers yet."
	}
	out := string(l) + ": " + strconv.Itoa(lp.Right) + " of " + strconv.Itoa(lp.Answered) + " right, best streak " + strconv.Itoa(lp.Best) +
		", " + wording.Plural(len(lp.Done), "exercise") + " passed."
	if top := t.progress.TopMissed(l); len(top) > 0 {
		var parts []string
		for _, tc := range top[:min(3, len(top))] {
			parts = append(parts, tc.Name+" ("+strconv.Itoa(tc.Count)+")")
		}
		out += " Missed most: " + strings.Join(parts, ", ") + "."
	}
	return out
}

// ExerciseChoices returns the written exercises of the level practised,
// numbered from 1, each with a ✓ when passed before, for a picker.
func (t *Trainer) ExerciseChoices() []Choice {
	var out []Choice
	for i, ex := range Exercises(t.link.Level) {
		label := strconv.Itoa(i+1) + ". " + ex.Title
		if t.progress.Finished(ex) {
			label += " ✓"
		}
		out = append(out, Choice{Value: strconv.Itoa(i + 1), Label: label})
	}
	return out
}

// Choice is an option of a picker: its value and what it says.
type Choice struct {
	Value, Label string
}

// FormatAnswer writes an answer for people, as the page shows the right
// one and the one given: "next hands out fetch", "b → READY, c →
// BLOCKED", "refused: c → a → b → c", "releases b, c; d stays blocked by
// e"; "(no answer)" for a blank one.
func FormatAnswer(q Question, a Answer) string {
	switch q.Kind {
	case AskNext:
		switch {
		case a.Nothing:
			return "next hands out nothing"
		case a.Task == "":
			return "(no answer)"
		}
		return "next hands out " + a.Task
	case AskChanges:
		var parts []string
		for _, t := range q.Tasks {
			if s, ok := a.Changes[t]; ok && s != "" && s != q.was[t] {
				parts = append(parts, t+" → "+string(s))
			}
		}
		switch {
		case len(parts) > 0:
			return strings.Join(parts, ", ")
		case a.Nothing:
			return "nothing changes"
		}
		return "(no answer)"
	case AskCycle:
		switch {
		case a.Verdict == VerdictAccepted && len(a.Path) == 0:
			return "accepted: no cycle"
		case a.Verdict == "":
			return "(no answer)"
		case len(a.Path) > 0:
			return a.Verdict + ": " + strings.Join(a.Path, " → ")
		}
		return a.Verdict
	case AskReason, AskTimer, AskPick:
		if a.Choice == "" {
			return "(no answer)"
		}
		return a.Choice
	case AskRedrive:
		if len(a.Released) == 0 && len(a.Stay) == 0 {
			return "(no answer)"
		}
		var out []string
		if len(a.Released) > 0 {
			rel := slices.Clone(a.Released)
			slices.SortFunc(rel, func(x, y string) int { return slices.Index(q.Tasks, x) - slices.Index(q.Tasks, y) })
			out = append(out, "releases "+strings.Join(rel, ", "))
		} else {
			out = append(out, "releases nothing")
		}
		for _, t := range q.Tasks {
			if r, ok := a.Stay[t]; ok {
				out = append(out, t+" stays blocked by "+r)
			}
		}
		return strings.Join(out, "; ")
	case AskWhy:
		if a.Text == "" {
			return "(no answer)"
		}
		return a.Text
	}
	return ""
}

// Was returns a task's state before the question's step, for an
// AskChanges question ("" for the task the step submits).
func (q Question) Was(task string) core.State { return q.was[task] }

// NextLink returns the link of the exercise to do after this one: the
// next in the book (after the level's last, the next level's first; after
// L6's last, L4's first), or, after a random one, the random one of the
// next seed. The interviewer's view stays as it is.
func (t *Trainer) NextLink() PracticeLink {
	l := t.link
	if l.Set == SetRandom {
		l.Seed++
		return l
	}
	n, _ := strconv.Atoi(l.Exercise)
	if n < len(Exercises(l.Level)) {
		l.Exercise = strconv.Itoa(n + 1)
		return l
	}
	levels := Levels()
	l.Level = levels[(slices.Index(levels, l.Level)+1)%len(levels)]
	l.Exercise = "1"
	return l
}
