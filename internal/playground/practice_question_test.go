package playground

import (
	"maps"
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// fits returns the kinds of question that fit step k, by the rules
// [Kind] states, worked out from the step alone.
func fits(s *scenario.Session, k int) []Kind {
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
		if st.OK {
			out = append(out, AskChanges)
		}
	case scenario.OpNext:
		if st.Task != "" {
			out = append(out, AskNext)
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
		if c.Op == scenario.OpFail && has(func(e core.Event) bool { return e.Kind == core.EventDelayed }) {
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
		for _, c := range append(slices.Clone(q.Choices), "", "no-such-task") {
			if c != w.Task {
				out = append(out, Answer{Task: c})
			}
		}
	case AskReason, AskTimer:
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
		out = append(out, Answer{Refused: !w.Refused, Path: w.Path})
		if len(w.Path) > 0 {
			out = append(out, Answer{Refused: true}, Answer{Refused: true, Path: w.Path[:len(w.Path)-1]},
				Answer{Refused: true, Path: append(slices.Clone(w.Path), w.Path[1])})
			if len(w.Path) > 3 { // a loop of two reads the same both ways
				rev := slices.Clone(w.Path)
				slices.Reverse(rev)
				out = append(out, Answer{Refused: true, Path: rev})
			}
		} else {
			out = append(out, Answer{Refused: w.Refused, Path: []string{q.Command, q.Command}})
		}
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

// checkSession asks every question of every step of a session, checks
// that the kinds are those that fit, and that the right answer is
// accepted and every wrong one refused. It counts the kinds seen.
func checkSession(t *testing.T, name string, s *scenario.Session, seen map[Kind]int) {
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
			if r := q.Grade(q.Want); !r.Correct || r.Why == "" {
				t.Fatalf("%s step %d: %s: the right answer %+v was refused", name, k, q.Kind, q.Want)
			}
			for _, a := range wrongAnswers(q) {
				if q.Grade(a).Correct {
					t.Fatalf("%s step %d: %s: the wrong answer %+v was accepted (want %+v)", name, k, q.Kind, a, q.Want)
				}
			}
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
		s, err := scenario.NewSession(e.Text, scenario.Options{})
		if err != nil {
			t.Fatal(e.Name, err)
		}
		checkSession(t, e.Name, s, seen)
	}
	for _, k := range Kinds() {
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
			s, err := scenario.NewSession(ex.Text, scenario.Options{})
			if err != nil || s.Stopped() != nil {
				t.Fatalf("%s %s: %v %v", l, ex.Name, err, s.Stopped())
			}
			checkSession(t, string(l)+"/"+ex.Name, s, seen)
		}
	}
	for _, k := range Kinds() {
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
		s, err := scenario.NewSession(ex.Text, scenario.Options{})
		if err != nil {
			t.Fatalf("%s seed %d: %v", l, seed, err)
		}
		checkSession(t, string(l)+" seed "+ex.Name, s, seen)
	}
	for _, k := range Kinds() {
		if seen[k] == 0 {
			t.Errorf("no %s question in %d generated exercises", k, n)
		}
	}
	t.Logf("questions by kind: %v", seen)
}
