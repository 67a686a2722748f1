package playground

import (
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"

	"github.com/dagq/dagq/internal/wording"
)

// Do says what the page does for a click or a key on a task.
type Do uint8

const (
	// DoNothing: nothing to do.
	DoNothing Do = iota
	// DoCommand: act with Action.Command ([Page.Act]).
	DoCommand
	// DoPopover: offer Action.Popover's buttons beside the task.
	DoPopover
	// DoNotice: say Action.Notice; nothing can be done to the task.
	DoNotice
)

// Action is what a click on a task or a panel does.
type Action struct {
	Do      Do
	Command string  // DoCommand
	Popover Popover // DoPopover
	Notice  string  // DoNotice
}

// Popover offers what can be done to a RUNNING task (complete, or fail with
// an error text) or a DEAD one (redrive).
type Popover struct {
	Task      string
	Title     string   // "a is RUNNING"
	Note      string   // a DEAD task's reason and what it blocks
	Buttons   []Button // in order; the first takes the focus
	ErrorText bool     // offer a field for the error text of a failure
}

// Button is a button of a popover or a panel; Action is the command's
// verb ("complete", "fail", "redrive").
type Button struct {
	Action, Label, Class string
}

// ClickTask decides what a click (or Enter, or Space) on a task in the
// drawing or the READY line does, at the step shown: the front READY
// task is handed out (next); a RUNNING one offers complete and fail; a
// DEAD one, redrive; the others say why nothing can be done. Acting at an
// earlier step branches (see [Page.Act]).
func (p *Page) ClickTask(task string) Action {
	if p.live != "" {
		return Action{Do: DoNotice, Notice: task + " is " + stateOrNone(p.s.State(task)) + " in the live DAG: its workers change it, not this page."}
	}
	s := p.s
	switch st := s.State(task); st {
	case core.Ready:
		line := s.Ready()
		if len(line) > 0 && line[0] == task {
			return Action{Do: DoCommand, Command: "next"}
		}
		pos := 0
		for i, t := range line {
			if t == task {
				pos = i + 1
			}
		}
		return Action{Do: DoNotice, Notice: "Only the front of the READY line can be handed out: next gives " + line[0] +
			" first; " + task + " is number " + strconv.Itoa(pos) + " in line."}
	case core.Running:
		return Action{Do: DoPopover, Popover: Popover{
			Task: task, Title: task + " is RUNNING",
			Buttons:   []Button{{"complete", "✓ Complete", "primary"}, {"fail", "✗ Fail", "danger"}},
			ErrorText: true,
		}}
	case core.Dead:
		poisoned := p.poisoned()[task]
		pop := Popover{Task: task, Title: task + " is DEAD", Buttons: []Button{redriveButton(poisoned, "primary")}}
		for _, d := range s.DLQ() {
			if d.Task == task {
				pop.Note = d.Reason + "; blocks " + wording.Plural(d.Blocks, "task") + "."
			}
		}
		if poisoned {
			pop.Note += " Poisoned, it needs a human: only a forced redrive moves it."
		}
		return Action{Do: DoPopover, Popover: pop}
	case core.Pending:
		var waits []string
		for _, n := range s.Graph() {
			if n.Task == task {
				for _, d := range n.Deps {
					if s.State(d) != core.Succeeded {
						waits = append(waits, d)
					}
				}
			}
		}
		return Action{Do: DoNotice, Notice: task + " is PENDING: it waits on " + wording.Names(waits, 6) + "."}
	case core.Blocked:
		root := ""
		for _, d := range s.DLQ() {
			if d.Task == task {
				root = d.Root
			}
		}
		return Action{Do: DoNotice, Notice: task + " is BLOCKED by " + root + ", which is DEAD: redrive " + root + " to release it."}
	case core.Succeeded:
		return Action{Do: DoNotice, Notice: task + " has SUCCEEDED: nothing is left to do with it."}
	case "":
		if task == "" {
			return Action{}
		}
		return Action{Do: DoNotice, Notice: task + " has not been submitted at this step: type submit " + task + " … in the command box."}
	}
	return Action{}
}

// redriveButton is the button that redrives a DEAD task: for a task past
// the poison-pill cap, the forced redrive (redrive!), since the queue
// refuses it a plain one.
func redriveButton(poisoned bool, class string) Button {
	if poisoned {
		return Button{"redrive!", "↻ Force redrive", class}
	}
	return Button{"redrive", "↻ Redrive", class}
}

// poisoned returns the DEAD tasks past the poison-pill cap at the step
// shown. The cost is O(entries of the dead-letter queue).
func (p *Page) poisoned() map[string]bool {
	var m map[string]bool
	for _, d := range p.s.DeadLetters() {
		if d.State == core.Dead && d.Poisoned {
			if m == nil {
				m = map[string]bool{}
			}
			m[d.Task] = true
		}
	}
	return m
}

// PopoverCommand returns the command a popover's button stands for:
// "complete T", "redrive T", "redrive! T", or "fail T ERROR" with the error text typed
// in the popover (cut at a #, which would start a comment, and its spaces
// squeezed).
func PopoverCommand(action, task, errText string) string {
	cmd := action + " " + task
	if action == "fail" {
		msg, _, _ := strings.Cut(errText, "#")
		if msg = strings.Join(strings.Fields(msg), " "); msg != "" {
			cmd += " " + msg
		}
	}
	return cmd
}

// PopoverTop returns where a popover of height h goes, down the page: under
// its task (below, the task's bottom and a gap), unless it would run past
// limit (the bottom of the screen, or the top of a timeline stuck to it,
// which would cover its buttons), and there is room above the task (above,
// the task's top less the gap, ≥ h from the screen's top, top): then over
// it. All in the same pixels.
func PopoverTop(below, above, h, top, limit float64) float64 {
	if below+h > limit && above-h >= top {
		return above - h
	}
	return below
}
