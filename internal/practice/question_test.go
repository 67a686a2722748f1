package practice

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// fits returns the kinds of question that fit step k, by the rules
// [Kind] states, worked out from the step alone.
func fits(s *session.Session, k int) []Kind {
	st := s.Step(k)
	c := st.Command
	before, after := s.BoardAt(k-1), s.BoardAt(k)
	has := func(f func(e core.Event) bool) bool { return slices.ContainsFunc(st.Events, f) }
	var out []Kind
	changed := has(func(e core.Event) bool { return e.Task != "" && before.State(e.Task) != after.State(e.Task) })
	blockedBefore := slices.ContainsFunc(before.DeadLetters(), func(d core.DeadLetter) bool { return d.State == core.Blocked })
	leaseTimer := has(func(e core.Event) bool {
		return (e.Kind == core.EventStarted || e.Kind == core.EventHeartbeat) && e.Deadline > 0
	})
	switch c.Op {
	case scenario.OpSubmit:
		if len(c.Deps) > 0 || !st.OK {
			out = append(out, AskCycle)
		}
		out = append(out, AskChanges)
	case scenario.OpNext:
		if st.Task != "" {
			if len(before.Tasks()) > 1 {
				out = append(out, AskNext)
			}
			if leaseTimer {
				out = append(out, AskTimer)
			}
		}
	case scenario.OpRedrive, scenario.OpRedriveMatching, scenario.OpRedriveGroup:
		if st.OK && blockedBefore {
			out = append(out, AskRedrive)
		} else {
			out = append(out, AskChanges)
		}
	case scenario.OpHeartbeat:
		if leaseTimer {
			out = append(out, AskTimer)
		} else if !st.OK {
			out = append(out, AskChanges)
		}
	case scenario.OpComplete, scenario.OpFail, scenario.OpAdvance, scenario.OpRedriveCancel:
		if !st.OK || changed {
			out = append(out, AskChanges)
		}
		jittered := false
		for j := 1; j <= s.Len(); j++ {
			jittered = jittered || s.Command(j).Op == scenario.OpJitter && s.Command(j).Jitter != core.JitterNone
		}
		if c.Op == scenario.OpFail && !jittered && has(func(e core.Event) bool { return e.Kind == core.EventDelayed }) {
			out = append(out, AskTimer)
		}
	}
	entered := has(func(e core.Event) bool {
		in := e.Kind == core.EventDead || e.Kind == core.EventBlocked || e.Kind == core.EventRerooted ||
			e.Kind == core.EventSubmitted && e.To == core.Blocked
		return in && slices.ContainsFunc(after.DeadLetters(), func(d core.DeadLetter) bool { return d.Task == e.Task })
	})
	if entered && len(out) > 0 {
		out = append(out, AskReason)
	}
	return out
}

// wrongAnswers returns answers to q that are not right: the other
// choices, a change left out or added or given the wrong state, a refusal
// flipped, a path cut or reversed, a release moved, a root swapped.
func wrongAnswers(q Question) []Answer {
	var out []Answer
	w := q.Want
	switch q.Kind {
	case AskNext:
		for _, c := range append(slices.Clone(q.Choices), "no-such-task") {
			if c != w.Task {
				out = append(out, Answer{Task: c})
			}
		}
		out = append(out, Answer{Nothing: true}, Answer{Task: w.Task, Nothing: true})
	case AskReason, AskTimer, AskPick:
		for _, c := range append(slices.Clone(q.Choices), "") {
			if c != w.Choice {
				out = append(out, Answer{Choice: c})
			}
		}
	case AskChanges:
		n := 0
		for t, st := range w.Changes {
			if n++; n > 24 {
				break // 24 changes gone wrong are enough
			}
			less := maps.Clone(w.Changes)
			delete(less, t)
			out = append(out, Answer{Changes: less})
			for _, other := range core.States() {
				if other != st && other != q.was[t] {
					bad := maps.Clone(w.Changes)
					bad[t] = other
					out = append(out, Answer{Changes: bad})
				}
			}
		}
		added := 0
		for _, t := range q.Tasks {
			if _, ok := w.Changes[t]; ok || added == 24 {
				continue // 24 tasks given a change they do not have are enough
			}
			added++
			for _, other := range core.States() {
				if other != q.was[t] {
					more := maps.Clone(w.Changes)
					if more == nil {
						more = map[string]core.State{}
					}
					more[t] = other
					out = append(out, Answer{Changes: more})
					break
				}
			}
		}
	case AskCycle:
		flip := VerdictAccepted
		if w.Verdict == VerdictAccepted {
			flip = VerdictRefused
		}
		out = append(out, Answer{Verdict: flip, Path: w.Path}, Answer{Path: w.Path})
		if len(w.Path) > 0 {
			out = append(out, Answer{Verdict: VerdictRefused}, Answer{Verdict: VerdictRefused, Path: w.Path[:len(w.Path)-2]},
				Answer{Verdict: VerdictRefused, Path: append(slices.Clone(w.Path), w.Path[1])},
				Answer{Verdict: VerdictRefused, Path: append(slices.Clone(w.Path), "no-such-task")})
			if len(w.Path) > 4 { // a loop of two or three reads the same swapped
				swapped := slices.Clone(w.Path[:len(w.Path)-1])
				swapped[0], swapped[1] = swapped[1], swapped[0]
				out = append(out, Answer{Verdict: VerdictRefused, Path: swapped})
			}
		} else {
			out = append(out, Answer{Verdict: w.Verdict, Path: []string{q.Task, q.Task}})
		}
	case AskWhy:
		all := slices.Clone(w.Heard)
		out = append(out, Answer{Text: w.Text}, Answer{Heard: all}, Answer{Text: w.Text, Heard: all[:1]})
	case AskRedrive:
		for i, t := range w.Released {
			moved := maps.Clone(w.Stay)
			moved[t] = "someone"
			if len(q.Roots) > 0 {
				moved[t] = q.Roots[0]
			}
			out = append(out, Answer{Released: slices.Delete(slices.Clone(w.Released), i, i+1), Stay: moved})
		}
		for t, r := range w.Stay {
			freed := maps.Clone(w.Stay)
			delete(freed, t)
			out = append(out, Answer{Released: append(slices.Clone(w.Released), t), Stay: freed})
			for _, other := range q.Roots {
				if other != r {
					swapped := maps.Clone(w.Stay)
					swapped[t] = other
					out = append(out, Answer{Released: w.Released, Stay: swapped})
				}
			}
		}
	}
	return out
}

// stepKinds returns the kinds of question asked about a step: all but
// the written ones.
func stepKinds() []Kind {
	return slices.DeleteFunc(Kinds(), func(k Kind) bool { return k == AskWhy || k == AskPick })
}

// checkSession asks every question of every step of a session, checks
// that the kinds are those that fit, and that the right answer is
// accepted and every wrong one refused. It counts the kinds seen.
func checkSession(t *testing.T, name string, s *session.Session, seen map[Kind]int) {
	t.Helper()
	for k := 1; k <= s.Len(); k++ {
		qs := Questions(s, k)
		var kinds []Kind
		for _, q := range qs {
			kinds = append(kinds, q.Kind)
		}
		if want := fits(s, k); !slices.Equal(kinds, want) {
			t.Fatalf("%s step %d (%s): questions %v, want %v", name, k, s.Step(k).Command.String(), kinds, want)
		}
		for _, q := range qs {
			seen[q.Kind]++
			if q.Step != k || q.Prompt == "" || q.Why == "" || q.Probe == "" || q.Topic.Name() == "" {
				t.Fatalf("%s step %d: %s question incomplete: %+v", name, k, q.Kind, q)
			}
			if (q.Kind == AskReason || q.Kind == AskTimer || q.Kind == AskNext) && !slices.Contains(q.Choices, q.Want.Choice+q.Want.Task) {
				t.Fatalf("%s step %d: %s: the right answer is not among the choices %q", name, k, q.Kind, q.Choices)
			}
			checkGrading(t, name, q)
		}
	}
}

func TestQuestionsOnLibraryScenarios(t *testing.T) {
	t.Parallel()
	seen := map[Kind]int{}
	for _, e := range scenario.Library() {
		if testing.Short() && (e.Name == "wide-1000" || e.Name == "chain-200") {
			continue
		}
		s, err := session.New(e.Text, scenario.Options{})
		if err != nil {
			t.Fatal(e.Name, err)
		}
		checkSession(t, e.Name, s, seen)
	}
	for _, k := range stepKinds() {
		if seen[k] == 0 {
			t.Errorf("no %s question on any library scenario", k)
		}
	}
	t.Logf("questions by kind: %v", seen)
}

func TestQuestionsOnExercises(t *testing.T) {
	t.Parallel()
	seen := map[Kind]int{}
	for _, l := range Levels() {
		exs := Exercises(l)
		if len(exs) < 8 {
			t.Errorf("%s has %d exercises, want 8 or more", l, len(exs))
		}
		names := map[string]bool{}
		for _, ex := range exs {
			if ex.Title == "" || ex.Goal == "" || names[ex.Name] {
				t.Errorf("%s %s: title %q goal %q (or the name twice)", l, ex.Name, ex.Title, ex.Goal)
			}
			names[ex.Name] = true
			s, err := session.New(ex.Text, scenario.Options{})
			if err != nil || s.Stopped() != nil {
				t.Fatalf("%s %s: %v %v", l, ex.Name, err, s.Stopped())
			}
			checkSession(t, string(l)+"/"+ex.Name, s, seen)
		}
	}
	for _, k := range stepKinds() {
		if seen[k] == 0 {
			t.Errorf("no %s question in any exercise", k)
		}
	}
	t.Logf("questions by kind: %v", seen)
}

// TestQuestionsOnGeneratedExercises grades 1,000 generated exercises,
// a third per level.
func TestQuestionsOnGeneratedExercises(t *testing.T) {
	t.Parallel()
	seen := map[Kind]int{}
	n := 1000
	if testing.Short() {
		n = 150
	}
	for i := range n {
		l := Levels()[i%3]
		seed := uint64(i / 3)
		ex := Generate(l, seed)
		s, err := session.New(ex.Text, scenario.Options{})
		if err != nil {
			t.Fatalf("%s seed %d: %v", l, seed, err)
		}
		checkSession(t, string(l)+" seed "+ex.Name, s, seen)
	}
	for _, k := range stepKinds() {
		if seen[k] == 0 {
			t.Errorf("no %s question in %d generated exercises", k, n)
		}
	}
	t.Logf("questions by kind: %v", seen)
}

// checkGrading grades a question's blank answer, its wrong answers and
// every equivalent form of its right one, also as the page's form sends
// them: the blank and the wrong ones are graded wrong, with a mistake
// said, and every right form right.
func checkGrading(t *testing.T, name string, q Question) {
	t.Helper()
	for _, blank := range []Answer{{}, q.ParseAnswer(nil), q.ParseAnswer([]Field{{"path", "   "}, {"text", " "}})} {
		if r := q.Grade(blank); r.Correct || r.Mistake == "" || q.Missing(blank) == "" {
			t.Fatalf("%s step %d: %s: a blank answer was graded %+v (missing %q)", name, q.Step, q.Kind, r, q.Missing(blank))
		}
	}
	if q.Kind == AskNext || q.Kind == AskReason || q.Kind == AskTimer {
		n := len(q.Choices)
		if q.Kind == AskNext {
			n++ // "nothing"
		}
		if n < 3 || len(slices.Compact(slices.Sorted(slices.Values(q.Choices)))) != len(q.Choices) {
			t.Fatalf("%s step %d: %s: choices %q", name, q.Step, q.Kind, q.Choices)
		}
	}
	for _, a := range rightForms(q) {
		if r := q.Grade(a); !r.Correct || r.Why == "" || r.Mistake != "" {
			t.Fatalf("%s step %d: %s: the right answer %+v was refused: %+v", name, q.Step, q.Kind, a, r)
		}
		if m := q.Missing(a); m != "" {
			t.Fatalf("%s step %d: %s: the right answer %+v lacks %q", name, q.Step, q.Kind, a, m)
		}
		fields := formOf(q, a)
		if back := q.ParseAnswer(fields); !q.Grade(back).Correct {
			t.Fatalf("%s step %d: %s: the right answer sent by the form as %v reads back as %+v", name, q.Step, q.Kind, fields, back)
		}
	}
	for _, a := range wrongAnswers(q) {
		if r := q.Grade(a); r.Correct || r.Mistake == "" {
			t.Fatalf("%s step %d: %s: the wrong answer %+v was graded %+v (want %+v)", name, q.Step, q.Kind, a, r, q.Want)
		}
	}
}

// rightForms returns the right answer in every form a learner may give
// it: a cycle in each rotation, read either way, closed or not, typed
// with arrows, spaces or commas; changes with unchanged tasks given their
// old state; releases in another order, one named twice.
func rightForms(q Question) []Answer {
	w := q.Want
	out := []Answer{w}
	switch q.Kind {
	case AskCycle:
		if len(w.Path) == 0 {
			break
		}
		p := openPath(w.Path)
		for _, dir := range []bool{false, true} {
			d := slices.Clone(p)
			if dir {
				slices.Reverse(d)
			}
			for i := range d {
				rot := append(slices.Clone(d[i:]), d[:i]...)
				closed := append(slices.Clone(rot), rot[0])
				out = append(out, Answer{Verdict: VerdictRefused, Path: rot}, Answer{Verdict: VerdictRefused, Path: closed})
				for _, sep := range []string{" ", " → ", "->", ", ", " <- "} {
					out = append(out, Answer{Verdict: VerdictRefused, Path: ParsePath(strings.Join(closed, sep))})
				}
			}
		}
	case AskChanges:
		more := maps.Clone(w.Changes)
		for _, t := range q.Tasks {
			if _, ok := more[t]; !ok && q.was[t] != "" {
				more[t] = q.was[t]
			}
		}
		out = append(out, Answer{Changes: more, Nothing: len(w.Changes) == 0})
	case AskRedrive:
		if len(w.Released) > 0 {
			rev := slices.Clone(w.Released)
			slices.Reverse(rev)
			out = append(out, Answer{Released: append(rev, rev[0]), Stay: w.Stay})
		}
	}
	return out
}

// formOf returns the fields the page's form sends for an answer, as a
// learner fills it in; each value is one the question's inputs offer.
func formOf(q Question, a Answer) []Field {
	var out []Field
	switch q.Kind {
	case AskNext:
		v := a.Task
		if a.Nothing {
			v = nothingValue
		}
		out = append(out, Field{fieldChoice, v})
	case AskReason, AskTimer, AskPick:
		out = append(out, Field{fieldChoice, a.Choice})
	case AskCycle:
		out = append(out, Field{fieldChoice, a.Verdict}, Field{fieldPath, strings.Join(a.Path, " → ")})
	case AskChanges:
		for _, t := range q.Tasks {
			out = append(out, Field{fieldTask + t, string(a.Changes[t])})
		}
		if a.Nothing {
			out = append(out, Field{fieldNothing, "1"})
		}
	case AskRedrive:
		for _, t := range q.Tasks {
			v := releaseValue
			if r, ok := a.Stay[t]; ok {
				v = r
			}
			out = append(out, Field{fieldTask + t, v})
		}
	case AskWhy:
		out = append(out, Field{fieldText, a.Text})
		for _, n := range a.Heard {
			out = append(out, Field{fieldHeard, strconv.Itoa(n)})
		}
	}
	return out
}
