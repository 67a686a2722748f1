package session

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/core/scenario"
)

// errFromState is why a session made from a state takes no command.
var errFromState = errors.New("scenario: this is a queue's state, not a script: there is nothing to add a command to")

// FromState returns a session of no steps whose board at step 0 is b and
// whose graph is nodes: a queue's state read elsewhere (a durable queue's
// DAG), shown without replaying a history. Its text is text, a script of
// comments only (what the page shows in place of a script), and its
// queue's settings are the defaults. It has nothing to step through:
// [Session.Append] and [Session.SetStrategy] refuse, changing nothing.
//
// nodes must be b's tasks in arrival order, each with what it waits on
// and Step 0; the session keeps b and nodes as they are. A text with a
// command, or nodes that are not b's tasks, is an error. The cost is
// O(len(text) + tasks).
func FromState(text string, b *scenario.Board, nodes []scenario.Node, opt scenario.Options) (*Session, error) {
	script, err := scenario.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(script.Commands) > 0 {
		return nil, fmt.Errorf("scenario: a state's text holds comments only, not %s (line %d)", script.Commands[0].Op, script.Commands[0].Line)
	}
	r, err := scenario.NewRunner(script, opt)
	if err != nil {
		return nil, err
	}
	if n := b.Len(); n != len(nodes) {
		return nil, fmt.Errorf("scenario: a board of %d tasks with a graph of %d", n, len(nodes))
	}
	for i, nd := range nodes {
		if t := b.Task(i); nd.Task != t || nd.Step != 0 {
			return nil, fmt.Errorf("scenario: the graph's task %d is %q at step %d, the board's %q at 0", i+1, nd.Task, nd.Step, t)
		}
	}
	// The board is never applied to (no step, nothing appended): the
	// session's copies of it can share its maps.
	s := &Session{text: text, opt: opt, runner: r, nodes: nodes, board: *b, end: *b, fromState: true}
	s.marks, s.markAt = []scenario.Board{*b}, []int{0}
	return s, nil
}
