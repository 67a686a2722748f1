package playground

import (
	"maps"
	"slices"
	"strings"

	"github.com/dagq/dagq/core"
)

// Result is a graded answer: whether it was right, the right answer, and
// why, for the page to show.
type Result struct {
	Correct bool
	Want    Answer // the right answer
	Why     string // the rule, and what it did here
}

// Grade grades an answer against what the step did. A right answer is
// always accepted and any other refused: AskNext, AskReason and AskTimer
// want the one right pick; AskChanges the exact set of tasks that change,
// each with its new state (a task given its old state counts as
// unchanged); AskCycle whether the submit is refused, and, for a cycle, a
// path that is a cycle through the submitted task (the queue reports one;
// any is right); AskRedrive the exact set released and, for each task that
// stays BLOCKED, its root.
//
// The cost is O(tasks in the answer + path length).
func (q Question) Grade(a Answer) Result {
	r := Result{Want: q.Want, Why: q.Why}
	switch q.Kind {
	case AskNext:
		r.Correct = a.Task == q.Want.Task
	case AskReason, AskTimer:
		r.Correct = a.Choice == q.Want.Choice
	case AskChanges:
		r.Correct = maps.Equal(q.normChanges(a.Changes), q.Want.Changes)
	case AskCycle:
		r.Correct = a.Refused == q.Want.Refused
		if r.Correct && len(q.Want.Path) > 0 {
			r.Correct = q.isCycle(a.Path)
		} else if r.Correct {
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
		r.Correct = slices.Equal(slices.Compact(got), want) && maps.Equal(stay, q.Want.Stay)
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

// isCycle reports whether path is a cycle through the submitted task in
// the graph with the submit's edges: first and last the task, each task
// waiting on the next, no task twice on the way.
func (q Question) isCycle(path []string) bool {
	if len(path) < 2 || q.deps == nil {
		return false
	}
	t := q.Want.Path[0]
	if path[0] != t || path[len(path)-1] != t {
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(path); i++ {
		if seen[path[i]] || !slices.Contains(q.deps[path[i]], path[i+1]) {
			return false
		}
		seen[path[i]] = true
	}
	return true
}

// ParsePath reads a cycle as a learner types it: task names separated by
// spaces, commas or arrows (->, →), e.g. "c → a → b → c".
func ParsePath(s string) []string {
	s = strings.NewReplacer("→", " ", "->", " ", ",", " ").Replace(s)
	return strings.Fields(s)
}
