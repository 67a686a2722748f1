package playground

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// Kind is the kind of a practice question, chosen to fit the step it asks
// about.
type Kind uint8

// The kinds of practice question. Each fits some steps only (see
// [Questions]).
const (
	// AskNext: which task does next hand out? Fits every next.
	AskNext Kind = iota + 1
	// AskChanges: which tasks change state, and to what? Fits every step
	// that changes a state, and every refused operation but a refused
	// submit with dependencies (none change).
	AskChanges
	// AskCycle: is this submit refused, and what is the cycle's path? Fits
	// every submit with dependencies, and every refused submit.
	AskCycle
	// AskReason: what reason does the dead-letter queue show for a task?
	// Fits every step after which a task is in the DLQ with a new reason.
	AskReason
	// AskRedrive: which blocked tasks does this redrive release, and which
	// stay blocked, and by whom? Fits every redrive that succeeds while
	// tasks are BLOCKED.
	AskRedrive
	// AskTimer: when does this lease expire, or this retry fall due? Fits
	// a next under leases, a heartbeat that is accepted, and a failure
	// that leaves the task DELAYED.
	AskTimer
)

// Kinds returns every kind of question, in order.
func Kinds() []Kind { return []Kind{AskNext, AskChanges, AskCycle, AskReason, AskRedrive, AskTimer} }

// String returns the kind's name, e.g. "next".
func (k Kind) String() string {
	switch k {
	case AskNext:
		return "next"
	case AskChanges:
		return "changes"
	case AskCycle:
		return "cycle"
	case AskReason:
		return "reason"
	case AskRedrive:
		return "redrive"
	case AskTimer:
		return "timer"
	}
	return "unknown"
}

// Answer is a learner's answer, or the right one. Each kind reads its own
// fields and ignores the others.
type Answer struct {
	// AskNext: the task handed out; "" for none.
	Task string
	// AskChanges: the tasks whose state changes, each with its new state.
	// A task given its state before the step counts as unchanged.
	Changes map[string]core.State
	// AskCycle: whether the submit is refused, and, when a cycle refuses
	// it, the cycle: first and last the submitted task, each task waiting
	// on the next. Any cycle through the submitted task is right.
	Refused bool
	Path    []string
	// AskReason, AskTimer: the choice picked, one of [Question.Choices].
	Choice string
	// AskRedrive: the blocked tasks released, in any order, and the
	// tasks that stay BLOCKED, each with the DEAD root that holds it.
	Released []string
	Stay     map[string]string
}

// Question is one prediction asked before a step plays. The session shows
// step Step−1 while it is asked; the answer is graded against what step
// Step did ([Question.Grade]).
type Question struct {
	Step    int    // the step it asks about, from 1
	Kind    Kind   // what it asks
	Topic   Topic  // the rule it tests
	Command string // the command about to run, in canonical form
	Prompt  string // the question, one sentence
	// Task is the task asked about, for AskReason and AskTimer.
	Task string
	// Choices are the answers to pick from, for AskNext (task names, ""
	// for nothing), AskReason and AskTimer; the right one among them.
	Choices []string
	// Tasks are the tasks to decide, for AskChanges (every task there is
	// at the step, the submitted one included) and AskRedrive (every
	// BLOCKED task before the step).
	Tasks []string
	// States are the states to pick from, for AskChanges.
	States []core.State
	// Roots are the DEAD tasks before the step, for AskRedrive: what may
	// still hold a blocked task.
	Roots []string
	// Want is the right answer.
	Want Answer
	// Why says why the right answer is right, naming the rule.
	Why string
	// Probe is what an interviewer might ask next.
	Probe string

	// deps is the graph a cycle answer is checked against: each task's
	// dependencies, the submitted task's included (AskCycle only).
	deps map[string][]string
	// was is each task's state before the step ("" for the submitted
	// task), for AskChanges: an answer giving a task its old state leaves
	// it unchanged.
	was map[string]core.State
}

// Questions returns the questions that fit step k of a session, in the
// order practice asks them; none for a step that changes nothing and is
// not refused (settings, expect, a next with nothing READY, a dlq view).
// It leaves the session's cursor where it was.
//
// The cost is two seeks of the session and O(tasks) per question.
func Questions(s *scenario.Session, k int) []Question {
	if k < 1 || k > s.Len() {
		return nil
	}
	st := s.Step(k)
	c := st.Command
	switch c.Op {
	case scenario.OpAttempts, scenario.OpStrategy, scenario.OpExpect, scenario.OpLease, scenario.OpBackoff,
		scenario.OpJitter, scenario.OpPoison, scenario.OpAlert, scenario.OpDLQ, scenario.OpPreview:
		return nil
	}
	before, after := s.BoardAt(k-1), s.BoardAt(k)
	x := stepFacts{s: s, k: k, st: st, before: before, after: after}
	var qs []Question
	add := func(q Question) {
		q.Step, q.Command = k, c.String()
		if q.Probe == "" {
			q.Probe = q.Topic.Probe()
		}
		qs = append(qs, q)
	}
	switch c.Op {
	case scenario.OpSubmit:
		if len(c.Deps) > 0 || !st.OK {
			add(x.cycle())
		}
		if st.OK {
			add(x.changes())
		}
	case scenario.OpNext:
		if len(before.Ready()) == 0 {
			return nil
		}
		add(x.next())
		if q, ok := x.leaseTimer(); ok {
			add(q)
		}
	case scenario.OpRedrive, scenario.OpRedriveMatching, scenario.OpRedriveGroup:
		if st.OK && len(x.blocked()) > 0 {
			add(x.redrive())
		} else {
			add(x.changes())
		}
	case scenario.OpHeartbeat:
		if q, ok := x.leaseTimer(); ok {
			add(q)
		} else if !st.OK {
			add(x.changes())
		}
	default:
		if !st.OK || len(x.changed()) > 0 {
			add(x.changes())
		}
		if q, ok := x.delayTimer(); ok {
			add(q)
		}
	}
	if q, ok := x.reason(); ok {
		add(q)
	}
	return qs
}

// stepFacts is a step with the boards before and after it.
type stepFacts struct {
	s             *scenario.Session
	k             int
	st            scenario.Step
	before, after *scenario.Board
}

// changed returns the tasks whose state differs after the step from
// before it, each with its new state.
func (x stepFacts) changed() map[string]core.State {
	out := map[string]core.State{}
	for _, e := range x.st.Events {
		if e.Task == "" {
			continue
		}
		if now := x.after.State(e.Task); now != x.before.State(e.Task) {
			out[e.Task] = now
		}
	}
	return out
}

// tasks returns the tasks there are at the step: those before it, then
// the one it submits.
func (x stepFacts) tasks() []string {
	out := x.before.Tasks()
	if c := x.st.Command; c.Op == scenario.OpSubmit && !slices.Contains(out, c.Task) {
		out = append(out, c.Task)
	}
	return out
}

func (x stepFacts) changes() Question {
	c := x.st.Command
	want := x.changed()
	q := Question{Kind: AskChanges, Tasks: x.tasks(), States: core.States(), Want: Answer{Changes: want}, was: map[string]core.State{}}
	for _, t := range q.Tasks {
		q.was[t] = x.before.State(t)
	}
	q.Prompt = "Which tasks change state when " + c.String() + " runs, and to what?"
	q.Topic = x.topic()
	q.Why = q.Topic.Rule() + " Here: " + Explain(x.s, x.k)
	return q
}

// topic returns the rule a step's changes mostly show.
func (x stepFacts) topic() Topic {
	st := x.st
	c := st.Command
	if !st.OK {
		switch {
		case strings.Contains(st.Err, core.ErrPoisoned.Error()):
			return TopicPoison
		case strings.Contains(st.Err, core.ErrStaleLease.Error()), strings.Contains(st.Err, core.ErrLeaseExpired.Error()):
			return TopicFencing
		case c.Op == scenario.OpSubmit:
			return TopicCycle
		}
		return TopicRefused
	}
	has := func(kind core.EventKind) bool {
		return slices.ContainsFunc(st.Events, func(e core.Event) bool { return e.Kind == kind })
	}
	switch {
	case c.Op == scenario.OpFail && c.Permanent:
		return TopicPermanent
	case has(core.EventExpired):
		return TopicLease
	case has(core.EventDelayed), has(core.EventDue):
		return TopicBackoff
	case has(core.EventUnblocked), has(core.EventRerooted), has(core.EventRedriven):
		return TopicRedrive
	case has(core.EventDead) && slices.ContainsFunc(st.Events, func(e core.Event) bool { return e.Kind == core.EventDead && e.Poisoned }):
		return TopicPoison
	case has(core.EventBlocked), has(core.EventDead):
		return TopicBlocking
	case slices.ContainsFunc(st.Events, func(e core.Event) bool { return e.Kind == core.EventSubmitted && e.To == core.Blocked }):
		return TopicBlocking
	case has(core.EventRetried):
		return TopicRetry
	}
	return TopicOrder
}

func (x stepFacts) next() Question {
	q := Question{Kind: AskNext, Topic: TopicFIFO, Want: Answer{Task: x.st.Task}}
	q.Prompt = "Which task does next hand out?"
	for _, t := range x.before.Tasks() {
		if st := x.before.State(t); st != core.Succeeded {
			q.Choices = append(q.Choices, t)
		}
	}
	line := x.before.Ready()
	q.Why = q.Topic.Rule() + " The line was " + nameList(line) + ", so " + x.st.Task + " goes first."
	// A retry in the line, at the front or behind it: the retry rule is
	// what decides.
	retried := x.retried()
	for _, t := range line {
		if retried[t] {
			q.Topic = TopicRetry
			q.Why = TopicRetry.Rule() + " The line was " + nameList(line) + ", so " + x.st.Task + " goes first."
			break
		}
	}
	return q
}

// retried returns the tasks that last joined the READY line, before the
// step, as a retry: failed with attempts left, or fallen due after a
// backoff. The cost is O(events before step k).
func (x stepFacts) retried() map[string]bool {
	out := map[string]bool{}
	for j := 1; j < x.k; j++ {
		for _, e := range x.s.Step(j).Events {
			switch e.Kind {
			case core.EventRetried, core.EventDue:
				out[e.Task] = true
			case core.EventReady, core.EventRedriven, core.EventSubmitted:
				delete(out, e.Task)
			}
		}
	}
	return out
}

func (x stepFacts) cycle() Question {
	c := x.st.Command
	q := Question{Kind: AskCycle, Topic: TopicCycle, Want: Answer{Refused: !x.st.OK, Path: x.s.Cycle(x.k)}}
	q.Prompt = "Is submit " + c.Task + " refused? If it closes a cycle, which is it?"
	q.deps = map[string][]string{}
	for _, n := range x.s.GraphAt(x.k - 1) {
		q.deps[n.Task] = n.Deps
	}
	if _, dup := q.deps[c.Task]; !dup {
		q.deps[c.Task] = c.Deps
	}
	path := q.Want.Path
	switch {
	case x.st.OK:
		q.Why = "None of " + c.Task + "'s dependencies already waits on " + c.Task + ", directly or through other tasks, so no cycle closes: the graph was acyclic, and a new cycle would have to pass through " + c.Task + "."
	case len(path) == 2:
		q.Why = "A task may not wait on itself: that is the shortest cycle, " + strings.Join(path, " → ") + ", and the refused submit changes nothing."
	case len(path) > 0:
		q.Why = "The graph was acyclic before, so a new cycle must pass through " + c.Task + ": checking from it alone is enough. Here " +
			path[len(path)-2] + " named " + c.Task + " as a dependency before it arrived, so " + strings.Join(path, " → ") + " closes; the refused submit changes nothing."
	default:
		q.Topic = TopicRefused
		q.Why = TopicRefused.Rule() + " Here: " + x.st.Err + "."
	}
	return q
}

// blocked returns the BLOCKED tasks before the step, in DLQ order.
func (x stepFacts) blocked() []string {
	var out []string
	for _, d := range x.before.DeadLetters() {
		if d.State == core.Blocked {
			out = append(out, d.Task)
		}
	}
	return out
}

func (x stepFacts) redrive() Question {
	q := Question{Kind: AskRedrive, Topic: TopicRedrive, Tasks: x.blocked(), Want: Answer{Stay: map[string]string{}}}
	q.Prompt = "Which blocked tasks does " + x.st.Command.String() + " release, and which stay blocked, by which dead task?"
	for _, d := range x.before.DeadLetters() {
		if d.State == core.Dead {
			q.Roots = append(q.Roots, d.Task)
		}
	}
	roots := map[string]string{}
	for _, d := range x.after.DeadLetters() {
		if d.State == core.Blocked {
			roots[d.Task] = d.Root
		}
	}
	for _, t := range q.Tasks {
		if r, ok := roots[t]; ok {
			q.Want.Stay[t] = r
		} else {
			q.Want.Released = append(q.Want.Released, t)
		}
	}
	why := q.Topic.Rule()
	if len(q.Want.Released) > 0 {
		why += " Released: " + nameList(q.Want.Released) + "."
	}
	if len(q.Want.Stay) > 0 {
		var kept []string
		for _, t := range q.Tasks {
			if r, ok := q.Want.Stay[t]; ok {
				kept = append(kept, t+" (by "+r+")")
			}
		}
		why += " Still blocked: " + nameList(kept) + "."
	}
	q.Why = why
	return q
}

// reason asks the reason of the task whose DLQ entry the step made or
// renamed: the farthest task it blocked, or else the task that died.
func (x stepFacts) reason() (Question, bool) {
	var task string
	for _, e := range x.st.Events {
		switch {
		case e.Kind == core.EventBlocked, e.Kind == core.EventRerooted, e.Kind == core.EventSubmitted && e.To == core.Blocked:
			task = e.Task // the farthest comes last
		case e.Kind == core.EventDead && task == "":
			task = e.Task
		}
	}
	if task == "" {
		return Question{}, false
	}
	var entry core.DeadLetter
	found := false
	for _, d := range x.after.DeadLetters() {
		if d.Task == task {
			entry, found = d, true
		}
	}
	if !found {
		return Question{}, false // redriven at once by the same step
	}
	q := Question{Kind: AskReason, Task: task, Want: Answer{Choice: entry.Reason}}
	q.Prompt = "What reason does the dead-letter queue show for " + task + "?"
	choices := []string{entry.Reason}
	if entry.State == core.Blocked {
		q.Topic = TopicRootCause
		for _, n := range x.s.GraphAt(x.k) {
			if n.Task == task {
				for _, d := range n.Deps {
					choices = append(choices, "blocked by "+d)
				}
			}
		}
		for _, d := range x.after.DeadLetters() {
			if d.State == core.Dead {
				choices = append(choices, "blocked by "+d.Task)
			}
		}
		if len(choices) < 3 {
			choices = append(choices, "blocked by "+task)
		}
		q.Why = q.Topic.Rule() + " Here " + task + " is held by " + entry.Root + ", which is DEAD."
	} else {
		q.Topic = TopicBlocking
		if strings.HasPrefix(entry.Reason, "permanent") {
			q.Topic = TopicPermanent
		}
		n := entry.Attempts
		for _, m := range []int{n - 1, n + 1, x.s.Attempts()} {
			if m >= 1 {
				choices = append(choices, "failed after "+plural(m, "attempt")+": "+entry.Error)
			}
		}
		choices = append(choices, "permanent failure after "+plural(n, "attempt")+": "+entry.Error,
			"failed after "+plural(n, "attempt")+": "+core.ErrLeaseExpired.Error())
		q.Why = "A task that fails its last attempt, or fails with a permanent error, enters the dead-letter queue with the attempts it had and its last error. Here " +
			task + " had " + plural(n, "attempt") + " and failed with \"" + entry.Error + "\"."
	}
	q.Choices = distinct(choices, 5)
	slices.Sort(q.Choices)
	return q, true
}

// leaseTimer asks when the lease handed out or renewed by the step ends.
func (x stepFacts) leaseTimer() (Question, bool) {
	for _, e := range x.st.Events {
		if (e.Kind == core.EventStarted || e.Kind == core.EventHeartbeat) && e.Deadline > 0 {
			q := Question{Kind: AskTimer, Topic: TopicLease, Task: e.Task}
			q.Prompt = "When does " + e.Task + "'s lease expire, if no heartbeat comes?"
			if e.Kind == core.EventHeartbeat {
				q.Prompt = "After this heartbeat, when does " + e.Task + "'s lease expire?"
			}
			q.Want.Choice = scenario.FormatDuration(e.Deadline)
			q.Choices = timeChoices(x.st.Now, e.Deadline, x.before)
			q.Why = q.Topic.Rule() + " Here the clock says " + scenario.FormatDuration(x.st.Now) + ", so the lease ends at " + q.Want.Choice + "."
			return q, true
		}
	}
	return Question{}, false
}

// delayTimer asks when a retry made DELAYED by the step falls due.
func (x stepFacts) delayTimer() (Question, bool) {
	if x.st.Command.Op != scenario.OpFail {
		return Question{}, false
	}
	for _, e := range x.st.Events {
		if e.Kind == core.EventDelayed {
			q := Question{Kind: AskTimer, Topic: TopicBackoff, Task: e.Task}
			q.Prompt = "When does " + e.Task + "'s retry fall due?"
			q.Want.Choice = scenario.FormatDuration(e.Due)
			q.Choices = timeChoices(x.st.Now, e.Due, x.before)
			q.Why = q.Topic.Rule() + " Attempt " + strconv.Itoa(e.Attempt) + " failed at " + scenario.FormatDuration(x.st.Now) +
				" and waits " + scenario.FormatDuration(e.Due-x.st.Now) + ": due at " + q.Want.Choice + "."
			return q, true
		}
	}
	return Question{}, false
}

// timeChoices returns the right time and the times of the common
// mistakes: now (no wait), twice the wait, half the wait, the wait counted
// from zero, in ascending order.
func timeChoices(now, right time.Duration, _ *scenario.Board) []string {
	d := right - now
	cands := []time.Duration{right, now + 2*d, now + d/2, d, now}
	slices.Sort(cands)
	var out []string
	for _, c := range slices.Compact(cands) {
		out = append(out, scenario.FormatDuration(c))
	}
	return distinct(out, 5)
}

// distinct returns the strings without repeats, first kept, at most n,
// the first always among them.
func distinct(in []string, n int) []string {
	var out []string
	for _, s := range in {
		if !slices.Contains(out, s) && len(out) < n {
			out = append(out, s)
		}
	}
	return out
}
