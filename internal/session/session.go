// Package session is the playground's state: a scenario script being
// watched and extended ([Session]), its steps, a cursor that moves over
// them, the board at the cursor, the log and the dead-letter queue as the
// page shows them. It runs scripts with package scenario's [scenario.Runner].
package session

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"

	"github.com/dagq/dagq/internal/wording"
)

// markEvery is the fewest steps apart a Session keeps a copy of the board:
// seeking backwards replays the steps since the last copy. Copies are
// also at least half the board's size in events apart, so that copying
// costs less than applying the events: a script of 5,000 tasks and 15,000
// steps once spent half its running time copying boards, and a quarter
// still spent as much in the browser copying as applying.
const markEvery = 64

// Session is a script being watched and extended, as the playground does:
// the script's text, every step it ran (each with its events), and a cursor
// that moves over them. Step k of n is the state after the k-th command;
// step 0 is before the first one.
//
// Commands added with [Session.Append] are run and written at the end of the
// text, so the text is always the exact record of what happened: running it
// afresh gives the same steps.
//
// The board at any step is the fold of the events of the steps up to it
// ([scenario.Board]); a Session keeps a copy every 64 steps or more (see markEvery),
// so moving the cursor back replays at most that many steps. A Session is
// not safe for concurrent use.
type Session struct {
	text    string
	opt     scenario.Options
	runner  *scenario.Runner
	steps   []scenario.Step
	stopped *scenario.ExpectError // the failed expect that stopped the run, if any
	nodes   []scenario.Node       // every task submitted, in arrival order
	// deps holds the Deps of nodes, end to end, so that a submit costs no
	// allocation of its own; sized for the script's submits.
	deps []string

	cursor int
	board  scenario.Board   // the board at the cursor
	marks  []scenario.Board // marks[i] is the board after step markAt[i]
	markAt []int            // ascending; markAt[0] is 0
	since  int              // events recorded since the last mark
	end    scenario.Board   // the board after the last step run
	lines  []int            // lines[k] is the number of log lines of steps 1…k
	// redrives are the steps run whose events start a bulk redrive,
	// ascending (see RedriveStartedBy).
	redrives []int

	// pending are the script's commands not run yet, in order. New
	// runs the commands up to the script's last submit and last expect
	// (every step's graph and the number of steps depend on those) and
	// leaves the rest to be run when a step among them is first asked for
	// (ensure), or by RunAhead: no command left can stop the run, so the
	// steps are as many as the commands.
	pending []scenario.Command

	// fromState: the session was made from a state (FromState), not by a
	// run; it has no steps, and nothing can be appended.
	fromState bool
}

// DLQEntry is an entry of the dead-letter queue as the playground shows it.
type DLQEntry struct {
	Task   string
	State  core.State // DEAD or BLOCKED
	Reason string     // "failed after N attempts: ERR" or "blocked by ROOT"
	Root   string     // BLOCKED: the dead task upstream; "" for DEAD
	Blocks int        // DEAD: how many BLOCKED tasks name it as their root
}

// LogEntry is one line of a session's log: an event, or what a step that
// changed no state did.
type LogEntry struct {
	Step int    // the step, 1-based
	Line int    // the command's line in the script
	Kind string // the event kind ("submitted", "blocked", …), or "error" or "note"
	Task string // the task the line is about; "" if none
	Text string // e.g. "b PENDING → BLOCKED: blocked by a"
}

// New parses a script and runs it with opt, the cursor at step 0.
// Its submits always name the tasks their cycle check reached (see
// [Session.Visited]), whatever opt.Visited says.
// It fails with a [*scenario.SyntaxError] for a script that does not parse and with
// an error for an unknown strategy. A failed expect stops the run, as in
// [scenario.Run]: the steps end with it and [Session.Stopped] returns the
// [*scenario.ExpectError].
//
// It runs the commands up to the script's last submit and last expect;
// the rest run when a step among them is first asked for, or with
// [Session.RunAhead], and every method answers as if all had run. The cost
// is O(s + e) for the s steps run, with e events in all.
func New(text string, opt scenario.Options) (*Session, error) {
	script, err := scenario.Parse(text)
	if err != nil {
		return nil, err
	}
	opt.Visited = true
	r, err := scenario.NewRunner(script, opt)
	if err != nil {
		return nil, err
	}
	s := &Session{text: text, opt: opt, runner: r, steps: make([]scenario.Step, 0, len(script.Commands))}
	s.marks, s.markAt = []scenario.Board{{}}, []int{0}
	s.pending = script.Commands
	first, submits, deps := 0, 0, 0 // how many commands to run now; how many submit, with how many dependencies
	for i, c := range script.Commands {
		if c.Op == scenario.OpSubmit || c.Op == scenario.OpExpect {
			first = i + 1
		}
		if c.Op == scenario.OpSubmit {
			submits++
			deps += len(c.Deps)
		}
	}
	// The runner's queue is sized for the script's submits (each at most
	// one task) by NewRunner; the graph is too: a live DAG's export submits
	// 10⁵ of them.
	s.nodes, s.deps = make([]scenario.Node, 0, submits), make([]string, 0, deps)
	s.run(first)
	return s, nil
}

// run runs the next n commands not run yet (fewer if fewer are left), and
// stops the run at a failed expect.
func (s *Session) run(n int) {
	for ; n > 0 && len(s.pending) > 0; n-- {
		c := s.pending[0]
		s.pending = s.pending[1:]
		st := s.runner.Exec(c)
		s.record(st)
		if c.Op == scenario.OpExpect && !st.OK {
			s.stopped = &scenario.ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: st.State}
			s.pending = nil
		}
	}
	if len(s.pending) == 0 {
		s.pending = nil
	}
}

// ensure runs the commands up to step k, if they have not run yet.
func (s *Session) ensure(k int) {
	if k > len(s.steps) {
		s.run(k - len(s.steps))
	}
}

// RunAhead runs up to n of the commands not run yet and returns how many
// are left. Steps are run when first asked for, and the commands after a
// script's last submit and last expect are left for then: a page shows a
// long script's first step before it has run its last, and runs the rest
// a little at a time with RunAhead.
func (s *Session) RunAhead(n int) (left int) {
	s.run(n)
	return len(s.pending)
}

// Command returns the command of step k, 1 ≤ k ≤ Len, without running it.
func (s *Session) Command(k int) scenario.Command {
	if k <= len(s.steps) {
		return s.steps[k-1].Command
	}
	return s.pending[k-len(s.steps)-1]
}

// record appends a step that was run, keeping the end board, the marks and
// the graph up to date.
func (s *Session) record(st scenario.Step) {
	s.steps = append(s.steps, st)
	k := len(s.steps)
	s.end.ApplyAll(st.Events)
	for i := range st.Events {
		e := &st.Events[i]
		if e.Kind == core.EventRedriveStarted && (len(s.redrives) == 0 || s.redrives[len(s.redrives)-1] != k) {
			s.redrives = append(s.redrives, k)
		}
		if e.Kind == core.EventSubmitted {
			var deps []string
			if len(e.Deps) > 0 {
				from := len(s.deps)
				s.deps = append(s.deps, e.Deps...)
				deps = s.deps[from:len(s.deps):len(s.deps)]
			}
			s.nodes = append(s.nodes, scenario.Node{Task: e.Task, Deps: deps, Step: k})
		}
	}
	s.since += len(st.Events)
	if k-s.markAt[len(s.markAt)-1] >= markEvery && s.since >= len(s.nodes)/2 {
		s.marks, s.markAt = append(s.marks, *s.end.Clone()), append(s.markAt, k)
		s.since = 0
	}
}

// Text returns the script: the text the session was made from, followed by
// every command appended since, one canonical line each.
func (s *Session) Text() string { return s.text }

// Strategy returns the cycle-check strategy the session runs with.
func (s *Session) Strategy() string { return s.runner.Queue().Config().Strategy }

// Attempts returns the max attempts of the session's queue.
func (s *Session) Attempts() int { return s.runner.Queue().Config().MaxAttempts }

// Options returns the options the session runs with.
func (s *Session) Options() scenario.Options { return s.opt }

// Stopped returns the [*scenario.ExpectError] of a failed expect that stopped the
// run, or nil if every command ran.
func (s *Session) Stopped() error {
	if s.stopped == nil {
		return nil
	}
	return s.stopped
}

// Len returns n, the number of steps: one per command run, or to be run
// (see RunAhead).
func (s *Session) Len() int { return len(s.steps) + len(s.pending) }

// Cursor returns k, the step shown: 0 before the first command, Len after
// the last.
func (s *Session) Cursor() int { return s.cursor }

// Step returns the k-th step, 1 ≤ k ≤ Len.
func (s *Session) Step(k int) scenario.Step {
	s.ensure(k)
	return s.steps[k-1]
}

// Seek moves the cursor to step k, clamped to 0…Len; [scenario.StepEnd] means Len.
// It returns the new cursor. Moving forward applies the events of the steps
// in between; moving back replays the steps since the last kept board
// before k (64 or more, see markEvery).
func (s *Session) Seek(k int) int {
	if k == scenario.StepEnd || k > s.Len() {
		k = s.Len()
	}
	k = max(k, 0)
	s.ensure(k)
	// The kept board nearest before k.
	m, found := slices.BinarySearch(s.markAt, k)
	if !found {
		m--
	}
	switch {
	case k == s.cursor:
	case k > s.cursor && (s.cursor >= s.markAt[m] || k-s.cursor <= markEvery):
		// The cursor is before k and nearer, or a few steps before it.
		s.apply(s.cursor, k)
	case k == len(s.steps):
		s.board = *s.end.Clone()
	default:
		s.board = *s.marks[m].Clone()
		s.apply(s.markAt[m], k)
	}
	s.cursor = k
	return k
}

// apply folds the events of steps from+1…to into the board at the cursor.
func (s *Session) apply(from, to int) {
	for k := from; k < to; k++ {
		s.board.ApplyAll(s.steps[k].Events)
	}
}

// Forward moves the cursor one step on; false, not moving, at the end.
func (s *Session) Forward() bool {
	if s.cursor >= s.Len() {
		return false
	}
	s.Seek(s.cursor + 1)
	return true
}

// Back moves the cursor one step back; false, not moving, at step 0.
func (s *Session) Back() bool {
	if s.cursor == 0 {
		return false
	}
	s.Seek(s.cursor - 1)
	return true
}

// Append adds one command at the end of the script and runs it; the cursor
// moves to the end. cmd is one line of the language (a comment is dropped);
// the text grows by its canonical form ([scenario.Command.String]) on a line of its
// own, so that the text stays the exact record of the run:
//
//   - a command the queue refuses (a cyclic submit, completing a task that is
//     not RUNNING, …) is recorded as a refused step, as in a script run, and
//     Append returns nil;
//   - a line that does not parse, or that breaks a rule of the script (an
//     attempts line after a submit), changes nothing and returns a
//     [*scenario.SyntaxError] whose line is 1 and whose column is within cmd;
//   - an expect that does not hold changes nothing and returns the
//     [*scenario.ExpectError] (in a script it would stop the run; here it only
//     answers);
//   - after a failed expect stopped the run, nothing more can be appended
//     until the script is fixed: Append returns an error.
//
// A line of the queue's settings (attempts, strategy, lease, backoff,
// jitter), allowed only before the first submit, makes the queue anew from
// the whole text. The cost is O(len(text)) to check the
// script, plus the command's own cost.
func (s *Session) Append(cmd string) error {
	if strings.ContainsAny(cmd, "\n\r") {
		return &scenario.SyntaxError{Line: 1, Col: 1 + strings.IndexAny(cmd, "\n\r"), Msg: "one command at a time: the line holds a line break"}
	}
	one, err := scenario.Parse(cmd)
	if err != nil {
		return err
	}
	if len(one.Commands) == 0 {
		return &scenario.SyntaxError{Line: 1, Col: 1, Msg: "no command (want " + orList(commandNames()) + ")"}
	}
	c := one.Commands[0]
	if s.fromState {
		return errFromState
	}
	s.run(len(s.pending))
	if s.stopped != nil {
		return fmt.Errorf("scenario: the run stopped at line %d (%s); fix the script before adding commands", s.stopped.Line, describe(s.stopped))
	}
	text := s.text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += c.String() + "\n"
	script, err := scenario.Parse(text)
	if err != nil {
		var se *scenario.SyntaxError
		if errors.As(err, &se) {
			return &scenario.SyntaxError{Line: 1, Col: c.Col, Msg: se.Msg}
		}
		return err
	}
	if setting(c.Op) {
		fresh, err := New(text, s.opt)
		if err != nil {
			return err
		}
		*s = *fresh
		s.Seek(scenario.StepEnd)
		return nil
	}
	c = script.Commands[len(script.Commands)-1]
	if c.Op == scenario.OpExpect {
		if got, _ := s.runner.Queue().Status(c.Task); got != c.Want {
			return &scenario.ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: got}
		}
	}
	s.text = text
	s.record(s.runner.Exec(c))
	s.Seek(scenario.StepEnd)
	return nil
}

// SetStrategy runs the script again with another cycle-check strategy
// ("" for the script's own), keeping the cursor. Only the visit counts can
// differ: every strategy finds the same cycles.
func (s *Session) SetStrategy(name string) error {
	if s.fromState {
		return errFromState
	}
	opt := s.opt
	opt.Strategy = name
	fresh, err := New(s.text, opt)
	if err != nil {
		return err
	}
	k := s.cursor
	*s = *fresh
	s.Seek(k)
	return nil
}

// Board returns a copy of the board at the cursor. The cost is
// O(tasks + entries): what needs only the dead-letter queue asks
// [Session.DeadLetters], [Session.DeadLetterGroups] or [Session.Alert].
func (s *Session) Board() *scenario.Board { return s.board.Clone() }

// DeadLetters returns the dead-letter queue at the cursor, as
// [scenario.Board.DeadLetters] does, without copying the board. The cost
// is O(entries).
func (s *Session) DeadLetters() []core.DeadLetter { return s.board.DeadLetters() }

// DeadLetterGroups returns the dead-letter queue's DEAD entries at the
// cursor grouped by fingerprint, as [scenario.Board.DeadLetterGroups] does,
// without copying the board. The cost is O(entries).
func (s *Session) DeadLetterGroups() []core.DeadLetterGroup { return s.board.DeadLetterGroups() }

// Alert reports whether the dead-letter queue's growth alert is raised at
// the cursor, and the rule it was last raised by (see
// [scenario.Board.AlertRule]). The cost is O(1).
func (s *Session) Alert() (raised bool, count int, window time.Duration) {
	count, window = s.board.AlertRule()
	return s.board.Alerting(), count, window
}

// RedriveStartedBy returns the last step at or before step k whose events
// start a bulk redrive ([core.EventRedriveStarted]); false if none does.
// The cost is O(log r) for the r steps that start one, once step k has
// run.
func (s *Session) RedriveStartedBy(k int) (int, bool) {
	s.ensure(k)
	i, found := slices.BinarySearch(s.redrives, k)
	if found {
		return k, true
	}
	if i == 0 {
		return 0, false
	}
	return s.redrives[i-1], true
}

// State returns the state of a task at the cursor; "" if not submitted by
// then.
func (s *Session) State(task string) core.State { return s.board.State(task) }

// States returns the state of every task submitted by the cursor.
func (s *Session) States() map[string]core.State { return s.board.States() }

// Count returns how many tasks are in state st at the cursor. The cost is
// O(1).
func (s *Session) Count(st core.State) int { return s.board.Count(st) }

// Ready returns the READY line at the cursor, front first.
func (s *Session) Ready() []string { return s.board.Ready() }

// DLQ returns the dead-letter queue at the cursor, in the order tasks
// entered it, with how many tasks each DEAD task blocks.
//
// The cost is O(entries).
func (s *Session) DLQ() []DLQEntry {
	dl := s.board.DeadLetters()
	out := make([]DLQEntry, len(dl))
	blocks := make(map[string]int)
	for i, d := range dl {
		out[i] = DLQEntry{Task: d.Task, State: s.board.State(d.Task), Reason: d.Reason}
		if d.State == core.Blocked {
			out[i].Root = d.Root
			blocks[d.Root]++
		}
	}
	for i := range out {
		if out[i].State == core.Dead {
			out[i].Blocks = blocks[out[i].Task]
		}
	}
	return out
}

// Graph returns the tasks submitted by the cursor, in arrival order, with
// what they wait on.
func (s *Session) Graph() []scenario.Node { return s.GraphAt(s.cursor) }

// GraphAt returns the tasks submitted by step k, in arrival order;
// [scenario.StepEnd] gives every task the script submits.
func (s *Session) GraphAt(k int) []scenario.Node {
	// Every submit has run (see New): the nodes are all there.
	if k == scenario.StepEnd {
		k = s.Len()
	}
	n, _ := slices.BinarySearchFunc(s.nodes, k+1, func(nd scenario.Node, k int) int { return nd.Step - k })
	return s.nodes[:n:n]
}

// Cycle returns the cycle a submit of step k was refused for, first and
// last the submitted task; nil if step k is not a submit refused by a
// cycle.
func (s *Session) Cycle(k int) []string {
	if k < 1 || k > s.Len() {
		return nil
	}
	for _, e := range s.Step(k).Events {
		if e.Kind == core.EventRejected && len(e.Path) > 0 {
			return e.Path
		}
	}
	return nil
}

// Visits returns the edges the cycle check examined for the submit of
// step k; false if step k is not a submit.
func (s *Session) Visits(k int) (uint64, bool) {
	if k < 1 || k > s.Len() || s.Command(k).Op != scenario.OpSubmit {
		return 0, false
	}
	var v uint64
	for _, e := range s.Step(k).Events {
		if e.Kind == core.EventSubmitted || e.Kind == core.EventRejected {
			v += e.Visits
		}
	}
	return v, true
}

// Visited returns the tasks the cycle check of step k reached, each once,
// in the order first reached; nil if step k is not a submit.
func (s *Session) Visited(k int) []string {
	if k < 1 || k > s.Len() || s.Command(k).Op != scenario.OpSubmit {
		return nil
	}
	for _, e := range s.Step(k).Events {
		if e.Kind == core.EventSubmitted || e.Kind == core.EventRejected {
			return e.Visited
		}
	}
	return nil
}

// Log returns the log up to the cursor, oldest first: every event, and a
// line for each step that changed no state (a refused operation, a next
// with nothing READY, an expect that held). It keeps the last limit lines
// (all if limit ≤ 0) and says how many earlier ones it left out.
//
// The cost is O(lines returned + log(steps)), once the steps are counted:
// O(steps) the first time, and for the steps added since.
func (s *Session) Log(limit int) (lines []LogEntry, omitted int) {
	for k := len(s.lines); k <= len(s.steps); k++ {
		if k == 0 {
			s.lines = append(s.lines, 0)
			continue
		}
		s.lines = append(s.lines, s.lines[k-1]+max(1, len(s.steps[k-1].Events)))
	}
	total := s.lines[s.cursor]
	if limit <= 0 || limit > total {
		limit = total
	}
	omitted = total - limit
	// The first step with a line kept: the last whose lines start at or
	// before the first line kept.
	first := sort.Search(s.cursor+1, func(k int) bool { return s.lines[k] > omitted })
	lines = make([]LogEntry, 0, limit)
	for k := max(first, 1); k <= s.cursor; k++ {
		all := s.stepLog(k, s.steps[k-1])
		if skip := omitted - s.lines[k-1]; skip > 0 {
			all = all[skip:]
		}
		lines = append(lines, all...)
	}
	return lines, omitted
}

// stepLog returns the log lines of step k.
func (s *Session) stepLog(k int, st scenario.Step) []LogEntry {
	c := st.Command
	line := func(kind, task, text string) LogEntry {
		return LogEntry{Step: k, Line: c.Line, Kind: kind, Task: task, Text: text}
	}
	if len(st.Events) > 0 {
		out := make([]LogEntry, len(st.Events))
		for i, e := range st.Events {
			out[i] = line(e.Kind.String(), e.Task, e.String())
		}
		return out
	}
	switch {
	case !st.OK:
		return []LogEntry{line("error", c.Task, c.String()+": "+st.Err)}
	case c.Op == scenario.OpNext:
		return []LogEntry{line("note", "", "next: nothing READY, handed out nothing")}
	case c.Op == scenario.OpExpect:
		return []LogEntry{line("note", c.Task, "expect: "+c.Task+" is "+string(st.State))}
	case c.Op == scenario.OpAttempts:
		return []LogEntry{line("note", "", "a task gets at most "+wording.Plural(s.Attempts(), "attempt"))}
	case c.Op == scenario.OpStrategy:
		return []LogEntry{line("note", "", "cycles are checked with "+s.Strategy())}
	}
	return []LogEntry{line("note", c.Task, c.String())}
}

// BoardAt returns a new board of the state after step k (0…Len, or
// [scenario.StepEnd]). The cost is that of seeking there and back.
func (s *Session) BoardAt(k int) *scenario.Board {
	back := s.cursor
	s.Seek(k)
	b := s.Board()
	s.Seek(back)
	return b
}

// commandNames lists the commands of the language, for the error of a line
// with none.
func commandNames() []string {
	var out []string
	for op := scenario.OpAttempts; !strings.HasPrefix(op.String(), "Op("); op++ {
		out = append(out, op.String())
	}
	return out
}

// setting reports whether op sets up the queue: such a line comes before
// the first submit, and the queue is made from all of them.
func setting(op scenario.Op) bool {
	switch op {
	case scenario.OpAttempts, scenario.OpStrategy, scenario.OpLease, scenario.OpBackoff,
		scenario.OpJitter, scenario.OpPoison, scenario.OpAlert:
		return true
	}
	return false
}

// describe says what a failed expect found, as its error does after the
// line and column.
func describe(e *scenario.ExpectError) string {
	msg := e.Error()
	return msg[strings.Index(msg, ": ")+2:]
}

// orList formats "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
