package durable

import "time"

// Clock is a time, as a duration since the Unix epoch, that a DB's
// statements use in place of the database's own: a seam for tests, which
// move it by hand. Production leaves [Options].Clock nil.
//
// Time, in this package, is decided in one place for everyone:
//
//   - By default, the database's clock. Every lease deadline, due time,
//     expiry and event time is computed by the statements from Postgres's
//     clock_timestamp(), as nanoseconds since the epoch (the
//     coalesce(@now, now()) pattern: an explicit time, given, overrides
//     it). However far the clocks of the workers' machines drift, they
//     agree on when a lease expires; a worker's own clock only schedules
//     its wake-ups, as durations. What has fallen due is fired by whichever
//     caller sees it first: a Complete, Fail or Heartbeat of an expired
//     lease fails it with "lease expired" before refusing, and [DB.Tick]
//     (the maintenance pass a [Worker] runs when the next timer falls due,
//     and every Poll) fires every lease deadline and due time that has
//     passed, in order. Each is fired once, by one transaction, fenced by
//     lease id and attempt.
//   - With [Options].VirtualClock, each DAG runs on its virtual clock, as
//     core's queue does: a time kept in the DAG's row, starting at 0 and
//     moved only by [Queue.Advance] and [Queue.AdvanceTo], which fire each
//     lease deadline and due time on the way, in order, at its own time.
//     That is what the conformance suite and wq run --db use: a run
//     repeats exactly.
//   - With [Options].Clock, that Clock, in place of the database's (tests).
type Clock func() time.Duration

// DefaultLeaseTimeout is the lease timeout of a DAG opened with
// core.Config.LeaseTimeout 0 on the database's clock (or a Clock): a task
// whose worker died is run again at most this long after its last
// heartbeat. On the virtual clock, 0 keeps core's meaning (leases that do
// not expire), so that a script replays as core runs it.
const DefaultLeaseTimeout = 30 * time.Second

// dbNow is the database's clock as a statement computes it: nanoseconds
// since the Unix epoch, microsecond resolution.
const dbNow = "(extract(epoch FROM clock_timestamp()) * 1000000000)::bigint"

// now is the SQL expression of the operation's time for a statement whose
// parameter param is [DB.nowArg]: the Clock given, else the database's
// clock; on the virtual clock, param alone (NULL: the caller reads the
// DAG's stored time).
func (db *DB) now(param string) string {
	if db.virtual {
		return param + "::bigint"
	}
	return "coalesce(" + param + "::bigint, " + dbNow + ")"
}

// nowArg is the argument of [DB.now]'s parameter: the Clock's time, or nil.
func (db *DB) nowArg() any {
	if db.clock != nil {
		return int64(db.clock())
	}
	return nil
}
