// Package scenario is dagq's scenario language: a script of queue
// operations, checked, run against a [core.Queue] and its trace written
// for people or programs. The command-line tool, the server, the
// playground and the tests all use this one implementation, three ways:
//
//   - [NewStream] checks a script and [Stream.Run] runs it, writing each
//     step of the trace as soon as it has run, as text ([Text]) or JSON
//     lines ([JSON]), within [Limits]: what `wq run` and the server's
//     /api/run do, in memory bounded for a script of any length.
//   - [NewRunner] makes a script's queue and [Runner.Exec] runs one
//     [Command] at a time, returning its [Step] with the events it caused:
//     durable's ExportScript builds the script it writes this way.
//   - [Record] runs a script and keeps the moments a caller asks for: the
//     playground's pictures.
//
// [Parse] gives a script's commands ([Script]), with a [*SyntaxError] at
// the line and column of what is wrong; [Run] runs a whole parsed script
// and returns its [Trace] for [WriteText] and [WriteJSON], as the tests of
// the packages that draw and serve traces do.
//
// # The language
//
// A script has one command a line. A # starts a comment, anywhere on a
// line, and runs to its end; blank lines and comment-only lines are
// ignored. Words are separated by spaces or tabs. Task names
// are one to 256 ([MaxName]) of the characters A-Z a-z 0-9 _ . : / and -.
//
//	attempts 3                 # max attempts (default 3); must come before the first submit
//	strategy pk                # cycle-check strategy (default: the project's default)
//	submit parse fetch         # parse waits on fetch (fetch may not exist yet)
//	next                       # hand out the front READY task
//	complete parse             # complete the task's current lease
//	fail fetch HTTP 503        # fail the task's current lease; the rest of the line is the error
//	redrive fetch
//	expect parse BLOCKED       # assertion: a failed expect is an error naming the line
//
// The commands (durations are Go's: 250ms, 30s, 2m):
//
//   - attempts N sets how many times a task may be handed out before a
//     failure sends it to the dead-letter queue; N is a whole number, at
//     least 1. Without it a task gets 3 attempts ([DefaultAttempts]).
//   - strategy NAME picks the cycle check, one of incremental.Names().
//   - lease D: a lease expires D after its hand-out or last heartbeat
//     (default: never).
//   - backoff BASE FACTOR MAX: a retry waits min(MAX, BASE·FACTOR^(k−1))
//     after attempt k, DELAYED (default: READY at once).
//   - jitter none|full|equal [SEED]: none is the delay d itself, full is
//     uniform in [0, d], equal is d/2 + uniform in [0, d/2]; from a
//     generator seeded by SEED (default 0), so that a run repeats exactly.
//   - poison N: a task redriven N times (since its submit or its last
//     redrive!) that dies again is poisoned, "needs a human" (default:
//     off).
//   - alert N D: one alert when N tasks have entered the dead-letter queue
//     within the last D of the clock, one clear when fewer have (default:
//     off).
//   - submit TASK [DEP...] submits a task waiting on the dependencies,
//     which need not have been submitted yet.
//   - next hands out the task at the front of the READY line, if any.
//   - complete TASK and fail TASK [ERROR TEXT] act on the task's current
//     lease; TASK@N acts on the lease of attempt N instead, which the queue
//     refuses if it is stale or expired. The error text is the rest of the
//     line, trimmed; it may be empty, and cannot hold a # (that starts the
//     comment). A failure is retried at the back of the line, DELAYED
//     under a backoff, or DEAD at the last attempt.
//   - fail! TASK[@N] [ERROR TEXT] is a permanent error: DEAD at once,
//     whatever attempts are left.
//   - heartbeat TASK[@N] renews the lease: its deadline becomes now + D.
//   - advance D moves the clock by D: every deadline and due time up to it
//     fires, one at a time, in order of time.
//   - redrive TASK gives a DEAD task fresh attempts and releases what it
//     blocked; it is refused for a poisoned task. redrive! TASK redrives
//     it even if poisoned, and starts its count of redrives over.
//   - dlq shows the DEAD tasks grouped by the fingerprint of their error:
//     count, first and last entry, tasks, blast radius, poisoned ones; and
//     the alert.
//   - redrive matching TEXT... [at N/D] redrives the DEAD tasks whose
//     error contains TEXT, skipping poisoned ones: all now, or N now and N
//     more every D of the clock (at 2/1s, at 10/m). redrive group G
//     [at N/D] does the same for a group of dlq, by its number (1, the
//     first) or its fingerprint. redrive cancel stops the redrive in
//     progress; what it redrove stays redriven.
//   - preview redrive matching TEXT... and preview redrive group G say what
//     the redrive would do, changing nothing: the tasks it would redrive,
//     and what each would release or leave blocked under which root.
//   - expect TASK STATE asserts the task's state, one of PENDING, READY,
//     RUNNING, DELAYED, SUCCEEDED, DEAD and BLOCKED, written in upper case.
//
// attempts, strategy, lease, backoff, jitter, poison and alert may each
// appear once, before the first submit; the queue is made from them before
// the first command runs. A script that breaks a rule is refused as a
// whole with a [*SyntaxError] that gives the line and column (a tab counts
// as one column) of what is wrong, or of the end of the line where an
// argument is missing. [Script.String] prints a
// script back in canonical form, which parses to the same commands.
//
// # Running
//
// A run executes the commands in order. An operation the queue refuses (a
// duplicate or cyclic submit, completing or failing a task that is not
// RUNNING, redriving one that is not DEAD, an unknown task) is recorded as
// a [Step] with OK false and the queue's error, and the run goes on. A
// failed expect stops the run with an [*ExpectError]. Each step carries the
// events ([core.Event]) the command caused; a [Board] folds them back into
// the queue's state, which is how the playground animates a run and how the
// JSON trace reports states and the dead-letter queue.
//
// # The library
//
// [Library] holds ready-made scenarios, one per behaviour worth watching:
// a cycle closed through earlier tasks, a diamond redriven whole, a task
// blocked on arrival, retries at the back of the line, a task under two
// dead roots, and two large graphs (1,000 shards wide, 200 tasks deep).
package scenario
