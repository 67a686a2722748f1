// Package scenario is dagq's scenario language: a script of queue
// operations is parsed ([Parse]), run against a [core.Queue] ([Run], or a
// [Runner] one command at a time), and its trace written for people
// ([WriteText]) or programs ([WriteJSON]). The command-line tool, the
// playground, the server and the tests all use this one implementation.
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
// The commands:
//
//   - attempts N sets how many times a task may be handed out before a
//     failure sends it to the dead-letter queue; N is a whole number, at
//     least 1. Without it a task gets 3 attempts ([DefaultAttempts]).
//   - strategy NAME picks the cycle check, one of incremental.Names().
//   - submit TASK [DEP...] submits a task waiting on the dependencies,
//     which need not have been submitted yet.
//   - next hands out the task at the front of the READY line, if any.
//   - complete TASK and fail TASK [ERROR TEXT] act on the task's current
//     lease. The error text is the rest of the line, trimmed; it may be
//     empty, and cannot hold a # (that starts the comment).
//   - redrive TASK gives a DEAD task fresh attempts.
//   - expect TASK STATE asserts the task's state, one of PENDING, READY,
//     RUNNING, SUCCEEDED, DEAD and BLOCKED, written in upper case.
//
// attempts and strategy may each appear once, before the first submit;
// the queue is made from them before the first command runs. A script that
// breaks a rule is refused as a whole with a [*SyntaxError] that gives the
// line and column (a tab counts as one column) of what is wrong, or of the
// end of the line where an argument is missing. [Script.String] prints a
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
