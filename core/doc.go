// Package core is dagq's work queue: tasks that wait on other tasks,
// retries at the back of the line, a dead-letter queue, blocking of
// everything downstream of a dead task, redrive, and a cycle check on every
// submit.
//
// A [Queue] is one state machine. Each task is in one [State]:
//
//	submit ─► PENDING ──deps done──► READY ──Next──► RUNNING ──Complete──► SUCCEEDED
//	   │        │  ▲                 ▲ ▲ ▲              │
//	   │  a dep │  │ its root        │ │ └──────────────┤ Fail or lease expired, attempts left
//	   │   died ▼  │ redriven        │ │                │ (back of the line)
//	   └────► BLOCKED                │ └─due── DELAYED ◄┤ the same, under a backoff
//	 (dep dead)  ▲                Redrive               │
//	             └──── blocks ───── DEAD ◄──────────────┘ last attempt, or a permanent error
//
// The queue keeps these invariants after every operation:
//
//  1. No silent hang: no PENDING task has a DEAD or BLOCKED dependency.
//  2. Root cause: every BLOCKED task's reason is "blocked by R" where R is
//     DEAD now and a transitive dependency of the task.
//  3. The dead-letter queue holds exactly the DEAD and BLOCKED tasks, in
//     the order they entered it.
//  4. READY tasks are handed out in the order they became READY; a retry,
//     and a DELAYED task that falls due, joins the back.
//  5. A refused operation changes nothing.
//  6. Time: no lease outlives its deadline, and no DELAYED task its due
//     time: once the clock reaches them they have fired, in order of time
//     (ties in the order they were set).
//  7. Fencing: only the current, unexpired lease of a RUNNING task can
//     heartbeat, complete or fail it.
//
// Time is virtual: the queue's clock ([Queue.Now]) starts at 0 and moves
// only through [Queue.Advance], which fires every lease
// deadline and due time on the way, each at its own time. Under
// [Config.LeaseTimeout] a lease that is neither completed, failed nor
// renewed by [Queue.Heartbeat] in time expires, which is exactly a failure
// with "lease expired": a crashed worker's task is retried or dead-lettered,
// never left RUNNING. Under [Config.Backoff] a retry waits, DELAYED, for a
// jittered delay from a seeded generator, so that a run repeats exactly.
// With neither configured no timer is ever set.
//
// The dead-letter queue is operated as a whole, too: [Queue.DeadLetters]
// gives each entry's root, error, [Fingerprint] and blast radius (the
// BLOCKED tasks it holds, a count kept as they change: O(1) to read);
// [Queue.DeadLetterGroups] groups the dead by fingerprint, one group per
// root cause; [Queue.RedriveMatching] redrives a group, or the tasks whose
// error contains a text, at once or at a [Rate] on the clock, deciding what
// they held up once for all of them, and [Queue.PreviewRedrive] says what
// it would do without doing it; [Config.PoisonAfter] sets aside the tasks
// that keep dying for a person and [Queue.ForceRedrive]; [Config.Alert]
// raises one event when the queue grows fast and one when it calms down.
//
// Tasks may arrive in any order: a dependency that has not arrived counts as
// not succeeded. The graph stays acyclic: a submit that would close a cycle
// is refused with a [*CycleError] naming the whole path. The check is done
// by a strategy of package incremental, picked by [Config.Strategy].
//
// Every state change is an [Event], delivered in order to [Config.OnEvent];
// the scenario traces and the playground are built from them. The events of
// an operation are delivered once it has finished, just before it returns,
// so a callback sees a consistent queue and may act on it: redrive a task
// when its death arrives, say. The events of an operation a callback calls
// are delivered after the events already waiting, by the same loop, so
// events always arrive in the order of their [Event.Op]; the queue a
// callback sees is the one after every operation so far, which may be later
// than the event in hand.
package core
