package durable

import "time"

// Clock is the seam between the queue and time. A DB opened without one
// runs every DAG on its virtual clock, as core's queue does: a time kept in
// the DAG's row, starting at 0 and moved only by [Queue.Advance] and
// [Queue.AdvanceTo], which fire each lease deadline and due time on the
// way, in order, at its own time. That is what the conformance suite and
// wq run --db use: a run repeats exactly.
//
// A DB opened with a Clock (real workers: [WallClock]) reads the time from
// it instead, as a duration since its epoch: leases get deadlines from it,
// a backoff's due times count from it, and what has fallen due is fired by
// whichever caller sees it first: a Complete, Fail or Heartbeat of an
// expired lease fails it with "lease expired" before refusing, and
// [DB.Tick] (the maintenance pass a worker runs every so often) fires
// every lease deadline and due time that has passed, in order. Each is
// fired once, by one transaction, fenced by lease id and attempt.
type Clock func() time.Duration

// WallClock is the real time, as a duration since the Unix epoch.
func WallClock() time.Duration { return time.Duration(time.Now().UnixNano()) }
