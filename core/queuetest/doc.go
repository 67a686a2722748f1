// Package queuetest is dagq's conformance suite: one set of tests that
// every implementation of the queue passes, the in-memory [core.Queue] and
// the Postgres-backed queue alike. An implementation's test calls [Run]
// with an [Open] that makes a fresh queue:
//
//	func TestConformance(t *testing.T) {
//		queuetest.Run(t, func(t testing.TB, cfg core.Config) (queuetest.Queue, error) {
//			return durable.Open(t.Context(), db, cfg) // whatever makes an empty queue
//		})
//	}
//
// # What it checks
//
// The suite drives a queue through the [Queue] interface only: the
// operations (Submit, Next, Heartbeat, Complete, Fail, Redrive, Advance),
// the reads (Now, Status, DeadLetters, ReadyTasks), and the events the
// queue delivers to Config.OnEvent. For every operation it
//
//   - predicts the outcome from a model folded from the queue's own earlier
//     events: whether it is accepted or refused and with which of core's
//     sentinel errors (errors.Is), the state a task arrives in, the task
//     Next hands out, which lease is current (invariant 7: only the
//     current, unexpired lease acts; an expired lease is refused as expired
//     for ever after), what a failure leads to (READY at the back, DELAYED
//     until a due time computed from the seeded jitter, or DEAD with its
//     reason), the blocking wave of a death, nearest first, the tasks a
//     completion makes READY in arrival order, the tasks a redrive releases,
//     decided dependencies before dependents;
//   - checks the events: each kind's From → To is the state table's, From
//     is the task's state, At is the clock, an advance fires every timer up
//     to its end in order of time (ties in the order set), each at its own
//     time; all events of an operation share one Op and Op grows (unless
//     the implementation leaves Op 0 on every event); and every event
//     arrives once its operation has finished (for a durable queue: has
//     committed), all of them before the operation returns: the state of
//     the event's task, read with Status from inside OnEvent, is its state
//     after the operation;
//   - checks the reads against the model and the invariants of [core]:
//     no silent hang (1), the root cause of every BLOCKED task (2), the DLQ
//     exactly the DEAD and BLOCKED tasks in the order they entered (3),
//     READY tasks in the order they became READY (4), a refused operation
//     changing nothing (5), nothing left unfired that the clock reached (6).
//
// Run's parts are subtests: table cases of the rules (StateTable, Cycles,
// TimeTable), each on a fresh queue; RandomSequences, seeded random
// operation sequences run on the queue under test and on [core.New] side
// by side, the two compared after every operation (results, errors,
// leases, events, states, the READY line, the DLQ, the clock, the timers);
// ManyTimers, one long sequence with dozens of timers live at once; and
// LongLine, one that keeps the READY line long and the DLQ busy.
//
// What two implementations may do differently, and the suite does not
// compare: lease ids (each side keeps its own leases, and an operation
// names a lease by what it is to its task — current, the K-th handed out,
// the latest of attempt N — so that the two are paired by task and
// attempt), Event.Op (each queue numbers its own operations), Event.Visits
// and Event.Visited (the cycle check's own work), a cycle's Path when the
// two name different cycles (each must be a real cycle through the
// submitted task: first and last element that task, each step an edge),
// and DeadLetter.Fingerprint and BlastRadius, derived data an
// implementation may leave zero (if it fills them, they must be right).
//
// # Levels: a candidate's own queue
//
// A candidate preparing for the interview question writes a queue of
// their own and holds it to the rules of their level with [RunLevel]:
// [L4] (submit, next, complete, fail, status: the [L4Queue] interface),
// [L5] (and a dead-letter queue: blocking with the root, redrive;
// [L5Queue]) or [L6] (and leases, fencing, backoff, permanent errors,
// bulk redrive; [L6Queue]). The interfaces are small and need no context,
// no events and no reads but Status and, from L5, DeadLetters; any error
// is a refusal. Each rule is first shown on a short script (a ladder,
// easiest first, that stops at the first rung broken), then random
// sequences compare the queue with dagq's after every operation. A
// failure ([Failure]) is the smallest script that breaks the queue,
// written in the scenario language with what dagq's queue does instead
// and a link to the playground that plays it. `wq practice init DIR`
// writes a module with a stub queue and the test that runs it.
//
// # The in-memory queue's own property tests
//
// The suite's model, its expectations and its invariants also drive
// *core.Queue directly, in this package's tests, with the operations only
// it has besides the interface's: SubmitBatch, RedriveMatching (at once
// and at a rate), CancelRedrive, ForceRedrive and the growth alert of
// Config.Alert. TestMemoryRandomSequences (10,000 sequences, 1,000 with
// -short), TestMemoryAutoRedrive (an OnEvent that redrives what dies),
// TestMemoryDeadLetterOps (a busy dead-letter queue) and FuzzMemoryOps
// hold each operation to the model's prediction, compare what only the
// in-memory queue shows (Info, Lease ids, NextTimer, Stats) and a second
// queue without OnEvent, and print a failing sequence, shrunk, with the
// -queuetest.seed that reruns it.
//
// # Seeds and cost
//
// The sequences derive from a fixed seed, so a run repeats exactly. A
// failing sequence is shrunk to a shorter one that still fails, within a
// budget of replays, and reported as a scenario with its seed;
// -queuetest.seed=N (or the environment variable DAGQ_QUEUETEST_SEED=N)
// runs that sequence alone, and -queuetest.sequences=N sets how many run.
//
// Run opens 84 queues for the table cases and, besides as many
// in-memory references, 32 for the sequences (30 of 200 operations, 8 of
// 60 with -short; ManyTimers' 640 and LongLine's 1,500 or so, a third of
// that with -short): modest for a queue whose Open
// costs tens of milliseconds. Each operation costs one Status per name
// the sequence uses (at most 16), one ReadyTasks, one DeadLetters and
// one Now; a refused one, the same again.
package queuetest
