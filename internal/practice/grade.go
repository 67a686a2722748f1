package practice

import (
	"maps"
	"slices"
	"strings"

	"github.com/dagq/dagq/core"
)

// Result is a graded answer: whether it was right, the answer given and
// the right one, what was wrong with the one given, and why, for the page
// to show.
type Result struct {
	Correct bool
	Given   Answer // the answer graded
	Want    Answer // the right answer
	// Mistake says, for a wrong answer, what in it is wrong and where the
	// drawing shows it ("b is PENDING: it waits on a, which has not
	// SUCCEEDED (the arrow a → b)"); "" for a right one.
	Mistake string
	// Point are the tasks of the drawing the mistake is about, for the
	// page to mark; none for a right answer or a blank one.
	Point []string
	Why   string // the rule, and what it did here
	// Said is the answer given as the summary shows it ([FormatAnswer]),
	// kept when Given is not (a practice resumed after a reload).
	Said string
}

// CycleForm is how a cycle is written, for the question and its feedback.
const CycleForm = "Write the cycle as the tasks along it, each waiting on the next (or each the dependency of the next, as the arrows are drawn), separated by spaces or arrows; any task may come first, and repeating it at the end is optional."

// Grade grades an answer against what the step did. A blank answer is
// wrong for every question; a right answer is always accepted and any
// other refused: AskNext, AskReason and AskTimer want the one right pick;
// AskChanges the exact set of tasks that change, each with its new state
// (a task given its old state counts as unchanged; "nothing changes" said
// when nothing does); AskCycle the verdict and, for a cycle, a cycle of
// the graph with the submit's edges, in any rotation and either
// direction, closed or not (the queue reports one; any is right);
// AskRedrive the exact set released and, for each task that stays
// BLOCKED, its root; AskWhy its words, with at least half of the points
// ticked as heard in them.
//
// The cost is O(tasks + path length) for the grading, and O(tasks ×
// dependencies) for the mistake.
func (q Question) Grade(a Answer) Result {
	r := Result{Given: a, Want: q.Want, Why: q.Why}
	switch q.Kind {
	case AskNext:
		r.Correct = !a.Nothing && a.Task != "" && a.Task == q.Want.Task
	case AskReason, AskTimer, AskPick:
		r.Correct = a.Choice != "" && a.Choice == q.Want.Choice
	case AskChanges:
		got := q.normChanges(a.Changes)
		r.Correct = maps.Equal(got, q.Want.Changes) && (len(got) > 0) != a.Nothing
	case AskCycle:
		switch {
		case a.Verdict != q.Want.Verdict:
		case len(q.Want.Path) > 0:
			r.Correct = q.isCycle(a.Path)
		default:
			r.Correct = len(a.Path) == 0
		}
	case AskRedrive:
		got := slices.Clone(a.Released)
		slices.Sort(got)
		want := slices.Clone(q.Want.Released)
		slices.Sort(want)
		stay := maps.Clone(a.Stay)
		if stay == nil {
			stay = map[string]string{}
		}
		r.Correct = q.Missing(a) == "" && slices.Equal(slices.Compact(got), want) && maps.Equal(stay, q.Want.Stay)
	case AskWhy:
		r.Correct = a.Text != "" && len(a.Heard) > 0 && 2*len(a.Heard) >= len(q.Points)
	}
	if !r.Correct {
		r.Mistake, r.Point = q.mistake(a), q.pointAt(a)
	}
	return r
}

// normChanges drops from an answer the tasks given no state or the state
// they had before the step.
func (q Question) normChanges(in map[string]core.State) map[string]core.State {
	out := map[string]core.State{}
	for t, s := range in {
		if was, there := q.was[t]; s == "" || there && s == was {
			continue
		}
		out[t] = s // a task that is not there stays, and is wrong
	}
	return out
}

// isCycle reports whether path is a cycle of the graph with the submit's
// edges: once opened (the first task dropped from the end when it comes
// again there), no task twice, and each task waiting on the next, the
// last on the first — or each the dependency of the next, the way the
// drawing's arrows point. Every cycle of that graph passes through the
// submitted task, the graph being acyclic before it.
func (q Question) isCycle(path []string) bool {
	p := openPath(path)
	if len(p) == 0 || q.deps == nil {
		return false
	}
	seen := map[string]bool{}
	forward, backward := true, true
	for i, t := range p {
		if seen[t] {
			return false
		}
		seen[t] = true
		u := p[(i+1)%len(p)]
		forward = forward && slices.Contains(q.deps[t], u)
		backward = backward && slices.Contains(q.deps[u], t)
	}
	return forward || backward
}

// openPath returns a typed cycle without its closing task: "a b c a" is
// a b c; "a a" (a task waiting on itself) is a.
func openPath(path []string) []string {
	if len(path) >= 2 && path[0] == path[len(path)-1] {
		return path[:len(path)-1]
	}
	return path
}

// ParsePath reads a cycle as a learner types it: task names separated by
// spaces, commas or arrows (->, →, ←, <-), e.g. "c → a → b → c".
func ParsePath(s string) []string {
	s = strings.NewReplacer("→", " ", "->", " ", "←", " ", "<-", " ", ",", " ").Replace(s)
	return strings.Fields(s)
}
