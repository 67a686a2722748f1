package core

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// deadReasonRE is the form of a DEAD task's reason in the dead-letter queue:
// "failed after 1 attempt: ERR" or "failed after N attempts: ERR", and
// "permanent failure after N attempt(s): ERR" for a permanent error.
var deadReasonRE = regexp.MustCompile(`^(?:failed|permanent failure) after (1 attempt|([2-9]|[1-9][0-9]+) attempts): `)

// checkInvariants checks the invariants of the package documentation that
// hold after every operation, computing everything from the public API
// only (Tasks, Status, Deps, DeadLetters, ReadyTasks, Lease, MaxAttempts).
// It returns a description of the first violation found, or nil.
//
// It checks:
//
//   - invariant 1: no PENDING task has a DEAD or BLOCKED dependency;
//   - invariant 2: every BLOCKED task's reason is "blocked by R" where R is
//     DEAD now and a transitive dependency of the task;
//   - invariant 3: the dead-letter queue holds exactly the DEAD and BLOCKED
//     tasks, each once, and a DEAD task's reason reads
//     "failed after N attempt(s): ERR" (or "permanent failure after …")
//     with 1 <= N <= MaxAttempts;
//   - invariant 6: every timer is after Now (one the clock reached has
//     fired): a DELAYED task has one, its due time; a RUNNING task has one,
//     its lease's Deadline, exactly when LeaseTimeout is set, at most
//     LeaseTimeout ahead; no other task has one; NextTimer is the earliest;
//
// and the facts that follow from the state table:
//
//   - a READY, RUNNING, DELAYED, SUCCEEDED or DEAD task has every
//     dependency SUCCEEDED;
//   - a PENDING task has at least one dependency not SUCCEEDED;
//   - a BLOCKED task has a DEAD transitive dependency and a PENDING task has
//     none;
//   - ReadyTasks lists exactly the READY tasks, each once;
//   - Lease reports a lease for exactly the RUNNING tasks, naming the task;
//   - Tasks lists each task once, Status knows exactly the listed tasks
//     (a name only used as a dependency has no status), and Deps has no
//     duplicates;
//   - the graph of submitted tasks is acyclic.
//
// The cost is O(n·(n+e)) for n tasks and e dependency edges.
func checkInvariants(q *Queue) error {
	tasks := q.Tasks()
	status := make(map[string]State, len(tasks))
	deps := make(map[string][]string, len(tasks))
	for _, t := range tasks {
		if _, dup := status[t]; dup {
			return fmt.Errorf("Tasks lists %q twice: %q", t, tasks)
		}
		s, ok := q.Status(t)
		if !ok {
			return fmt.Errorf("Status(%q) reports no task, but Tasks lists it", t)
		}
		if !slices.Contains(States(), s) {
			return fmt.Errorf("Status(%q) = %q, not a state", t, s)
		}
		status[t] = s
		d := q.depsOf(t)
		for i, x := range d {
			if slices.Contains(d[:i], x) {
				return fmt.Errorf("Deps(%q) = %q lists %q twice", t, d, x)
			}
		}
		deps[t] = d
	}
	// A name only used as a dependency is not a task.
	for _, t := range tasks {
		for _, d := range deps[t] {
			if _, ok := status[d]; ok {
				continue
			}
			if s, ok := q.Status(d); ok {
				return fmt.Errorf("Status(%q) = %q, but Tasks does not list it (it is only a dependency of %q)", d, s, t)
			}
		}
	}
	stateOf := func(name string) State { return status[name] } // "" for a name not submitted

	order, cyc := topoOrder(tasks, deps)
	if cyc != nil {
		return fmt.Errorf("the graph of submitted tasks has a cycle: %q are on it or behind it", cyc)
	}
	deadUp := deadUpstream(order, deps, status)

	// Per-task rules of the state table.
	counts := make(map[State]int)
	for _, t := range tasks {
		s := status[t]
		counts[s]++
		switch s {
		case Ready, Running, Delayed, Succeeded, Dead:
			for _, d := range deps[t] {
				if ds := stateOf(d); ds != Succeeded {
					return fmt.Errorf("%s task %q has dependency %q in state %s, want SUCCEEDED", s, t, d, orNone(ds))
				}
			}
		case Pending:
			waiting := 0
			for _, d := range deps[t] {
				switch ds := stateOf(d); ds {
				case Dead, Blocked:
					return fmt.Errorf("invariant 1: PENDING task %q has %s dependency %q (a silent hang)", t, ds, d)
				case Succeeded:
				default:
					waiting++
				}
			}
			if waiting == 0 {
				return fmt.Errorf("PENDING task %q has every dependency SUCCEEDED (%q), want READY", t, deps[t])
			}
			if len(deadUp[t]) > 0 {
				return fmt.Errorf("PENDING task %q has DEAD transitive dependencies %q, want BLOCKED", t, deadUp[t])
			}
		case Blocked:
			if len(deadUp[t]) == 0 {
				return fmt.Errorf("BLOCKED task %q has no DEAD transitive dependency", t)
			}
		}
		l, ok := q.Lease(t)
		if ok != (s == Running) {
			return fmt.Errorf("Lease(%q) ok = %v for a %s task", t, ok, s)
		}
		if ok && l.Task != t {
			return fmt.Errorf("Lease(%q) = %+v names another task", t, l)
		}
	}

	if err := checkTimers(q, tasks, status); err != nil {
		return err
	}

	// Invariants 2 and 3: the dead-letter queue.
	dlq := q.DeadLetters()
	seen := make(map[string]bool, len(dlq))
	for i, dl := range dlq {
		if seen[dl.Task] {
			return fmt.Errorf("invariant 3: DeadLetters lists %q twice: %+v", dl.Task, dlq)
		}
		seen[dl.Task] = true
		s, ok := status[dl.Task]
		if !ok {
			return fmt.Errorf("invariant 3: DeadLetters[%d] = %+v is not a submitted task", i, dl)
		}
		switch s {
		case Dead:
			if err := checkDeadReason(dl.Reason, q.Config().MaxAttempts); err != nil {
				return fmt.Errorf("invariant 3: DEAD task %q: %v", dl.Task, err)
			}
		case Blocked:
			root, ok := strings.CutPrefix(dl.Reason, "blocked by ")
			if !ok {
				return fmt.Errorf("invariant 2: BLOCKED task %q has reason %q, want \"blocked by ROOT\"", dl.Task, dl.Reason)
			}
			if rs := stateOf(root); rs != Dead {
				return fmt.Errorf("invariant 2: BLOCKED task %q is %q but %q is %s, not DEAD", dl.Task, dl.Reason, root, orNone(rs))
			}
			if !slices.Contains(deadUp[dl.Task], root) {
				return fmt.Errorf("invariant 2: BLOCKED task %q is %q but %q is not a transitive dependency of it", dl.Task, dl.Reason, root)
			}
		default:
			return fmt.Errorf("invariant 3: DeadLetters lists %q, which is %s", dl.Task, s)
		}
	}
	if err := checkDeadLetters(q, dlq); err != nil {
		return err
	}
	if n := counts[Dead] + counts[Blocked]; len(dlq) != n {
		var missing []string
		for _, t := range tasks {
			if (status[t] == Dead || status[t] == Blocked) && !seen[t] {
				missing = append(missing, t)
			}
		}
		return fmt.Errorf("invariant 3: DeadLetters has %d entries, want the %d DEAD and BLOCKED tasks; missing %q", len(dlq), n, missing)
	}

	// ReadyTasks: exactly the READY tasks, each once.
	ready := q.ReadyTasks()
	for i, t := range ready {
		if slices.Contains(ready[:i], t) {
			return fmt.Errorf("ReadyTasks lists %q twice: %q", t, ready)
		}
		if s := stateOf(t); s != Ready {
			return fmt.Errorf("ReadyTasks lists %q, which is %s", t, orNone(s))
		}
	}
	if len(ready) != counts[Ready] {
		return fmt.Errorf("ReadyTasks = %q has %d tasks, want all %d READY tasks", ready, len(ready), counts[Ready])
	}
	return nil
}

// checkDeadLetters checks the fields of the DLQ's entries against each
// other and the rest of the public view: State is the task's, Root the one
// its reason names ("" for DEAD), Attempts the task's, Error the end of a
// DEAD reason and Fingerprint its Fingerprint, BlastRadius the number of
// BLOCKED entries naming it, Poisoned only on DEAD tasks (and never without
// PoisonAfter), Entered never after Now nor before an earlier entry; and
// DeadLetterGroups is the DEAD entries grouped by fingerprint, in order.
func checkDeadLetters(q *Queue, dlq []DeadLetter) error {
	blast := map[string]int{}
	for _, d := range dlq {
		if d.State == Blocked {
			blast[d.Root]++
		}
	}
	var groups []DeadLetterGroup
	at := map[string]int{}
	for i, d := range dlq {
		if s, _ := q.Status(d.Task); d.State != s {
			return fmt.Errorf("DeadLetters[%d] = %+v has State %s, Status says %s", i, d, d.State, s)
		}
		if d.Attempts != q.attemptsOf(d.Task) {
			return fmt.Errorf("DeadLetters[%d] = %+v has Attempts %d, Attempts says %d", i, d, d.Attempts, q.attemptsOf(d.Task))
		}
		if d.Entered > q.Now() || i > 0 && d.Entered < dlq[i-1].Entered {
			return fmt.Errorf("DeadLetters[%d] = %+v entered at %v: after Now %v or before the entry ahead of it", i, d, d.Entered, q.Now())
		}
		if got, ok := q.deadLetterOf(d.Task); !ok || got != d {
			return fmt.Errorf("DeadLetter(%q) = %+v, %v, but DeadLetters has %+v", d.Task, got, ok, d)
		}
		switch d.State {
		case Blocked:
			if d.Reason != "blocked by "+d.Root || d.Error != "" || d.Fingerprint != "" || d.BlastRadius != 0 || d.Poisoned {
				return fmt.Errorf("BLOCKED entry %+v: want Reason \"blocked by\" its Root, and no Error, Fingerprint, BlastRadius or Poisoned", d)
			}
		case Dead:
			if d.Root != "" || !strings.HasSuffix(d.Reason, ": "+d.Error) && !(d.Error == "" && !strings.Contains(d.Reason, ":")) {
				return fmt.Errorf("DEAD entry %+v: want no Root, and a Reason ending in its Error", d)
			}
			if want := cachedFingerprint(d.Error); d.Fingerprint != want {
				return fmt.Errorf("DEAD entry %+v: Fingerprint, want %q", d, want)
			}
			if d.BlastRadius != blast[d.Task] {
				return fmt.Errorf("DEAD entry %+v: BlastRadius, want the %d BLOCKED entries naming it", d, blast[d.Task])
			}
			if d.Poisoned && q.Config().PoisonAfter == 0 {
				return fmt.Errorf("DEAD entry %+v is poisoned without PoisonAfter", d)
			}
			j, ok := at[d.Fingerprint]
			if !ok {
				j = len(groups)
				at[d.Fingerprint] = j
				groups = append(groups, DeadLetterGroup{Fingerprint: d.Fingerprint, Example: d.Error, First: d.Entered})
			}
			g := &groups[j]
			g.Count++
			g.Last = d.Entered
			g.Tasks = append(g.Tasks, d.Task)
			g.BlastRadius += d.BlastRadius
			if d.Poisoned {
				g.Poisoned = append(g.Poisoned, d.Task)
			}
		}
	}
	if got := q.DeadLetterGroups(); !reflect.DeepEqual(got, groups) {
		return fmt.Errorf("DeadLetterGroups() = %+v, want %+v, the DEAD entries by fingerprint", got, groups)
	}
	return nil
}

// fingerprints caches Fingerprint for checkDeadLetters, which runs after
// every operation of the conformance suite on a few error texts.
var fingerprints sync.Map

func cachedFingerprint(text string) string {
	if fp, ok := fingerprints.Load(text); ok {
		return fp.(string)
	}
	fp := Fingerprint(text)
	fingerprints.Store(text, fp)
	return fp
}

// checkTimers checks invariant 6 as checkInvariants describes it.
func checkTimers(q *Queue, tasks []string, status map[string]State) error {
	now, lt := q.Now(), q.Config().LeaseTimeout
	if now < 0 {
		return fmt.Errorf("Now() = %v, before the start", now)
	}
	var first time.Duration
	found := false
	for _, t := range tasks {
		at, ok := q.timerAt(t)
		s := status[t]
		switch {
		case ok && s != Running && s != Delayed:
			return fmt.Errorf("Timer(%q) = %v for a %s task", t, at, s)
		case !ok && s == Delayed:
			return fmt.Errorf("DELAYED task %q has no due time", t)
		case s == Running && ok != (lt > 0):
			return fmt.Errorf("RUNNING task %q: Timer ok = %v with LeaseTimeout %v", t, ok, lt)
		case ok && at <= now && now != math.MaxInt64: // the end of time: fires at the next advance
			return fmt.Errorf("invariant 6: %s task %q has a timer at %v, but the clock is at %v and it has not fired", s, t, at, now)
		}
		if s == Running {
			l, _ := q.Lease(t)
			if l.Deadline != at {
				return fmt.Errorf("Lease(%q).Deadline = %v, but its timer is at %v", t, l.Deadline, at)
			}
			if ok && at-now > lt {
				return fmt.Errorf("RUNNING task %q: deadline %v is more than LeaseTimeout %v after now %v", t, at, lt, now)
			}
		}
		if ok && (!found || at < first) {
			first, found = at, true
		}
	}
	// The timers of no task: the growth alert's clear while it is raised,
	// a rate-limited redrive's next batch while one is in progress.
	for _, v := range []int32{timerAlert, timerJob} {
		at, ok := q.timerOf(v)
		switch {
		case v == timerAlert && ok != q.alerting():
			return fmt.Errorf("the alert's clear timer is set: %v, but Alerting() = %v", ok, q.alerting())
		case v == timerJob && ok != (q.job != nil):
			return fmt.Errorf("the redrive's timer is set: %v, but a redrive in progress: %v", ok, q.job != nil)
		case ok && at <= now && now != math.MaxInt64:
			return fmt.Errorf("invariant 6: a timer (%d) at %v, but the clock is at %v and it has not fired", v, at, now)
		}
		if ok && (!found || at < first) {
			first, found = at, true
		}
	}
	if at, ok := q.NextTimer(); ok != found || at != first {
		return fmt.Errorf("NextTimer() = %v, %v, want the earliest timer %v, %v", at, ok, first, found)
	}
	return nil
}

// checkDeadReason checks "failed after N attempt(s): ERR" with 1 <= N <= max
// and the plural agreeing with N (the form deadReasonRE matches).
func checkDeadReason(reason string, max int) error {
	m := deadReasonRE.FindStringSubmatch(reason)
	n := 1
	if m != nil && m[2] != "" {
		n, _ = strconv.Atoi(m[2])
	}
	if m == nil || n > max {
		return fmt.Errorf("reason %q, want \"failed after N attempt(s): ERR\" or \"permanent failure after …\", 1 <= N <= %d, the plural agreeing", reason, max)
	}
	return nil
}

func orNone(s State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}

// topoOrder sorts the tasks dependencies first (Kahn's algorithm) and
// returns the order and the tasks it cannot place: those on a cycle or
// waiting on one, nil if the graph is acyclic. Names that are not tasks
// have no dependencies. O(n + e).
func topoOrder(tasks []string, deps map[string][]string) (order, left []string) {
	waiting := make(map[string]int, len(tasks)) // unplaced dependencies that are tasks
	waiters := make(map[string][]string, len(tasks))
	for _, t := range tasks {
		for _, d := range deps[t] {
			if _, isTask := deps[d]; isTask {
				waiting[t]++
				waiters[d] = append(waiters[d], t)
			}
		}
	}
	for _, t := range tasks {
		if waiting[t] == 0 {
			order = append(order, t)
		}
	}
	for i := 0; i < len(order); i++ {
		for _, w := range waiters[order[i]] {
			if waiting[w]--; waiting[w] == 0 {
				order = append(order, w)
			}
		}
	}
	for _, t := range tasks {
		if waiting[t] > 0 {
			left = append(left, t)
		}
	}
	return order, left
}

// deadUpstream returns, for each task of order (dependencies first), its
// DEAD transitive dependencies, each once.
func deadUpstream(order []string, deps map[string][]string, status map[string]State) map[string][]string {
	up := make(map[string][]string, len(order))
	for _, t := range order {
		var u []string
		for _, d := range deps[t] {
			if status[d] == Dead {
				u = append(u, d)
			}
			u = append(u, up[d]...)
		}
		slices.Sort(u)
		up[t] = slices.Compact(u)
	}
	return up
}
