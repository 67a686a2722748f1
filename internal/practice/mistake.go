package practice

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"

	"github.com/dagq/dagq/internal/wording"
)

// mistakeMost caps the slips a mistake lists, so that feedback stays a
// sentence or two however large the graph.
const mistakeMost = 3

// mistake says what is wrong with a wrong answer, naming the tasks and
// arrows of the drawing that show it. The cost is O(tasks × dependencies).
func (q Question) mistake(a Answer) string {
	if m := q.Missing(a); m != "" && q.Kind != AskWhy {
		return "No answer was given. " + m
	}
	switch q.Kind {
	case AskNext:
		if a.Nothing {
			return "Something is READY: the line was " + nameList(q.line) + "."
		}
		return q.notNext(a.Task)
	case AskReason, AskTimer, AskPick:
		if m, ok := q.wrong[a.Choice]; ok {
			return "You picked “" + a.Choice + "”: " + m
		}
		return "You picked “" + a.Choice + "”, which is not among the choices."
	case AskChanges:
		return q.changesMistake(a)
	case AskCycle:
		return q.cycleMistake(a)
	case AskRedrive:
		return q.redriveMistake(a)
	case AskWhy:
		if a.Text == "" {
			return "No answer was written."
		}
		return "You ticked " + wording.Plural(len(a.Heard), "point") + " of " + strconv.Itoa(len(q.Points)) + ": an interviewer listens for at least half of them."
	}
	return ""
}

// notNext says why next does not hand out a task.
func (q Question) notNext(task string) string {
	was, there := q.was[task]
	switch {
	case !there:
		return "There is no task " + task + " yet."
	case was == core.Ready:
		i := slices.Index(q.line, task)
		return task + " is READY, but behind " + nameList(q.line[:i]) + " in the line (" + nameList(q.line) + "): the front goes first."
	case was == core.Pending:
		var open []string
		for _, d := range q.deps[task] {
			if q.was[d] != core.Succeeded {
				open = append(open, d)
			}
		}
		if len(open) > 0 {
			return task + " is PENDING: it waits on " + nameList(open) + ", not yet SUCCEEDED (the arrow " + open[0] + " → " + task + " in the drawing)."
		}
		return task + " is PENDING: it waits on a dependency not yet SUCCEEDED."
	case was == core.Succeeded:
		return task + " has SUCCEEDED already: a finished task is never handed out again."
	case was == core.Running:
		return task + " is RUNNING: a worker has it already."
	}
	return task + " is " + string(was) + ": only READY tasks are handed out."
}

// changesMistake lists the changes left out, given wrong, or made up.
func (q Question) changesMistake(a Answer) string {
	got := q.normChanges(a.Changes)
	var slips []string
	for _, t := range q.Tasks {
		want, changes := q.Want.Changes[t]
		said, saidIt := got[t]
		switch {
		case changes && !saidIt:
			slips = append(slips, t+" → "+string(want)+" is left out")
		case changes && said != want:
			slips = append(slips, t+" goes to "+string(want)+", not "+string(said))
		case !changes && saidIt:
			stays := q.was[t]
			if stays == "" {
				slips = append(slips, t+" is not there to change")
			} else {
				slips = append(slips, t+" stays "+string(stays)+", not "+string(said))
			}
		}
	}
	if a.Nothing && len(q.Want.Changes) > 0 && len(got) == 0 {
		return "Something changes: " + nameList(q.changeList()) + "."
	}
	if len(slips) == 0 {
		return "Nothing changes here: tick “nothing changes”."
	}
	more := ""
	if len(slips) > mistakeMost {
		more = ", and " + wording.Plural(len(slips)-mistakeMost, "more")
		slips = slips[:mistakeMost]
	}
	return strings.Join(slips, "; ") + more + "."
}

// changeList returns the right changes as "b → READY".
func (q Question) changeList() []string {
	var out []string
	for _, t := range q.Tasks {
		if s, ok := q.Want.Changes[t]; ok {
			out = append(out, t+" → "+string(s))
		}
	}
	return out
}

// cycleMistake says what is wrong with a verdict or a cycle.
func (q Question) cycleMistake(a Answer) string {
	w := q.Want
	task := q.Task
	switch {
	case a.Verdict == VerdictAccepted && len(w.Path) > 0:
		return "It is refused: " + waits(w.Path) + ", so " + task + " waiting on " + w.Path[1] + " closes a cycle."
	case a.Verdict == VerdictAccepted:
		return "It is refused, for another reason than a cycle: " + q.err + "."
	case a.Verdict == VerdictRefused && w.Verdict == VerdictAccepted:
		return "It is accepted: none of " + task + "'s dependencies (" + nameList(q.deps[task]) + ") waits on " + task + ", directly or through other tasks."
	case len(w.Path) == 0 && len(a.Path) > 0:
		return "It is refused, but not for a cycle (" + q.err + "): leave the cycle empty."
	case len(a.Path) == 0:
		return "It is refused for a cycle: name it. " + CycleForm
	}
	return q.notCycle(a.Path) + " " + CycleForm
}

// notCycle says where a typed path stops being a cycle.
func (q Question) notCycle(path []string) string {
	p := openPath(path)
	seen := map[string]bool{}
	for _, t := range p {
		if _, ok := q.deps[t]; !ok {
			return "There is no task " + t + "."
		}
		if seen[t] {
			return t + " comes twice: a cycle passes each task once."
		}
		seen[t] = true
	}
	// Read the way the first arrow that exists reads, and point at the
	// first step that breaks it.
	forward := len(p) > 1 && slices.Contains(q.deps[p[0]], p[1])
	for i, t := range p {
		u := p[(i+1)%len(p)]
		if forward && !slices.Contains(q.deps[t], u) {
			return t + " does not wait on " + u + ": the drawing has no arrow " + u + " → " + t + "."
		}
		if !forward && !slices.Contains(q.deps[u], t) {
			return u + " does not wait on " + t + ": the drawing has no arrow " + t + " → " + u + "."
		}
	}
	return "That is not a cycle of the graph."
}

// waits writes a cycle as who waits on whom: "a waits on b, b on c".
func waits(path []string) string {
	p := openPath(path)
	var parts []string
	for i, t := range p {
		u := p[(i+1)%len(p)]
		if i == 0 {
			parts = append(parts, t+" waits on "+u)
		} else {
			parts = append(parts, t+" on "+u)
		}
	}
	return strings.Join(parts, ", ")
}

// redriveMistake says which tasks were released or kept wrongly.
func (q Question) redriveMistake(a Answer) string {
	var slips []string
	for _, t := range q.Tasks {
		root, stays := q.Want.Stay[t]
		said, saidStays := a.Stay[t]
		released := slices.Contains(a.Released, t)
		switch {
		case stays && released:
			slips = append(slips, t+" stays BLOCKED: "+root+", upstream of it, is still DEAD")
		case stays && saidStays && said != root:
			slips = append(slips, t+" stays blocked by "+root+", not "+said)
		case !stays && saidStays:
			slips = append(slips, t+" is released: no dependency of it is DEAD or BLOCKED any more")
		}
	}
	if len(slips) == 0 {
		return "Say for each blocked task whether it is released."
	}
	more := ""
	if len(slips) > mistakeMost {
		more = ", and " + wording.Plural(len(slips)-mistakeMost, "more")
		slips = slips[:mistakeMost]
	}
	return strings.Join(slips, "; ") + more + "."
}

// pointMost caps the tasks a mistake points at: beyond a dozen, marks on
// the drawing say no more than the sentence.
const pointMost = 12

// pointAt returns the tasks of the drawing a wrong answer's mistake is
// about, for the page to point at: the task picked and what holds it, the
// changes gone wrong, the cycle and the submitted task, the tasks released
// or kept wrongly and their roots, the task whose reason or timer was
// asked; [pointMost] at most. None for a blank answer or a written
// question. The cost is O(tasks × dependencies).
func (q Question) pointAt(a Answer) []string {
	if q.Missing(a) != "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(ts ...string) {
		for _, t := range ts {
			if _, ok := q.deps[t]; ok && !seen[t] && len(out) < pointMost {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	switch q.Kind {
	case AskNext:
		if a.Nothing {
			add(q.line...)
			break
		}
		add(a.Task)
		switch q.was[a.Task] {
		case "":
			add(q.line...) // no such task: what is READY
		case core.Ready:
			add(q.line[:max(0, slices.Index(q.line, a.Task))]...)
		case core.Pending:
			for _, d := range q.deps[a.Task] {
				if q.was[d] != core.Succeeded {
					add(d)
				}
			}
		}
	case AskReason, AskTimer:
		add(q.Task)
	case AskChanges:
		got := q.normChanges(a.Changes)
		for _, t := range q.Tasks {
			if len(out) == pointMost {
				break
			}
			want, changes := q.Want.Changes[t]
			said, saidIt := got[t]
			if changes != saidIt || changes && said != want {
				add(t)
			}
		}
	case AskCycle:
		add(q.Task)
		if len(q.Want.Path) > 0 {
			add(q.Want.Path...)
		} else {
			add(q.deps[q.Task]...)
		}
	case AskRedrive:
		for _, t := range q.Tasks {
			if len(out) == pointMost {
				break
			}
			root, stays := q.Want.Stay[t]
			said, saidStays := a.Stay[t]
			if stays != saidStays || stays && said != root {
				add(t)
				if stays {
					add(root)
				}
			}
		}
	}
	return out
}
