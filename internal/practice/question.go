package practice

import (
	"cmp"
	"github.com/dagq/dagq/internal/playground"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"

	"github.com/dagq/dagq/internal/wording"
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
	// that changes a state, and every refused operation (none change).
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
	// AskWhy: the reason behind a rule, in the learner's own words, then
	// self-graded against the points an interviewer listens for. Written
	// for an exercise ([WhyQuestions]), asked at its end.
	AskWhy
	// AskPick: a written question with choices, about a rule and its
	// reason rather than a step ([WrittenQuestions]), asked at the end of
	// its exercise.
	AskPick
)

// Kinds returns every kind of question, in order.
func Kinds() []Kind {
	return []Kind{AskNext, AskChanges, AskCycle, AskReason, AskRedrive, AskTimer, AskWhy, AskPick}
}

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
	case AskWhy:
		return "why"
	case AskPick:
		return "pick"
	}
	return "unknown"
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
	// Task is the task asked about: the one submitted (AskCycle), or
	// whose reason or timer is asked (AskReason, AskTimer).
	Task string
	// Choices are the answers to pick from, distinct, the right one among
	// them: for AskNext the task names (with "nothing" beside them, at
	// least three in all), for AskReason and AskTimer at least three.
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
	// Rubric is the ID of the rubric point the question asks
	// ([RubricPoint.ID]); "" for one no point claims.
	Rubric string
	// Model and Points are, for AskWhy, a model answer and the points an
	// interviewer listens for in one.
	Model  string
	Points []string

	// line is the READY line before the step, for the feedback of AskNext.
	line []string
	// wrong says, for each wrong choice of AskReason and AskTimer, the
	// mistake that leads to it.
	wrong map[string]string
	// err is the refusal's error, for AskCycle.
	err string

	// deps is the graph before the step, each task's dependencies, with
	// the submit's edges: what a cycle answer is checked against, and what
	// feedback points at.
	deps map[string][]string
	// was is each task's state before the step ("" for the submitted
	// task): an AskChanges answer giving a task its old state leaves it
	// unchanged.
	was map[string]core.State
}

// Questions returns the questions that fit step k of a session, in the
// order practice asks them; none for a step that changes nothing and is
// not refused (settings, expect, a next with nothing READY, a dlq view).
// It leaves the session's cursor where it was.
//
// The cost is two seeks of the session and O(tasks) per question.
func Questions(s *session.Session, k int) []Question {
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
	graph := s.GraphAt(k - 1)
	add := func(q Question) {
		q.Step, q.Command = k, c.String()
		if q.Probe == "" {
			q.Probe = q.Topic.Probe()
		}
		q.line = before.Ready()
		if q.was == nil {
			q.was = map[string]core.State{}
			for _, t := range x.tasks() {
				q.was[t] = before.State(t)
			}
		}
		if q.deps == nil {
			q.deps = map[string][]string{}
			for _, n := range graph {
				q.deps[n.Task] = n.Deps
			}
			if _, dup := q.deps[c.Task]; c.Op == scenario.OpSubmit && !dup {
				q.deps[c.Task] = c.Deps
			}
		}
		qs = append(qs, q)
	}
	switch c.Op {
	case scenario.OpSubmit:
		if len(c.Deps) > 0 || !st.OK {
			add(x.cycle())
		}
		add(x.changes()) // refused, it changes nothing: asked too
	case scenario.OpNext:
		if len(before.Ready()) == 0 {
			return nil
		}
		if len(before.Tasks()) < 2 {
			// One task and "nothing": no question with alternatives.
			if q, ok := x.leaseTimer(); ok {
				add(q)
			}
			return qs
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
	s             *session.Session
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
	q := Question{Kind: AskChanges, Tasks: x.tasks(), States: core.States(), Want: Answer{Changes: want, Nothing: len(want) == 0}, was: map[string]core.State{}}
	for _, t := range q.Tasks {
		q.was[t] = x.before.State(t)
	}
	q.Prompt = "Which tasks change state when " + c.String() + " runs, and to what?"
	q.Topic = x.topic()
	q.Why = q.Topic.Rule() + " Here: " + playground.Explain(x.s, x.k)
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
	case c.Op == scenario.OpSubmit && slices.ContainsFunc(c.Deps, func(d string) bool { return x.before.State(d) == "" }):
		return TopicArrival
	case has(core.EventRetried):
		return TopicRetry
	}
	return TopicOrder
}

func (x stepFacts) next() Question {
	q := Question{Kind: AskNext, Topic: TopicFIFO, Want: Answer{Task: x.st.Task}}
	q.Prompt = "Which task does next hand out?"
	var done []string
	for _, t := range x.before.Tasks() {
		if st := x.before.State(t); st != core.Succeeded {
			q.Choices = append(q.Choices, t)
		} else {
			done = append(done, t)
		}
	}
	// With "nothing", at least three answers: tasks already done pad a
	// short list.
	for _, t := range done {
		if len(q.Choices) >= 2 {
			break
		}
		q.Choices = append(q.Choices, t)
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
	verdict := VerdictAccepted
	if !x.st.OK {
		verdict = VerdictRefused
	}
	q := Question{Kind: AskCycle, Topic: TopicCycle, Task: c.Task, Want: Answer{Verdict: verdict, Path: x.s.Cycle(x.k)}, err: x.st.Err}
	q.Prompt = "Is submit " + c.Task + " refused? If it closes a cycle, which is it?"
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
	// The trace says what the redrive did: a bulk one, how many it
	// started and whom it skipped, poisoned.
	why := q.Topic.Rule()
	for _, e := range x.st.Events {
		if e.Kind == core.EventRedriveStarted && len(e.Skipped) > 0 {
			q.Topic = TopicPoison
			why = TopicPoison.Rule()
		}
	}
	why += " Here: " + playground.Explain(x.s, x.k)
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
	cs := newChoices(entry.Reason)
	if entry.State == core.Blocked {
		q.Topic = TopicRootCause
		graph := x.s.GraphAt(x.k)
		for _, n := range graph {
			if n.Task == task {
				for _, d := range n.Deps {
					cs.add("blocked by "+d, d+" is the dependency nearest to "+task+", not the DEAD task upstream that holds it.")
				}
			}
		}
		for _, d := range x.after.DeadLetters() {
			if d.State == core.Dead {
				cs.add("blocked by "+d.Task, d.Task+" is DEAD, but not upstream of "+task+": no chain of arrows leads from it to "+task+".")
			}
		}
		cs.add("blocked by "+task, "a task never blocks itself: the reason names the DEAD task upstream.")
		for _, n := range graph {
			cs.add("blocked by "+n.Task, n.Task+" is not DEAD: only a dead task blocks.")
		}
		for _, d := range x.after.DeadLetters() {
			if d.Task == entry.Root {
				cs.add(d.Reason, "that is "+d.Task+"'s own reason: "+task+" did not fail, it is BLOCKED by it.")
			}
		}
		q.Why = q.Topic.Rule() + " Here " + task + " is held by " + entry.Root + ", which is DEAD."
	} else {
		q.Topic = TopicBlocking
		if strings.HasPrefix(entry.Reason, "permanent") {
			q.Topic = TopicPermanent
		}
		n := entry.Attempts
		for _, m := range []int{n - 1, n + 1, x.s.Attempts(), n + 2} {
			if m >= 1 {
				cs.add("failed after "+wording.Plural(m, "attempt")+": "+entry.Error, task+" had "+wording.Plural(n, "attempt")+", not "+strconv.Itoa(m)+": count the hand-outs that ended in a failure.")
			}
		}
		if q.Topic == TopicPermanent {
			cs.add("failed after "+wording.Plural(n, "attempt")+": "+entry.Error, "the error was permanent: the reason says so, and no attempt was left to use.")
		} else {
			cs.add("permanent failure after "+wording.Plural(n, "attempt")+": "+entry.Error, "the error was not permanent: "+task+" used its attempts.")
		}
		cs.add("failed after "+wording.Plural(n, "attempt")+": "+core.ErrLeaseExpired.Error(), task+"'s last error was “"+entry.Error+"”, not a lease expiry.")
		q.Why = "A task that fails its last attempt, or fails with a permanent error, enters the dead-letter queue with the attempts it had and its last error. Here " +
			task + " had " + wording.Plural(n, "attempt") + " and failed with \"" + entry.Error + "\"."
	}
	q.Choices, q.wrong = cs.done()
	return q, true
}

// choiceSet gathers the choices of a question: the right one, then wrong
// ones each with the mistake that leads to it, repeats dropped before
// any is counted.
type choiceSet struct {
	right string
	list  []string
	wrong map[string]string
}

// maxChoices caps the choices of a question, the right one included.
const maxChoices = 5

func newChoices(right string) *choiceSet {
	return &choiceSet{right: right, list: []string{right}, wrong: map[string]string{}}
}

// add adds a wrong choice, unless it is there already or the list is full.
func (c *choiceSet) add(choice, mistake string) {
	if choice == c.right || len(c.list) >= maxChoices || slices.Contains(c.list, choice) {
		return
	}
	c.list = append(c.list, choice)
	c.wrong[choice] = mistake
}

// done returns the choices in order, and each wrong one's mistake.
func (c *choiceSet) done() ([]string, map[string]string) {
	slices.Sort(c.list)
	return c.list, c.wrong
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
			q.Choices, q.wrong = timeChoices(x.st.Now, e.Deadline)
			q.Why = q.Topic.Rule() + " Here the clock says " + scenario.FormatDuration(x.st.Now) + ", so the lease ends at " + q.Want.Choice + "."
			return q, true
		}
	}
	return Question{}, false
}

// delayTimer asks when a retry made DELAYED by the step falls due.
func (x stepFacts) delayTimer() (Question, bool) {
	if x.st.Command.Op != scenario.OpFail || x.jittered() {
		return Question{}, false
	}
	for _, e := range x.st.Events {
		if e.Kind == core.EventDelayed {
			q := Question{Kind: AskTimer, Topic: TopicBackoff, Task: e.Task}
			q.Prompt = "When does " + e.Task + "'s retry fall due?"
			q.Want.Choice = scenario.FormatDuration(e.Due)
			q.Choices, q.wrong = timeChoices(x.st.Now, e.Due)
			q.Why = q.Topic.Rule() + " Attempt " + strconv.Itoa(e.Attempt) + " failed at " + scenario.FormatDuration(x.st.Now) +
				" and waits " + scenario.FormatDuration(e.Due-x.st.Now) + ": due at " + q.Want.Choice + "."
			return q, true
		}
	}
	return Question{}, false
}

// jittered reports whether the session's retries are jittered: their due
// times are then random, not a thing to predict.
func (x stepFacts) jittered() bool {
	for j := 1; j <= x.s.Len(); j++ {
		if c := x.s.Command(j); c.Op == scenario.OpJitter && c.Jitter != core.JitterNone {
			return true
		}
	}
	return false
}

// timeChoices returns the right time and the times of the common
// mistakes, in ascending order, each wrong one with its mistake: twice the
// wait, half the wait, the wait counted from zero, now (no wait), one
// wait too many.
func timeChoices(now, right time.Duration) ([]string, map[string]string) {
	d := right - now
	f := scenario.FormatDuration
	cs := newChoices(f(right))
	cs.add(f(now+2*d), "that waits twice "+f(d)+", counted from now ("+f(now)+").")
	cs.add(f(now+d/2), "that waits half of "+f(d)+".")
	cs.add(f(d), "that counts "+f(d)+" from zero, not from now ("+f(now)+").")
	cs.add(f(now), "that is now: the wait of "+f(d)+" is left out.")
	cs.add(f(right+d), "that waits "+f(d)+" twice over.")
	at := map[string]time.Duration{f(right): right, f(now + 2*d): now + 2*d, f(now + d/2): now + d/2, f(d): d, f(now): now, f(right + d): right + d}
	list, wrong := cs.done()
	slices.SortFunc(list, func(a, b string) int { return cmp.Compare(at[a], at[b]) })
	return list, wrong
}
