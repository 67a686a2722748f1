// Package durable is dagq's queue in Postgres: core's state machine — tasks
// that wait on tasks, retries, backoff, leases and heartbeats, a
// dead-letter queue, blocking downstream of a dead task, redrive, a cycle
// check on every submit — kept in tables, for queues that must survive a
// crash and serve many workers on many machines. It is built on pgx v5.
//
// [Open] connects and migrates the schema ([Migrate]: embedded, versioned
// SQL files in migrations/, recorded in dagq_schema_version, serialised by
// an advisory lock, a no-op when up to date; wq migrate URL does the same
// from the command line). A database holds any number of DAGs; [DB.Queue]
// opens one, a [Queue] with core's operations, errors and events. The DB's
// own [DB.NextBatch], [DB.Complete], [DB.Fail] and [DB.Heartbeat] serve
// workers across all DAGs, with leases that carry their DAG.
//
// # Transactions and locks
//
// Every operation is one transaction, and its events ([core.Event], the
// in-memory queue's, field for field) are delivered after it commits.
//
//   - Next hands out READY tasks in READY order (ready_seq: a retry, or a
//     DELAYED task falling due, joins the back) with SELECT … FOR UPDATE
//     SKIP LOCKED, in batches, across DAGs or within one: one statement.
//   - Complete is one UPDATE fenced by state, lease id and attempt, and
//     one UPDATE of its dependents' waiting counts, in one transaction;
//     those left waiting on nothing become READY in their arrival order.
//   - Submit, a death's blocking wave, a redrive and the clock take the
//     DAG's advisory lock (pg_advisory_xact_lock on a hash of the DAG id),
//     so the graph is walked by one of them at a time per DAG. A submit
//     share-locks the rows of its dependencies, so a Complete or a death
//     of one of them either waits for the submit or is seen by it.
//   - Every statement that changes a RUNNING task names its lease id and
//     attempt: a late worker's Complete, Fail or Heartbeat is refused
//     (ErrStaleLease, ErrNotRunning, or ErrLeaseExpired for a lease that
//     expired, remembered in dagq_expired), never applied.
//
// # The cycle check
//
// Each DAG's topological order is kept in a column (Pearce–Kelly's ord;
// see order.go): a name first seen as a dependency goes to the front, a new
// task to the back, and only an edge that goes against the order searches
// the region it affects. So a submit takes a constant number of statements
// on chains (in either direction) and wide graphs, whatever their size; a
// refused submit changes nothing and returns a *core.CycleError with the
// whole path.
//
// # Time
//
// The database's clock decides every lease deadline and due time: the
// statements read it (clock_timestamp()), so workers whose clocks disagree
// still agree on when a lease expires, and a worker's own clock only
// schedules its wake-ups. Every DAG's leases expire ([DefaultLeaseTimeout],
// 30 s, unless configured), and a [Worker] runs the maintenance pass
// ([DB.Tick]) when the next timer falls due, so a crashed worker's task runs
// again within its lease timeout and a retry when its backoff ends. The
// virtual clock of core's queue, moved only by [Queue.Advance], is an
// explicit option, Options.VirtualClock, for replaying scripts (the
// conformance suite, wq run --db). See [Clock].
//
// # The dead-letter queue
//
// [Queue.DeadLetters] and [Queue.DeadLetterGroups] read the DLQ with core's
// fields; [Queue.RedriveMatching] redrives a selection, skipping poisoned
// tasks (Config.PoisonAfter), all at once in one transaction or at a rate
// (N every Per of the DAG's clock, each batch its own transaction, the
// redrive under way kept in dagq_redrives so that it goes on after a
// restart; [Queue.CancelRedrive] stops it), and [Queue.PreviewRedrive]
// says what it would do by running it and rolling it back. Config.Alert,
// the growth alert, is kept in the DAG's row and moves in the transaction
// of the entries that move it (see alert.go). The alert's clear and a
// redrive's next batch are timers like a lease's deadline: Advance fires
// them in order with the tasks' timers, and [DB.Tick] on a Clock.
//
// # Looking at a task, exporting an incident
//
// [DB.TaskDetail] says what an operator asks of one task: its attempts
// with their errors, times and lease holders (WorkerOptions.ID, written by
// the hand-out itself; failed attempts kept in dagq_attempts, written only
// when one fails, the latest 20 per task), its current lease, what it
// waits on and what waits on it, its arguments and result.
// [DB.ExportScript] writes a DAG as a scenario script that rebuilds its
// state in the in-memory queue (wq db export), checked against the
// database before it is returned.
package durable
