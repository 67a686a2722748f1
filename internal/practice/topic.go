package practice

// Topic is what a practice question is about: one rule of the queue. Each
// topic carries the rule in one or two sentences (the *why* a graded
// answer shows) and what an interviewer might probe next.
type Topic uint8

// The topics of practice questions. New topics are added at the end, so
// that the numbers stored in a learner's progress keep their meaning.
const (
	TopicOrder     Topic = iota + 1 // dependencies: READY when the last one succeeds
	TopicFIFO                       // next hands out the front of the READY line
	TopicRetry                      // a retry goes to the back of the line
	TopicCycle                      // a submit that would close a cycle is refused
	TopicBlocking                   // downstream of a dead task is BLOCKED
	TopicRootCause                  // a blocked task names its dead root, not its parent
	TopicRedrive                    // what a redrive releases and what stays blocked
	TopicLease                      // leases expire; heartbeats renew them
	TopicBackoff                    // a retry waits out a delay, DELAYED
	TopicFencing                    // only the current, unexpired lease may act
	TopicPermanent                  // a permanent error is dead at once
	TopicPoison                     // a task that keeps dying needs a human
	TopicRefused                    // a refused operation changes nothing
	TopicArrival                    // a task may arrive before its dependencies
)

// Topics returns every topic, in order.
func Topics() []Topic {
	return []Topic{TopicOrder, TopicFIFO, TopicRetry, TopicCycle, TopicBlocking, TopicRootCause,
		TopicRedrive, TopicLease, TopicBackoff, TopicFencing, TopicPermanent, TopicPoison, TopicRefused, TopicArrival}
}

type topicText struct{ name, rule, probe string }

var topicTexts = map[Topic]topicText{
	TopicOrder: {"dependencies",
		"A task waits until every dependency has SUCCEEDED: completing a task takes one off each dependent's count, and a dependent whose count reaches zero joins the READY line.",
		"Ask how the waiting counts stay right when a completion and a submit race, and how a database would make the decrement atomic with the completion."},
	TopicFIFO: {"FIFO order",
		"next hands out the front of the READY line, and tasks join it at the back in the order they became READY (first in, first out).",
		"Ask what a priority would change, and how to keep FIFO when many workers take tasks at once (SKIP LOCKED in READY order)."},
	TopicRetry: {"retry at the back",
		"A failed attempt with attempts left goes to the back of the READY line, never the front: one failing task must not starve the tasks waiting behind it.",
		"Ask what happens to the tasks behind it if a retry went to the front, and when a retry should wait (backoff) rather than rejoin at once."},
	TopicCycle: {"cycle check",
		"The graph was acyclic before the submit, so a new cycle must pass through the new task: checking from it alone is enough. A cycle closes only if a dependency already waits on the new task, which needs the task to have been named as a dependency before it arrived.",
		"Ask what the check costs per submit on a 10,000-task chain (a DFS from scratch is n²/2 visits) and how an incremental topological order (Pearce–Kelly) avoids it."},
	TopicBlocking: {"blocking downstream",
		"Everything downstream of a DEAD task is BLOCKED at once, not left PENDING: PENDING would wait for ever on a dependency that cannot succeed (a silent hang), while BLOCKED puts it in the dead-letter queue where someone sees it.",
		"Ask how far the blocking wave goes, in what order, and what it costs on a wide graph."},
	TopicRootCause: {"root cause",
		"A blocked task's reason names its root cause, the DEAD task upstream, not its nearest parent: that is the task an operator must fix and redrive.",
		"Ask how the reason stays right when one root is redriven and another dead root still holds the task."},
	TopicRedrive: {"redrive",
		"A redrive gives the dead task fresh attempts, then decides its blocked tasks in dependency order: a task is released to PENDING when no dependency is DEAD or BLOCKED any more, and otherwise stays BLOCKED, renamed to a root that is still DEAD.",
		"Ask why the order matters (Kahn's order: a task's dependencies are decided first) and how a redrive of hundreds of tasks should be paced."},
	TopicLease: {"leases",
		"A lease lasts the lease timeout from hand-out or the last heartbeat; at its deadline it expires, which is exactly a failure with \"lease expired\": retried, or dead on the last attempt.",
		"Ask how to choose the timeout, and what a worker that is slow but alive should do (heartbeat before the deadline)."},
	TopicBackoff: {"backoff",
		"A failed attempt k with attempts left waits min(max, base·factor^(k−1)), DELAYED; at its due time it joins the back of the READY line.",
		"Ask why jitter: what do a thousand retries falling due at the same moment do to the service that just failed?"},
	TopicFencing: {"fencing",
		"Only the current, unexpired lease of a RUNNING task can heartbeat, complete or fail it: a slow worker's old lease is refused, so two workers can never both finish one task.",
		"Ask how a database enforces it (the lease id and attempt in every UPDATE's WHERE) and what the slow worker should do with its result."},
	TopicPermanent: {"permanent errors",
		"A permanent error sends the task to the dead-letter queue at once, whatever attempts are left: retrying cannot help bad input.",
		"Ask how a worker tells a permanent error from a transient one, and what the cost is of guessing wrong either way."},
	TopicPoison: {"poison pills",
		"A task redriven again and again that dies again is a poison pill: a bulk redrive skips it and only a forced redrive moves it, so it cannot take the queue down with it each time.",
		"Ask when an automatic redrive should stop, and who is told."},
	TopicArrival: {"arriving early",
		"A task may arrive before its dependencies: a dependency not submitted yet counts as not done, and the task waits PENDING until it arrives and succeeds.",
		"Ask what this allows that a queue refusing unknown dependencies does not, and what it means for the cycle check (a loop can close through tasks named before they arrived)."},
	TopicRefused: {"refused operations",
		"A refused operation changes nothing: the queue is exactly as it was, and the caller gets the error.",
		"Ask why all-or-nothing matters here, and how a database gives it (one transaction per operation)."},
}

// Name returns the topic as the page names it, e.g. "retry at the back".
func (t Topic) Name() string { return topicTexts[t].name }

// Rule returns the rule behind the topic in one or two sentences.
func (t Topic) Rule() string { return topicTexts[t].rule }

// Probe returns what an interviewer might ask next about the topic.
func (t Topic) Probe() string { return topicTexts[t].probe }

// String returns the topic's name.
func (t Topic) String() string { return t.Name() }
