// Package core is dagq's work queue: tasks that wait on other tasks,
// retries at the back of the line, a dead-letter queue, blocking of
// everything downstream of a dead task, redrive, and a cycle check on every
// submit.
//
// A [Queue] is one state machine. Each task is in one [State]:
//
//	submit ─► PENDING ──deps done──► READY ──Next──► RUNNING ──Complete──► SUCCEEDED
//	   │         │                     ▲  ▲             │
//	   │         │ a dep died          │  └──Fail, attempts left (back of the line)
//	   │         ▼                     │                │
//	   └────► BLOCKED ◄──────────── DEAD ◄──Fail, last attempt
//	  (dep dead)   └─redrive of its root─► PENDING       └──Redrive──► READY
//
// The queue keeps these invariants after every operation:
//
//  1. No silent hang: no PENDING task has a DEAD or BLOCKED dependency.
//  2. Root cause: every BLOCKED task's reason is "blocked by R" where R is
//     DEAD now and a transitive dependency of the task.
//  3. The dead-letter queue holds exactly the DEAD and BLOCKED tasks, in
//     the order they entered it.
//  4. READY tasks are handed out in the order they became READY.
//  5. A refused operation changes nothing.
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
