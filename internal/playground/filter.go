package playground

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dagq/dagq/core"

	"github.com/dagq/dagq/internal/wording"
)

// The state filter: the drawing can show only the tasks in some states
// (say DEAD and BLOCKED in an outage of 400 tasks), the others faded. It
// is chosen by a click on a state's count, and kept in the link as
// show=DEAD,BLOCKED.

// Filter returns the states the drawing shows, in the order of
// [core.States]; nil when it shows every task.
func (p *Page) Filter() []core.State { return p.filter }

// ToggleFilter adds a state to the filter, or takes it away if it is in
// it; taking the last one away shows every task again. A name that is not
// a state changes nothing and returns false.
func (p *Page) ToggleFilter(st core.State) bool {
	if !slices.Contains(core.States(), st) {
		return false
	}
	if i := slices.Index(p.filter, st); i >= 0 {
		p.filter = slices.Delete(slices.Clone(p.filter), i, i+1)
	} else {
		p.filter = sortStates(append(slices.Clone(p.filter), st))
	}
	if len(p.filter) == 0 {
		p.filter = nil
	}
	return true
}

// ClearFilter shows every task again.
func (p *Page) ClearFilter() { p.filter = nil }

// sortStates puts states in the order of core.States.
func sortStates(sts []core.State) []core.State {
	all := core.States()
	slices.SortFunc(sts, func(a, b core.State) int { return slices.Index(all, a) - slices.Index(all, b) })
	return sts
}

// FilterNote says what the filter shows at the step shown, "Showing only
// DEAD and BLOCKED: 33 of the 405 tasks at this step.", or "" without a
// filter. It counts the tasks submitted by the step, unlike the counts'
// "of 444 tasks", which counts the whole script's. The cost is
// O(states).
func (p *Page) FilterNote() string {
	if len(p.filter) == 0 {
		return ""
	}
	n := 0
	names := make([]string, len(p.filter))
	for i, st := range p.filter {
		n += p.s.Count(st)
		names[i] = string(st)
	}
	all := 0
	for _, st := range core.States() {
		all += p.s.Count(st)
	}
	if all == 0 {
		return "Showing only " + andList(names) + ": no task is submitted at this step."
	}
	return "Showing only " + andList(names) + ": " + fmt.Sprintf("%d of the %s at this step.", n, wording.Plural(all, "task"))
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// parseFilter reads a link's show=STATE,… (names in any case); a name
// that is not a state is reported and left out.
func parseFilter(v string, bad func(param, value, msg string)) []core.State {
	var out []core.State
	for _, name := range strings.Split(v, ",") {
		st := core.State(strings.ToUpper(strings.TrimSpace(name)))
		switch {
		case !slices.Contains(core.States(), st):
			names := make([]string, 0, len(core.States()))
			for _, s := range core.States() {
				names = append(names, string(s))
			}
			bad("show", v, fmt.Sprintf("unknown state %q (want %s)", clipParam(name), orList(names)))
		case !slices.Contains(out, st):
			out = append(out, st)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return sortStates(out)
}
