package queuetest

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
)

// check reads the queue through the interface and holds what it says to the
// model and to the invariants of [core]. It returns the first
// violation, or nil.
//
// It checks:
//
//   - the clock, the state of every name used and the READY line are the
//     model's (invariant 4: ReadyTasks is the order tasks became READY);
//   - the state table's facts: a READY, RUNNING, DELAYED, SUCCEEDED or
//     DEAD task has every dependency SUCCEEDED, a PENDING task at least one
//     not SUCCEEDED; a BLOCKED task has a DEAD transitive dependency and a
//     PENDING one none; the graph is acyclic;
//   - invariant 1: no PENDING task has a DEAD or BLOCKED dependency;
//   - invariant 2: every BLOCKED task's reason is "blocked by R", R DEAD
//     now and a transitive dependency of the task;
//   - invariant 3: the DLQ holds exactly the DEAD and BLOCKED tasks, in the
//     order the events put them there, each entry's fields agreeing with
//     the task (State, Root, Attempts, Entered in order and not after now,
//     a DEAD reason "failed after N attempt(s): ERR" with N at most
//     MaxAttempts and ending in Error, Poisoned only under PoisonAfter;
//     Fingerprint and BlastRadius, if the implementation fills them, as
//     core computes them);
//   - invariant 6: no lease deadline and no due time is at or before now.
//
// The cost is O(n·(n+e)) for n tasks and e edges, plus one Status per name.
func (m *model) check(q Queue) error {
	ctx := context.Background()
	got, err := q.Now(ctx)
	if err != nil {
		return fmt.Errorf("Now: %v", err)
	}
	if got != m.now {
		return fmt.Errorf("Now() = %v, want %v", got, m.now)
	}
	for _, n := range m.names {
		s, ok, err := q.Status(ctx, n)
		if err != nil {
			return fmt.Errorf("Status(%q): %v", n, err)
		}
		if s != m.state[n] || ok != m.isTask(n) {
			return fmt.Errorf("Status(%q) = %q, %v; the events say %s", n, s, ok, orNone(m.state[n]))
		}
	}
	ready, err := q.ReadyTasks(ctx)
	if err != nil {
		return fmt.Errorf("ReadyTasks: %v", err)
	}
	if got := ready; !slices.Equal(got, m.fifo) && (len(got) > 0 || len(m.fifo) > 0) {
		return fmt.Errorf("invariant 4: ReadyTasks() = %q, want %q, the order tasks became READY", got, m.fifo)
	}
	if cyc := findCycle(m.tasks, m.deps); cyc != nil {
		return fmt.Errorf("the graph of submitted tasks has a cycle: %s", strings.Join(cyc, " -> "))
	}
	deadUp := m.deadUpstream()
	for _, t := range m.tasks {
		s := m.state[t]
		switch s {
		case core.Ready, core.Running, core.Delayed, core.Succeeded, core.Dead:
			for _, d := range m.deps[t] {
				if ds := m.state[d]; ds != core.Succeeded {
					return fmt.Errorf("%s task %q has dependency %q in state %s, want SUCCEEDED", s, t, d, orNone(ds))
				}
			}
		case core.Pending:
			waiting := 0
			for _, d := range m.deps[t] {
				switch ds := m.state[d]; ds {
				case core.Dead, core.Blocked:
					return fmt.Errorf("invariant 1: PENDING task %q has %s dependency %q (a silent hang)", t, ds, d)
				case core.Succeeded:
				default:
					waiting++
				}
			}
			if waiting == 0 {
				return fmt.Errorf("PENDING task %q has every dependency SUCCEEDED (%q), want READY", t, m.deps[t])
			}
			if len(deadUp[t]) > 0 {
				return fmt.Errorf("invariant 1: PENDING task %q has DEAD transitive dependencies %q, want BLOCKED", t, deadUp[t])
			}
		case core.Blocked:
			if len(deadUp[t]) == 0 {
				return fmt.Errorf("BLOCKED task %q has no DEAD transitive dependency", t)
			}
		}
	}
	// Invariant 6: whatever the clock reached has fired.
	for task, x := range m.timers {
		if x.at <= m.now && m.now != math.MaxInt64 { // at the end of time, it fires at the next advance
			return fmt.Errorf("invariant 6: %s task %q has a timer at %v, but the clock is at %v", m.state[task], task, x.at, m.now)
		}
	}
	if m.lastDLQ, err = q.DeadLetters(ctx); err != nil {
		return fmt.Errorf("DeadLetters: %v", err)
	}
	return m.checkDeadLetters(m.lastDLQ, deadUp)
}

// checkDeadLetters checks invariants 2 and 3 on the DLQ as read.
func (m *model) checkDeadLetters(dlq []core.DeadLetter, deadUp map[string][]string) error {
	tasks := make([]string, len(dlq))
	for i, d := range dlq {
		tasks[i] = d.Task
	}
	if !slices.Equal(tasks, m.dlq) && (len(tasks) > 0 || len(m.dlq) > 0) {
		return fmt.Errorf("invariant 3: DeadLetters() holds %q, want the DEAD and BLOCKED tasks in the order they entered, %q", tasks, m.dlq)
	}
	blast := map[string]int{}
	fills := false // whether the implementation keeps blast radii
	for _, d := range dlq {
		if d.State == core.Blocked {
			blast[d.Root]++
		}
		fills = fills || d.BlastRadius != 0
	}
	for i, d := range dlq {
		s := m.state[d.Task]
		if d.State != s {
			return fmt.Errorf("invariant 3: DeadLetters[%d] = %+v has State %s, but the task is %s", i, d, d.State, s)
		}
		if d.Attempts != m.attempts[d.Task] {
			return fmt.Errorf("DeadLetters[%d] = %+v has Attempts %d, but it was handed out %d times", i, d, d.Attempts, m.attempts[d.Task])
		}
		if d.Entered > m.now || i > 0 && d.Entered < dlq[i-1].Entered {
			return fmt.Errorf("invariant 3: DeadLetters[%d] = %+v entered at %v: after now %v or before the entry ahead of it", i, d, d.Entered, m.now)
		}
		switch s {
		case core.Blocked:
			if d.Reason != "blocked by "+d.Root || d.Error != "" || d.Fingerprint != "" || d.BlastRadius != 0 || d.Poisoned {
				return fmt.Errorf("invariant 2: BLOCKED entry %+v: want Reason \"blocked by\" its Root, and no Error, Fingerprint, BlastRadius or Poisoned", d)
			}
			if rs := m.state[d.Root]; rs != core.Dead {
				return fmt.Errorf("invariant 2: BLOCKED task %q is %q but %q is %s, not DEAD", d.Task, d.Reason, d.Root, orNone(rs))
			}
			if !slices.Contains(deadUp[d.Task], d.Root) {
				return fmt.Errorf("invariant 2: BLOCKED task %q is %q but %q is not a transitive dependency of it", d.Task, d.Reason, d.Root)
			}
		case core.Dead:
			if d.Root != "" {
				return fmt.Errorf("DEAD entry %+v has a Root", d)
			}
			if err := checkDeadReason(d.Reason, d.Error, m.cfg.MaxAttempts); err != nil {
				return fmt.Errorf("invariant 3: DEAD entry %+v: %v", d, err)
			}
			if d.Poisoned != m.poisoned[d.Task] {
				return fmt.Errorf("DEAD entry %+v: Poisoned %v, but its dead event said %v", d, d.Poisoned, m.poisoned[d.Task])
			}
			if d.Fingerprint != "" && d.Fingerprint != core.Fingerprint(d.Error) {
				return fmt.Errorf("DEAD entry %+v: Fingerprint, want %q", d, core.Fingerprint(d.Error))
			}
			if fills && d.BlastRadius != blast[d.Task] {
				return fmt.Errorf("DEAD entry %+v: BlastRadius, want the %d BLOCKED entries naming it", d, blast[d.Task])
			}
		default:
			return fmt.Errorf("invariant 3: DeadLetters lists %q, which is %s", d.Task, orNone(s))
		}
	}
	return nil
}

// deadReasonRE is the form of a DEAD task's reason: "failed after 1
// attempt: ERR", "failed after N attempts: ERR", and "permanent failure
// after …" for a permanent error.
var deadReasonRE = regexp.MustCompile(`^(?:failed|permanent failure) after ([1-9][0-9]*) (attempts?): `)

// checkDeadReason checks a DEAD reason: its form, 1 ≤ N ≤ max, the plural
// agreeing with N, and the error at its end.
func checkDeadReason(reason, errText string, max int) error {
	m := deadReasonRE.FindStringSubmatch(reason)
	if m == nil {
		return fmt.Errorf("reason %q, want \"failed after N attempts: ERR\" or \"permanent failure after N attempts: ERR\"", reason)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > max {
		return fmt.Errorf("reason %q counts %s attempts, want 1..%d", reason, m[1], max)
	}
	if want := plural(n); m[2] != want {
		return fmt.Errorf("reason %q, want %q after %d", reason, want, n)
	}
	if rest := reason[len(m[0]):]; rest != errText {
		return fmt.Errorf("reason %q ends in %q, but the error is %q", reason, rest, errText)
	}
	return nil
}

// plural is "attempt" for 1 and "attempts" otherwise.
func plural(n int) string {
	if n == 1 {
		return "attempt"
	}
	return "attempts"
}

// deadReason is the reason of a task that died at attempt n with msg.
func deadReason(n int, msg string, permanent bool) string {
	if permanent {
		return fmt.Sprintf("permanent failure after %d %s: %s", n, plural(n), msg)
	}
	return fmt.Sprintf("failed after %d %s: %s", n, plural(n), msg)
}

// findCycle returns a cycle of the graph (first and last the same task), or
// nil if it is acyclic. Names that are not tasks have no dependencies.
func findCycle(tasks []string, deps map[string][]string) []string {
	const (
		white = iota
		grey
		black
	)
	color := make(map[string]int, len(tasks))
	var stack []string
	var visit func(t string) []string
	visit = func(t string) []string {
		color[t] = grey
		stack = append(stack, t)
		for _, d := range deps[t] {
			switch color[d] {
			case grey:
				i := slices.Index(stack, d)
				return append(slices.Clone(stack[i:]), d)
			case white:
				if c := visit(d); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[t] = black
		return nil
	}
	for _, t := range tasks {
		if color[t] == white {
			if c := visit(t); c != nil {
				return c
			}
		}
	}
	return nil
}

// deadUpstream returns, for each task, its DEAD transitive dependencies.
// The graph must be acyclic.
func (m *model) deadUpstream() map[string][]string {
	memo := make(map[string][]string, len(m.tasks))
	done := make(map[string]bool, len(m.tasks))
	var walk func(t string) []string
	walk = func(t string) []string {
		if done[t] {
			return memo[t]
		}
		var up []string
		for _, d := range m.deps[t] {
			if m.state[d] == core.Dead && !slices.Contains(up, d) {
				up = append(up, d)
			}
			for _, r := range walk(d) {
				if !slices.Contains(up, r) {
					up = append(up, r)
				}
			}
		}
		done[t] = true
		memo[t] = up
		return up
	}
	for _, t := range m.tasks {
		walk(t)
	}
	return memo
}

// checkCyclePath checks that path is a simple cycle through t in the graph
// with the tasks of newDeps (t among them) waiting on their deps instead:
// [t x … t], each step an edge.
func (m *model) checkCyclePath(t string, newDeps map[string][]string, path []string) error {
	if len(path) < 2 || path[0] != t || path[len(path)-1] != t {
		return fmt.Errorf("cycle path %q does not start and end with %q", path, t)
	}
	for i := 1; i < len(path)-1; i++ {
		if path[i] == t || slices.Contains(path[1:i], path[i]) {
			return fmt.Errorf("cycle path %q is not a simple cycle", path)
		}
	}
	for i := 0; i+1 < len(path); i++ {
		from, to := path[i], path[i+1]
		out, ok := newDeps[from]
		if !ok {
			out = m.deps[from]
		}
		if !slices.Contains(out, to) {
			return fmt.Errorf("cycle path %q: %q does not wait on %q", path, from, to)
		}
	}
	return nil
}
