package practice

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"

	"github.com/dagq/dagq/internal/wording"
)

// Answer is a learner's answer, or the right one. Each kind reads its own
// fields and ignores the others. The zero Answer is blank: it answers
// nothing, and [Question.Grade] grades it wrong for every question.
type Answer struct {
	// AskNext: the task handed out; Nothing when the learner says next
	// hands out nothing. Neither is blank.
	Task string
	// Nothing is, for AskNext, "next hands out nothing", and for
	// AskChanges, "nothing changes": an answer said, unlike a blank one.
	Nothing bool
	// AskChanges: the tasks whose state changes, each with its new state.
	// A task given its state before the step counts as unchanged.
	Changes map[string]core.State
	// AskCycle: VerdictAccepted or VerdictRefused ("" is blank), and,
	// when a cycle refuses the submit, the cycle: the tasks along it, each
	// waiting on the next. Any cycle of the graph is right, in any
	// rotation, read either way, closed (first task again at the end) or
	// not.
	Verdict string
	Path    []string
	// AskReason, AskTimer, AskPick: the choice picked, one of [Question.Choices].
	Choice string
	// AskRedrive: the blocked tasks released, in any order, and the
	// tasks that stay BLOCKED, each with the DEAD root that holds it. A
	// blocked task in neither is not answered.
	Released []string
	Stay     map[string]string
	// AskWhy: the learner's own words, and the numbers (from 0) of the
	// [Question.Points] the learner, reading the model answer, says were
	// in them.
	Text  string
	Heard []int
}

// The verdicts of an AskCycle answer.
const (
	VerdictAccepted = "accepted"
	VerdictRefused  = "refused"
)

// Field is one named value of the practice form, as the page reads it
// (FormData's entries): the names and values are those [Question.InputsHTML]
// writes.
type Field struct{ Name, Value string }

// The names of the practice form's inputs, and the values that are not
// task names. A task name never holds '*' or '+' (the script's grammar),
// so they cannot be mistaken for one.
const (
	fieldChoice  = "choice"  // a radio: a task, a choice, or a verdict
	fieldPath    = "path"    // the cycle, typed
	fieldNothing = "nothing" // the "nothing changes" checkbox
	fieldTask    = "task:"   // + a task name: its select
	fieldText    = "text"    // a why answer's own words
	fieldHeard   = "heard"   // a checkbox per point heard, its number
	nothingValue = "*"       // the choice "next hands out nothing"
	releaseValue = "+"       // a blocked task's choice "released"
)

// ParseAnswer reads the practice form's fields as an answer to q. What
// the learner left alone stays blank: no radio picked is no choice, a
// select left at its first option is no answer for that task. Fields of
// other questions are ignored.
//
// The cost is O(fields + tasks).
func (q Question) ParseAnswer(fields []Field) Answer {
	var a Answer
	for _, f := range fields {
		switch name := f.Name; {
		case name == fieldChoice:
			switch q.Kind {
			case AskNext:
				if f.Value == nothingValue {
					a.Nothing = true
				} else {
					a.Task = f.Value
				}
			case AskCycle:
				a.Verdict = f.Value
			default:
				a.Choice = f.Value
			}
		case name == fieldPath:
			a.Path = ParsePath(f.Value)
		case name == fieldNothing:
			a.Nothing = f.Value != ""
		case name == fieldText:
			a.Text = strings.TrimSpace(f.Value)
		case name == fieldHeard:
			if n, err := strconv.Atoi(f.Value); err == nil && n >= 0 && n < len(q.Points) && !slices.Contains(a.Heard, n) {
				a.Heard = append(a.Heard, n)
			}
		case strings.HasPrefix(name, fieldTask):
			task := name[len(fieldTask):]
			switch {
			case f.Value == "":
			case q.Kind == AskChanges:
				if a.Changes == nil {
					a.Changes = map[string]core.State{}
				}
				a.Changes[task] = core.State(f.Value)
			case q.Kind == AskRedrive && f.Value == releaseValue:
				a.Released = append(a.Released, task)
			case q.Kind == AskRedrive:
				if a.Stay == nil {
					a.Stay = map[string]string{}
				}
				a.Stay[task] = f.Value
			}
		}
	}
	slices.Sort(a.Heard)
	return a
}

// Missing says what an answer lacks before it can be graded, as the page
// shows it beside Check; "" when it can be graded. A blank answer always
// lacks something: the page never grades it. An AskWhy answer lacks only
// its words: the points ticked afterwards may be none, a miss.
func (q Question) Missing(a Answer) string {
	switch q.Kind {
	case AskNext:
		if a.Task == "" && !a.Nothing {
			return "Pick the task next hands out, or “nothing”."
		}
	case AskReason, AskTimer, AskPick:
		if a.Choice == "" {
			return "Pick one of the answers."
		}
	case AskChanges:
		changed := len(q.normChanges(a.Changes)) > 0
		switch {
		case !changed && !a.Nothing:
			return "Pick a new state for each task that changes, or tick “nothing changes”."
		case changed && a.Nothing:
			return "You picked changes and ticked “nothing changes”: choose one."
		}
	case AskCycle:
		if a.Verdict != VerdictAccepted && a.Verdict != VerdictRefused {
			return "Pick accepted or refused."
		}
	case AskRedrive:
		var left []string
		for _, t := range q.Tasks {
			if _, stays := a.Stay[t]; !stays && !slices.Contains(a.Released, t) {
				left = append(left, t)
			}
		}
		if len(left) > 0 {
			return "Say for every blocked task whether it is released or stays blocked, and by which dead task: " + nameList(left) + " " + wording.IsAre(len(left)) + " left."
		}
	case AskWhy:
		if a.Text == "" {
			return "Write your answer first, as you would say it in the interview."
		}
	}
	return ""
}
