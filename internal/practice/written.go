package practice

import (
	"strconv"
	"strings"
	"sync"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// written is a question written for an exercise, about a rule's reason
// rather than one step: a "why" (AskWhy: a model answer and the points an
// interviewer listens for) or a pick (AskPick: the right choice and the
// wrong ones, each with the mistake behind it).
type written struct {
	level    Level
	exercise string // the exercise's name in the book
	rubric   string // the ID of the rubric point it asks
	topic    Topic
	prompt   string
	// AskWhy
	model  string
	points []string
	// AskPick
	right string
	wrong [][2]string // a wrong choice and its mistake
	why   string
}

// WrittenQuestions returns the questions written for a written exercise,
// asked at its end, in order: a "why" for every rubric point the exercise
// drills, and picks about what no step of it shows. Each names its rubric
// point ([Question.Rubric]). Their Step is the exercise's last.
//
// The cost is that of the cycle-check counts they quote, made once per
// process (three strategies on a chain and a wide graph of 200 tasks).
func WrittenQuestions(l Level, exercise string, steps int) []Question {
	var out []Question
	for _, w := range writtenTable() {
		if w.level != l || w.exercise != exercise {
			continue
		}
		q := Question{Step: steps, Topic: w.topic, Rubric: w.rubric, Prompt: w.prompt, Probe: w.topic.Probe(),
			Command: "(after the last step)"}
		if len(w.points) > 0 {
			q.Kind, q.Model, q.Points = AskWhy, w.model, w.points
			q.Want = Answer{Text: w.model}
			for i := range w.points {
				q.Want.Heard = append(q.Want.Heard, i)
			}
			q.Why = w.model
		} else {
			q.Kind, q.Why = AskPick, w.why
			cs := newChoices(w.right)
			for _, c := range w.wrong {
				cs.add(c[0], c[1])
			}
			q.Choices, q.wrong = cs.done()
			q.Want = Answer{Choice: w.right}
		}
		out = append(out, q)
	}
	return out
}

// cycleCosts are the edges each strategy's cycle check examines, in all,
// on the shapes the cost questions ask about: a chain of costN tasks
// submitted in order, and a wide graph (a source, costN shards waiting on
// it, a sink waiting on every shard).
type cycleCosts struct {
	chain, wide map[string]uint64
}

// costN is the size of the graphs the cost questions ask about.
const costN = 200

// costs runs the real strategies through the queue, once.
var costs = sync.OnceValue(func() cycleCosts {
	var chain, wide strings.Builder
	chain.WriteString("submit t0\n")
	for i := 1; i < costN; i++ {
		chain.WriteString("submit t" + strconv.Itoa(i) + " t" + strconv.Itoa(i-1) + "\n")
	}
	wide.WriteString("submit src\n")
	shards := make([]string, costN)
	for i := range shards {
		shards[i] = "s" + strconv.Itoa(i)
		wide.WriteString("submit " + shards[i] + " src\n")
	}
	wide.WriteString("submit sink " + strings.Join(shards, " ") + "\n")
	c := cycleCosts{chain: map[string]uint64{}, wide: map[string]uint64{}}
	for _, st := range []string{"dfs", "pk", "twoway"} {
		c.chain[st] = edgesExamined("strategy " + st + "\n" + chain.String())
		c.wide[st] = edgesExamined("strategy " + st + "\n" + wide.String())
	}
	return c
})

// edgesExamined runs a script and adds up the edges its cycle checks
// examined.
func edgesExamined(text string) uint64 {
	s, err := session.New(text, scenario.Options{})
	if err != nil {
		panic("playground: a cost script does not run: " + err.Error())
	}
	var n uint64
	for k := 1; k <= s.Len(); k++ {
		for _, e := range s.Step(k).Events {
			if e.Kind == core.EventSubmitted || e.Kind == core.EventRejected {
				n += e.Visits
			}
		}
	}
	return n
}

// count writes a number with thousands separated: 19,900.
func count(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// writtenTable returns every written question.
func writtenTable() []written {
	c := costs()
	chainDFS, chainPK, chainTW := count(c.chain["dfs"]), count(c.chain["pk"]), count(c.chain["twoway"])
	wideDFS, widePK := count(c.wide["dfs"]), count(c.wide["pk"])
	n := strconv.Itoa(costN)
	return []written{
		// L4
		{level: L4, exercise: "a-chain", rubric: "count", topic: TopicOrder,
			prompt: "Why keep a count of unfinished dependencies per task, rather than look over every task's dependencies after each completion?",
			model:  "With a count, a completion touches only the completed task's dependents: it takes one off each count and releases those that reach zero, O(dependents). Looking over every task after each completion costs O(tasks × dependencies) every time, quadratic over a run. The count also releases a task exactly once, the moment its last dependency succeeds — as long as the decrement commits with the completion.",
			points: []string{"a completion touches only its own dependents, not every task", "a dependent is released exactly once, when its count reaches zero", "the decrement must be atomic with the completion (one transaction), or a race loses or doubles a release"}},
		{level: L4, exercise: "first-in-first-out", rubric: "fifo", topic: TopicFIFO,
			prompt: "Why hand out READY tasks first in, first out? What would break with a stack, last in, first out?",
			model:  "FIFO bounds a READY task's wait: only the tasks ahead of it go first. With a stack, a steady stream of new tasks keeps the oldest at the bottom for ever — starvation — and latency becomes unpredictable. FIFO is also what makes the order testable, and with many workers it is kept by taking rows in READY order with SKIP LOCKED.",
			points: []string{"a READY task waits only for the tasks ahead of it: bounded waiting", "last in, first out lets new arrivals starve the oldest", "a fixed order is predictable and testable"}},
		{level: L4, exercise: "a-chain", rubric: "count", topic: TopicOrder,
			prompt: "c waits on a and b. a succeeds; b is still RUNNING. What is c's count of unfinished dependencies, and its state?",
			right:  "1, PENDING",
			wrong: [][2]string{
				{"0, READY", "b has not succeeded: RUNNING is not done."},
				{"2, PENDING", "a's success took one off c's count."},
				{"1, READY", "a task is READY only when its count reaches zero."},
			},
			why: "Completing a task takes one off each dependent's count; a dependent is READY only when its count reaches zero. c still waits on b."},
		{level: L4, exercise: "fan-in", rubric: "count", topic: TopicOrder,
			prompt: "d waits on a, b and c, and all three succeed one after another. How many times does d join the READY line?",
			right:  "once, when the last of them succeeds",
			wrong: [][2]string{
				{"three times, once per dependency", "each success only takes one off d's count; d joins the line when it reaches zero."},
				{"never: a worker must ask for d by name", "a task whose count reaches zero joins the READY line by itself."},
				{"once, when the first of them succeeds", "d still waits on the other two then."},
			},
			why: "A dependent joins the READY line exactly once, when its count of unfinished dependencies reaches zero: after the last one succeeds."},
		{level: L4, exercise: "first-in-first-out", rubric: "fifo", topic: TopicFIFO,
			prompt: "a, b and c became READY in that order. Two workers call next, one after the other. What do they get?",
			right:  "a, then b",
			wrong: [][2]string{
				{"c, then b", "that is last in, first out: the newest would starve the oldest."},
				{"b, then c", "a is at the front of the line: it goes first."},
				{"a, then a", "a is RUNNING once handed out: it leaves the line."},
			},
			why: "next hands out the front of the READY line and removes it: a, then b."},
		{level: L4, exercise: "line-order-follows-completions", rubric: "fifo", topic: TopicFIFO,
			prompt: "In what order do tasks join the READY line?",
			right:  "in the order they became READY: when their last dependency succeeded, or on arrival with none",
			wrong: [][2]string{
				{"in the order they were submitted", "a task submitted early may become READY late, when its last dependency succeeds."},
				{"in alphabetical order", "names mean nothing to the queue."},
				{"fewest dependencies first", "the line is first in, first out: when a task became READY decides, not how many it waited on."},
			},
			why: "Tasks join the back of the READY line in the order they became READY: a completion that releases a task puts it behind those already waiting."},
		{level: L4, exercise: "retry-goes-last", rubric: "retry", topic: TopicRetry,
			prompt: "Why does a failed task with attempts left go to the back of the READY line, not the front?",
			model:  "At the front, a task that fails again and again would be handed out over and over and starve the tasks behind it. At the back, everything already waiting goes first, and the cause of the failure gets time to clear. Attempts are bounded: the last failure makes the task DEAD, not retried for ever.",
			points: []string{"at the front one failing task would starve the rest", "the back gives the cause time to clear", "attempts are bounded: the last failure is a death"}},
		{level: L4, exercise: "out-of-attempts", rubric: "retry", topic: TopicBlocking,
			prompt: "Why does a task die after its last attempt instead of being retried for ever, and what must happen to the tasks that wait on it?",
			model:  "Retrying for ever hides a bug and burns capacity; a bounded number of attempts turns a task that cannot succeed into a visible failure: DEAD, in the dead-letter queue with its attempts and last error, for a person. The tasks waiting on it can never run, so they are BLOCKED and listed with it — not left PENDING, which would be a silent hang.",
			points: []string{"bounded attempts make a hopeless task a visible failure", "the dead task goes to the dead-letter queue with its attempts and last error", "its dependents are BLOCKED, not left PENDING for ever"}},
		{level: L4, exercise: "out-of-attempts", rubric: "retry", topic: TopicRetry,
			prompt: "A test of the queue with attempts 2: load fails once. Which assertion shows the retry rule?",
			right:  "after the failure, next hands out every task that was READY before load comes back",
			wrong: [][2]string{
				{"after the failure, next hands out load again at once", "that is a retry at the front: one failing task would starve the others."},
				{"after the failure, load is DEAD", "load had two attempts: the first failure leaves it READY, at the back."},
				{"after the failure, load is PENDING until a worker asks for it", "a retry is READY again (or DELAYED with a backoff), never PENDING: it has no dependency left to wait for."},
			},
			why: "A retry joins the back of the READY line: a test submits two tasks, fails the first, and asserts next hands out the second before the first again. Here tidy goes before load's retry."},
		{level: L4, exercise: "retry-goes-last", rubric: "retry", topic: TopicRetry,
			prompt: "a, b and c are READY, in that order. a is handed out and fails with attempts left, no backoff. What does the READY line hold?",
			right:  "b, c, a",
			wrong: [][2]string{
				{"a, b, c", "that puts the retry at the front: one failing task would starve the rest."},
				{"b, c", "a has attempts left: it is retried, not dropped."},
				{"b, a, c", "a retry joins the back of the line, behind every task already waiting."},
			},
			why: "A failed attempt with attempts left goes to the back of the READY line: b, c, then a."},
		{level: L4, exercise: "two-tasks-in-a-loop", rubric: "refuse", topic: TopicCycle,
			prompt: "a was submitted waiting on b. Now b is submitted waiting on a. What happens?",
			right:  "refused: b → a → b would be a loop, and the queue is unchanged",
			wrong: [][2]string{
				{"accepted: both wait PENDING for ever", "that is the silent hang the cycle check exists to prevent."},
				{"accepted, and a's edge to b is dropped", "a refusal changes nothing, and the queue never rewrites an accepted task."},
				{"accepted: b did not exist when a named it", "a named b before it arrived: b waiting on a now closes the loop."},
			},
			why: "b waiting on a, while a already waits on b, closes a loop through b: the submit is refused and changes nothing."},
		{level: L4, exercise: "before-it-exists", rubric: "early", topic: TopicArrival,
			prompt: "x was submitted waiting on y, which did not exist. y is then submitted with no dependencies, handed out and completed. What becomes of x?",
			right:  "x is READY: its last dependency succeeded",
			wrong: [][2]string{
				{"x stays PENDING: it named y before y existed", "an early name is an ordinary dependency once y arrives."},
				{"x is refused now that y exists", "x was accepted when it arrived; nothing refuses it later."},
				{"x is BLOCKED: it arrived before y", "only a DEAD dependency blocks."},
			},
			why: "An unknown dependency counts as not done until it arrives and succeeds; then the task's count reaches zero and it joins the READY line."},
		{level: L4, exercise: "out-of-attempts", rubric: "retry", topic: TopicBlocking,
			prompt: "load has attempts 2 and fails twice. report waits on load. What is report's state?",
			right:  "BLOCKED, by load",
			wrong: [][2]string{
				{"PENDING, waiting for load", "load is DEAD and cannot succeed: PENDING would wait for ever."},
				{"DEAD, like load", "report never ran: it is BLOCKED, not DEAD."},
				{"READY: load is finished", "DEAD is not SUCCEEDED: report's count does not go down."},
			},
			why: "A task that fails its last attempt is DEAD, and everything downstream of it is BLOCKED at once, listed in the dead-letter queue with it."},
		{level: L4, exercise: "two-tasks-in-a-loop", rubric: "refuse", topic: TopicRefused,
			prompt: "Why must a submit refused for a cycle change nothing at all — not even add the task without the edge that closes the loop?",
			model:  "All or nothing: the caller gets an error and can fix the graph and try again, and the queue is exactly as it was. Adding the task without the bad edge would let it run before what it waits on — a silent wrong order no one asked for. In a database one transaction per submit gives it: the cycle found, roll back.",
			points: []string{"the caller gets an error and the queue is exactly as before", "a half-applied submit (the task without its edge) would run in the wrong order", "one transaction per submit, rolled back on the cycle"}},
		{level: L4, exercise: "waiting-on-itself", rubric: "refuse", topic: TopicRefused,
			prompt: "submit a a is refused: a may not wait on itself. What does the queue hold afterwards?",
			right:  "exactly what it held before: no task a",
			wrong: [][2]string{
				{"a, PENDING, waiting on itself for ever", "a refused submit changes nothing: no task is added."},
				{"a, READY, its edge to itself dropped", "dropping the edge would be a change no one asked for: the whole submit is refused."},
				{"a, DEAD, in the dead-letter queue", "a refused submit never enters the queue, so it cannot die."},
			},
			why: "A refused operation changes nothing: the queue is exactly as it was, and the caller gets the error."},
		{level: L4, exercise: "before-it-exists", rubric: "early", topic: TopicArrival,
			prompt: "Why let a task arrive before its dependencies, counting an unknown dependency as not done, rather than refuse it?",
			model:  "Producers are independent: a fan-in's last step may well be submitted before the steps it waits on, and refusing it would force every producer to know the whole graph's order. An unknown dependency simply counts as not SUCCEEDED, so the task waits PENDING until it arrives and succeeds. The price is that a cycle can close through tasks named before they arrived, so the cycle check must follow those names too.",
			points: []string{"the order of submits cannot be controlled across producers", "an unknown dependency counts as not done: the task waits PENDING", "a cycle can then close through tasks named before they arrived"}},
		{level: L4, exercise: "before-it-exists", rubric: "early", topic: TopicArrival,
			prompt: "c is submitted waiting on d, which no one has submitted yet. What is c's state?",
			right:  "PENDING: d counts as not done",
			wrong: [][2]string{
				{"refused: unknown dependency", "a task may arrive before its dependencies: the unknown one simply counts as not done."},
				{"READY: d does not exist, so c waits on nothing", "an unknown dependency is not a finished one: c waits for d to arrive and succeed."},
				{"BLOCKED by d", "only a DEAD task blocks; d is merely not there yet."},
			},
			why: "A task may arrive before its dependencies: an unknown dependency counts as not done, and the task waits PENDING."},

		// L5
		{level: L5, exercise: "cycle-through-old-tasks", rubric: "cycle-old", topic: TopicCycle,
			prompt: "Why is it enough to look for a cycle from the task just submitted, not over the whole graph?",
			model:  "The graph was acyclic before the submit — the check keeps that invariant. Every new edge starts at the new task, so any new cycle must pass through it: the check asks only whether one of its dependencies already waits on it, directly or through other tasks, a search from the new task. It can find one only when earlier tasks named it as a dependency before it arrived.",
			points: []string{"the graph was acyclic before: an invariant the check keeps", "every new edge starts at the new task, so a new cycle passes through it", "so one search from the new task (does a dependency already wait on it?) is enough"}},
		{level: L5, exercise: "a-longer-loop", rubric: "cycle-old", topic: TopicCycle,
			prompt: "The graph is acyclic, and x arrives waiting on y. Where can a cycle this submit closes lie?",
			right:  "through x: every new edge starts at x",
			wrong: [][2]string{
				{"anywhere: the whole graph must be searched", "the graph was acyclic before; only the new edges can close a cycle, and each starts at x."},
				{"only between x and y: a cycle has two tasks", "a cycle may be as long as the graph: this exercise's is longer."},
				{"nowhere: a new task cannot close a cycle", "it can, when earlier tasks named x as a dependency before it arrived."},
			},
			why: "The graph was acyclic before the submit, so a new cycle must pass through the new task: checking from it alone is enough."},
		{level: L5, exercise: "blocked-on-arrival", rubric: "block", topic: TopicBlocking,
			prompt: "Why block everything downstream of a dead task at once, and block a newcomer that waits on it on arrival, rather than leave them PENDING?",
			model:  "A task downstream of a DEAD one can never run: left PENDING, it would wait for ever, a silent hang nobody sees. BLOCKED puts it in the dead-letter queue, named with its root cause, where an operator sees the whole damage of one death at once. A newcomer waiting on a dead or blocked task is in the same position, so it is blocked on arrival.",
			points: []string{"PENDING would wait for ever: a silent hang", "BLOCKED makes it visible in the dead-letter queue, with its root cause", "a newcomer waiting on a dead or blocked task is blocked on arrival for the same reason"}},
		{level: L5, exercise: "root-cause-down-a-chain", rubric: "root", topic: TopicRootCause,
			prompt: "Why does a blocked task name the dead root upstream as its reason, and not its nearest parent?",
			model:  "The root is the task an operator must fix and redrive; the nearest parent is usually only BLOCKED itself and can do nothing. Naming the root lets the dead-letter queue group one outage as one problem instead of hundreds, and redrive by root. When that root is redriven and another dead root still holds the task, the reason changes to that one.",
			points: []string{"the root is what must be fixed and redriven; the parent is only blocked", "grouping by root shows one failure as one entry, not hundreds", "the reason changes when one root is redriven and another still holds the task"}},
		{level: L5, exercise: "diamond-with-another-dead-root", rubric: "redrive", topic: TopicRedrive,
			prompt: "Why does a redrive decide its blocked tasks in dependency order?",
			model:  "A blocked task may be released only when none of its dependencies is DEAD or BLOCKED any more, so its dependencies must be decided first — Kahn's order over the blocked tasks. A task that another dead root still holds stays BLOCKED, renamed to that root. In any other order a task could be released while a dependency it waits on then stays blocked.",
			points: []string{"a task is released only when no dependency is still DEAD or BLOCKED", "so its dependencies are decided first: dependency (Kahn's) order", "a task another dead root holds stays BLOCKED, renamed to that root"}},
		{level: L5, exercise: "dies-again-after-redrive", rubric: "redrive", topic: TopicRedrive,
			prompt: "A redriven task dies again. What happens to the tasks its redrive had released?",
			right:  "they are BLOCKED again, by the same root",
			wrong: [][2]string{
				{"they stay PENDING: they were released", "a new death blocks everything downstream again: PENDING would wait for ever."},
				{"they are DEAD too", "only the task that failed dies; what waits on it is BLOCKED."},
				{"they run anyway: a released task is never blocked twice", "release is not a promise: a dead dependency blocks them whenever it dies."},
			},
			why: "Everything downstream of a DEAD task is BLOCKED, each time it dies: a redrive gives fresh attempts, not a guarantee."},

		// L6
		{level: L6, exercise: "lease-expires", rubric: "lease", topic: TopicLease,
			prompt: "Why hand out tasks with leases and heartbeats, and why is an expiry on the last attempt a death like any other?",
			model:  "A crashed worker never reports back: only a lease, which expires, brings its task back. Heartbeats let a slow but alive worker keep its task without one huge timeout for everyone. An expiry is a failure — \"lease expired\" — so it uses an attempt, and on the last one the task is DEAD and its dependents BLOCKED, as any other failure would make them.",
			points: []string{"a crashed worker never reports: only an expiring lease brings its task back", "heartbeats keep a slow but alive worker's lease without a huge timeout", "an expiry is a failure: it uses an attempt, and the last one is a death"}},
		{level: L6, exercise: "heartbeats", rubric: "lease", topic: TopicLease,
			prompt: "Workers on many machines share one Postgres queue. Whose clock decides that a lease has expired?",
			model:  "The database's: the deadline is written as now() plus the timeout, and a lease is reclaimed by a statement comparing it with now(). Workers' clocks drift and cannot be trusted to agree; a worker's own clock only schedules its heartbeats, which it sends well before the deadline (say at a third of the timeout) to leave room for delays.",
			points: []string{"the database's clock alone (now() in the statement), never a worker's", "workers' clocks drift and disagree", "a worker heartbeats well before the deadline, its own clock only scheduling that"}},
		{level: L6, exercise: "heartbeats", rubric: "lease", topic: TopicLease,
			prompt: "Many workers take tasks from one Postgres table at once. How do they take them without handing one task out twice or waiting on each other?",
			right:  "SELECT … FOR UPDATE SKIP LOCKED in READY order, in the transaction that marks the rows RUNNING",
			wrong: [][2]string{
				{"SELECT … FOR UPDATE, without SKIP LOCKED", "right but serial: every worker waits behind the first one's locks."},
				{"a SELECT, then an UPDATE in a second transaction", "two workers can read the same row before either updates it: a double hand-out."},
				{"an advisory lock around the whole queue", "right but one worker at a time: no concurrency."},
			},
			why: "Dispatch is SELECT … FOR UPDATE SKIP LOCKED in READY order: a row one worker has locked is skipped by the others, so each takes a different task at once, and the lease is written in the same transaction."},
		{level: L6, exercise: "stale-completion", rubric: "fence", topic: TopicFencing,
			prompt: "Why must every completion be fenced by the lease it was handed out with?",
			model:  "A worker whose lease expired may still be running, and finish after the task was handed to another worker. Without a fence both completions count: the task finishes twice, its dependents are released on the wrong result or twice. With the lease id and attempt in the WHERE of the completing UPDATE, an old lease matches no row and is refused; the slow worker drops its result.",
			points: []string{"an expired worker may still finish after the task was handed out again", "without a fence the task completes twice, its dependents released on a stale result", "the lease id and attempt in the completing UPDATE's WHERE: a stale lease matches nothing"}},
		{level: L6, exercise: "stale-completion", rubric: "fence", topic: TopicFencing,
			prompt: "Why does a completion commit its task's new state, the fence check and its dependents' counts in one transaction?",
			model:  "A crash between them would leave a SUCCEEDED task whose dependents never learn of it — never released — or counts taken off twice on a retry. The fence, the state change and the decrements must see and change the same rows atomically, and no reader may see a completion half done: the READY line is always right.",
			points: []string{"a crash in between would lose or double a release", "the fence check and the changes must be atomic on the same rows", "readers never see a half-done completion"}},
		{level: L6, exercise: "stale-completion", rubric: "fence", topic: TopicFencing,
			prompt: "b's lease expired and b was handed to a second worker. The first worker now completes b. What happens?",
			right:  "refused: the lease is stale, and nothing changes",
			wrong: [][2]string{
				{"b SUCCEEDED, and the second worker's completion is refused later", "the first worker no longer holds b: only the current lease may complete it."},
				{"b SUCCEEDED twice, and its dependents are released twice", "that is exactly what fencing prevents."},
				{"b is DEAD: two workers held it", "an expiry is a failure that already used an attempt; the stale completion is only refused."},
			},
			why: "Only the current, unexpired lease of a RUNNING task can heartbeat, complete or fail it: a slow worker's old lease is refused and changes nothing."},
		{level: L6, exercise: "backoff", rubric: "backoff", topic: TopicBackoff,
			prompt: "Why wait between retries, growing the wait each time up to a cap?",
			model:  "A retry at once hammers a service that is failing and gives its cause no time to clear; waiting base·factor^(k−1) backs off more the longer it keeps failing. The cap keeps a task from waiting for ever. While it waits the task is DELAYED, out of the READY line, so it takes no worker.",
			points: []string{"an immediate retry hammers a failing service", "the wait grows with each attempt (exponential), up to a cap", "a waiting retry is DELAYED, out of the line, taking no worker"}},
		{level: L6, exercise: "permanent-error", rubric: "backoff", topic: TopicPermanent,
			prompt: "Why send a task that fails with a permanent error to the dead-letter queue at once, whatever attempts it has left?",
			model:  "A permanent error — bad input, a 4xx, a missing record — will fail again on every retry: retrying wastes attempts and worker time, delays the alert by the whole backoff, and may do harm. The handler knows which errors are permanent and marks them; the task is DEAD at once, with its dependents BLOCKED, for a person to fix. Guessing wrong either way costs: a transient error marked permanent needs a manual redrive.",
			points: []string{"retrying cannot fix bad input: it wastes attempts and delays the alert", "the handler marks the error permanent; the queue cannot guess", "marking a transient error permanent costs a manual redrive"}},
		{level: L6, exercise: "retry-storm-jitter", rubric: "jitter", topic: TopicBackoff,
			prompt: "Why add jitter to the backoff between retries?",
			model:  "Tasks that fail together — an outage — would otherwise retry together, at the same instants, over and over: a synchronized stampede on the service that just came back. Jitter randomises each wait so the retries spread over the window and the load is smooth. Full jitter (uniform in [0, d]) spreads most; equal jitter keeps at least half the wait.",
			points: []string{"without jitter tasks that failed together retry together: a stampede", "jitter spreads the retries over the window", "full jitter waits uniform in [0, d]; equal jitter keeps at least half"}},
		{level: L6, exercise: "retry-storm-jitter", rubric: "jitter", topic: TopicBackoff,
			prompt: "400 tasks fail at the same moment, with backoff 1s 2 8s and no jitter. When do their first retries fall due?",
			right:  "all 400 at the same moment, 1s later",
			wrong: [][2]string{
				{"spread over the next second", "that is what jitter would do; without it every wait is the same."},
				{"one per second, in the order they failed", "a backoff delays each task by the same rule, not one after another."},
				{"at once: a retry does not wait", "with a backoff, the first retry waits the base, 1s."},
			},
			why: "Without jitter every task waits exactly the same delay, so tasks that failed together fall due together: a stampede."},
		{level: L6, exercise: "retry-storm-jitter", rubric: "jitter", topic: TopicBackoff,
			prompt: "With jitter full and backoff 4s 2 16s, a task fails its first attempt at 0s. When does its retry fall due?",
			right:  "at a random time between 0s and 4s",
			wrong: [][2]string{
				{"at a random time between 2s and 4s", "that is equal jitter: half the wait fixed, half random."},
				{"at exactly 4s", "that is no jitter."},
				{"at a random time between 4s and 8s", "jitter never waits longer than the backoff's delay."},
			},
			why: "Full jitter waits a uniform random time in [0, d]: here d is the base, 4s."},
		{level: L6, exercise: "bulk-redrive", rubric: "bulk", topic: TopicRedrive,
			prompt: "After an outage, 400 tasks are DEAD with the same error. How do you redrive them, and why not all at once?",
			model:  "Group the dead-letter queue by root cause and error and redrive by filter (redrive matching), not task by task. Preview first: how many would be redriven, how many blocked tasks released, which skipped as poisoned. Then pace it at a rate, since 400 retries in a burst would stampede the service that just came back, and be ready to cancel if the errors return.",
			points: []string{"group by root cause and redrive by filter, not one by one", "preview first: what would be redriven, released, skipped", "pace it, and cancel if errors come back: a burst stampedes the recovered service"}},
		{level: L6, exercise: "bulk-redrive", rubric: "bulk", topic: TopicRedrive,
			prompt: "Why alert when the dead-letter queue grows by N entries within a window, rather than on its size or on each entry?",
			model:  "The size says little: old entries may wait for days for a fix. One alert per entry is noise: an outage would page 400 times. Growth — N new entries within D — catches an outage fast and ignores a steady trickle; one alert when it starts and one clear when it falls back. It should name the root causes, so that the person can redrive by filter.",
			points: []string{"size says little: old entries may sit for days", "an alert per entry is noise: one outage would page hundreds of times", "N within a window catches an outage fast, with one alert and one clear"}},
		{level: L6, exercise: "bulk-redrive", rubric: "bulk", topic: TopicRedrive,
			prompt: "Why does the durable queue keep each DAG's tasks and edges together, spreading whole DAGs over databases by a hash of the DAG id?",
			right:  "a completion, a cycle check or a redrive then touches one DAG's rows in one database, with no transaction across shards",
			wrong: [][2]string{
				{"to give each task its own database", "a completion changes its dependents' counts: they must commit together, in one database."},
				{"so that a DAG can be split when it grows", "a DAG never spans two databases: its operations would need distributed transactions."},
				{"to order tasks of different DAGs first in, first out", "FIFO is kept within a queue's READY order; sharding is about keeping each DAG's transactions local."},
			},
			why: "Every operation on a DAG — submit with its cycle check, completion with its dependents, a death's blocking wave, a redrive — touches only that DAG: keeping it in one database keeps each one a local transaction, and DAGs spread over databases without crossing them."},
		{level: L6, exercise: "poison-pill", rubric: "poison", topic: TopicPoison,
			prompt: "Why cap automatic redrives of a task that keeps dying?",
			model:  "A poison pill dies on every attempt: redriving it again and again burns capacity and may take a service down each time, and a bulk redrive would keep sweeping it back in. After the cap, a bulk redrive skips it and only a forced redrive — a person's decision — moves it. Someone must be told: it needs a fix, not another retry.",
			points: []string{"a task that always dies burns capacity and may hurt a service each time", "after the cap a bulk redrive skips it: only a forced redrive moves it", "a person must be told: it needs a fix, not a retry"}},
		{level: L6, exercise: "cost-of-the-cycle-check", rubric: "cost", topic: TopicCycle,
			prompt: "A chain of " + n + " tasks is submitted in order, each waiting on the one before. How many edges does the dfs strategy examine in all?",
			right:  chainDFS,
			wrong: [][2]string{
				{chainPK, "that is what pk examines: it keeps a topological order and sees at once that each new task can go last."},
				{count(c.chain["dfs"] * 2), "each edge below the new task is examined once per submit, not twice."},
				{count(uint64(costN)), "dfs searches from scratch: each submit walks every task below the new one."},
			},
			why: "dfs searches from each new task through everything below it: 1 + 2 + … + " + strconv.Itoa(costN-1) + " = " + chainDFS + " edges for " + n + " tasks, quadratic; pk examines " + chainPK + " and twoway " + chainTW + ", one per submit."},
		{level: L6, exercise: "cost-of-the-cycle-check", rubric: "cost", topic: TopicCycle,
			prompt: "A wide graph: src, " + n + " shards each waiting on src, and a sink waiting on all of them, submitted in that order. pk examines " + widePK + " edges in all. How many does dfs examine?",
			right:  wideDFS,
			wrong: [][2]string{
				{count(uint64(costN) * uint64(costN)), "quadratic is the deep chain's cost: on a wide graph each search is shallow."},
				{widePK, "dfs also walks below the sink's " + n + " dependencies to src, once each."},
				{count(uint64(costN) + 1), "every edge is looked at once at its submit, " + count(uint64(2*costN)) + " edges, and dfs also searches below the sink."},
			},
			why: "On a wide, shallow graph each search is short: dfs examines " + wideDFS + " edges, pk " + widePK + ". Depth, not size, is what makes dfs quadratic."},
		{level: L6, exercise: "cost-of-the-cycle-check", rubric: "cost", topic: TopicCycle,
			prompt: "What does a cycle check cost per submit on deep graphs, and how do an incremental topological order and batch submits cut it?",
			model:  "A search from every new task walks everything below it: on a chain of " + n + " submitted in order dfs examines " + chainDFS + " edges, n²/2, while pk and twoway examine " + chainPK + ", one per submit, because they keep an order with every dependency before its dependents and an edge that agrees with it cannot close a cycle; they search only the region between the two places when it does not. On a wide graph every strategy stays linear (dfs " + wideDFS + ", pk " + widePK + "): depth is what hurts. A batch submit checks all its new edges in one pass (Kahn's algorithm over the batch and what waits on it) instead of once per task, all or nothing.",
			points: []string{"a search per submit is quadratic on a deep chain (" + chainDFS + " edges for " + n + " tasks with dfs)", "an incremental topological order (pk, twoway) checks only edges against the order: " + chainPK + " edges", "on a wide, shallow graph all are linear: depth is the cost", "a batch is checked in one pass, all or nothing"}},
	}
}
