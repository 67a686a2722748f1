package queuetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
)

// tableCase is one rule of [core] shown on a small script: every line
// is run and checked as the random sequences check an operation (its
// outcome and events predicted from the model, the invariants after it);
// all lines but the last must be accepted, unless they end in "# refused";
// the last one's error, the view
// after it and its events are the case's assertion.
type tableCase struct {
	name   string
	cfg    core.Config
	script string
	err    error    // of the last line, by errors.Is; nil: accepted
	path   []string // of the last line, when it is refused for a cycle: the whole cycle
	want   string   // the tableView after the last line
	events string   // if set, the last line's events as eventsLine writes them; "none": none
}

// Configurations of the table cases.
var (
	leaseTimeout = 10 * time.Second
	twoSeconds   = core.Backoff{Base: 2 * time.Second, Factor: 2}
)

func attempts(n int) core.Config { return core.Config{MaxAttempts: n} }

func timed(n int, lease time.Duration, b core.Backoff) core.Config {
	return core.Config{MaxAttempts: n, LeaseTimeout: lease, Backoff: b}
}

// noTime ends the view of a case that never moves the clock.
const noTime = " | now 0s | timers"

// stateCases cover every arrow of [core]'s state diagram without the
// clock: submit, next, complete, fail, redrive, each way each can go, and
// each refusal.
var stateCases = []tableCase{
	// submit
	{name: "SubmitWithoutDepsIsReady", cfg: attempts(3), script: "submit a",
		want: "a:READY | dlq | ready a" + noTime, events: "a submitted → READY @0s"},
	{name: "SubmitWithUnknownDepIsPending", cfg: attempts(3), script: "submit b a",
		want: "b:PENDING | dlq | ready" + noTime, events: "b submitted → PENDING (waits on a) @0s"},
	{name: "SubmitDropsDuplicateDeps", cfg: attempts(3), script: "submit a\nsubmit b a a a",
		want: "a:READY b:PENDING | dlq | ready a" + noTime, events: "b submitted → PENDING (waits on a) @0s"},
	{name: "SubmitAfterDepsSucceededIsReady", cfg: attempts(3), script: "submit a\nnext\ncomplete a\nsubmit b a",
		want: "a:SUCCEEDED b:READY | dlq | ready b" + noTime},
	{name: "SubmitDuplicateIsRefused", cfg: attempts(3), script: "submit a\nsubmit a", err: core.ErrDuplicate,
		want: "a:READY | dlq | ready a" + noTime},
	{name: "SubmitDuplicateWithOtherDepsIsRefused", cfg: attempts(3), script: "submit a\nsubmit b\nsubmit a b", err: core.ErrDuplicate,
		want: "a:READY b:READY | dlq | ready a b" + noTime},
	{name: "SubmitEmptyNameIsRefused", cfg: attempts(3), script: "submit a\nsubmit \"\"", err: core.ErrInvalidName,
		want: "a:READY | dlq | ready a" + noTime},
	{name: "SubmitOnDeadDepIsBlocked", cfg: attempts(1), script: "submit a\nnext\nfail a x\nsubmit b a",
		want:   "a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready" + noTime,
		events: "b submitted → BLOCKED (waits on a): blocked by a @0s"},
	{name: "SubmitOnBlockedDepTakesItsRoot", cfg: attempts(1), script: "submit a\nnext\nfail a x\nsubmit b a\nsubmit c b",
		want: "a:DEAD b:BLOCKED c:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] [c blocked by a] | ready" + noTime},
	{name: "SubmitBlockedBlocksItsWaitersTransitivelyNearestFirst", cfg: attempts(1),
		script: "submit a\nnext\nfail a x\nsubmit d c\nsubmit c b\nsubmit e\nsubmit b a",
		want:   "a:DEAD d:BLOCKED c:BLOCKED e:READY b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] [c blocked by a] [d blocked by a] | ready e" + noTime,
		events: "b submitted → BLOCKED (waits on a): blocked by a @0s; c PENDING → BLOCKED: blocked by a @0s; d PENDING → BLOCKED: blocked by a @0s"},
	// next
	{name: "NextHandsOutTheFront", cfg: attempts(3), script: "submit a\nsubmit b\nnext",
		want: "a:RUNNING b:READY | dlq | ready b" + noTime, events: "a READY → RUNNING: attempt 1 @0s"},
	{name: "NextOnAnEmptyLineHandsOutNothing", cfg: attempts(3), script: "submit b a\nnext", err: errNothingReady,
		want: "b:PENDING | dlq | ready" + noTime, events: "none"},
	{name: "ReadyTasksAreHandedOutFirstInFirstOut", cfg: attempts(3), script: "submit c\nsubmit a\nsubmit b\nnext\nnext",
		want: "c:RUNNING a:RUNNING b:READY | dlq | ready b" + noTime, events: "a READY → RUNNING: attempt 1 @0s"},
	// complete
	{name: "CompleteReleasesDependentsInArrivalOrder", cfg: attempts(3), script: "submit c a\nsubmit b a\nsubmit a\nnext\ncomplete a",
		want:   "c:READY b:READY a:SUCCEEDED | dlq | ready c b" + noTime,
		events: "a RUNNING → SUCCEEDED @0s; c PENDING → READY: dependencies done @0s; b PENDING → READY: dependencies done @0s"},
	{name: "CompleteWaitsForEveryDep", cfg: attempts(3), script: "submit c a b\nsubmit a\nsubmit b\nnext\ncomplete a",
		want: "c:PENDING a:SUCCEEDED b:READY | dlq | ready b" + noTime},
	{name: "CompleteNotRunningIsRefused", cfg: attempts(3), script: "submit a\ncomplete a", err: core.ErrNotRunning,
		want: "a:READY | dlq | ready a" + noTime, events: "none"},
	{name: "CompleteUnknownIsRefused", cfg: attempts(3), script: "complete a", err: core.ErrUnknown,
		want: "| dlq | ready" + noTime, events: "none"},
	{name: "CompleteTwiceIsRefused", cfg: attempts(3), script: "submit a\nnext\ncomplete a\ncomplete a#1", err: core.ErrNotRunning,
		want: "a:SUCCEEDED | dlq | ready" + noTime, events: "none"},
	// fail
	{name: "FailWithAttemptsLeftGoesToTheBack", cfg: attempts(3), script: "submit a\nsubmit b\nnext\nfail a x",
		want: "a:READY b:READY | dlq | ready b a" + noTime, events: "a RUNNING → READY: attempt 1 failed: x, back of the line @0s"},
	{name: "ARetryQueuesBehindTasksReadiedBeforeIt", cfg: attempts(3), script: "submit a\nsubmit c b\nsubmit b\nnext\nnext\ncomplete b\nfail a x",
		want: "a:READY c:READY b:SUCCEEDED | dlq | ready c a" + noTime},
	{name: "FailAtMaxAttemptsIsDead", cfg: attempts(2), script: "submit a\nnext\nfail a x\nnext\nfail a HTTP 503",
		want: "a:DEAD | dlq [a failed after 2 attempts: HTTP 503] | ready" + noTime, events: "a RUNNING → DEAD: failed after 2 attempts: HTTP 503 @0s"},
	{name: "FailAtMaxAttemptsBlocksDownstreamNearestFirst", cfg: attempts(1),
		script: "submit d c\nsubmit c b\nsubmit b a\nsubmit e a\nsubmit a\nnext\nfail a x",
		want:   "d:BLOCKED c:BLOCKED b:BLOCKED e:BLOCKED a:DEAD | dlq [a failed after 1 attempt: x] [b blocked by a] [e blocked by a] [c blocked by a] [d blocked by a] | ready" + noTime,
		events: "a RUNNING → DEAD: failed after 1 attempt: x @0s; b PENDING → BLOCKED: blocked by a @0s; e PENDING → BLOCKED: blocked by a @0s; " +
			"c PENDING → BLOCKED: blocked by a @0s; d PENDING → BLOCKED: blocked by a @0s"},
	{name: "FailKeepsTheRootOfTasksAlreadyBlocked", cfg: attempts(1),
		script: "submit a\nsubmit b\nsubmit c a b\nnext\nfail a x\nnext\nfail b y",
		want:   "a:DEAD b:DEAD c:BLOCKED | dlq [a failed after 1 attempt: x] [c blocked by a] [b failed after 1 attempt: y] | ready" + noTime,
		events: "b RUNNING → DEAD: failed after 1 attempt: y @0s"},
	{name: "ADeathLeavesSucceededAndReadyTasksAlone", cfg: attempts(1),
		script: "submit a\nsubmit b\nsubmit c a\nsubmit d b\nnext\ncomplete a\nnext\nfail b x",
		want:   "a:SUCCEEDED b:DEAD c:READY d:BLOCKED | dlq [b failed after 1 attempt: x] [d blocked by b] | ready c" + noTime},
	{name: "FailNotRunningIsRefused", cfg: attempts(3), script: "submit a\nfail a x", err: core.ErrNotRunning,
		want: "a:READY | dlq | ready a" + noTime, events: "none"},
	// permanent errors
	{name: "APermanentFailureSkipsItsRetries", cfg: attempts(5), script: "submit a\nsubmit b a\nnext\nfail! a bad input",
		want:   "a:DEAD b:BLOCKED | dlq [a permanent failure after 1 attempt: bad input] [b blocked by a] | ready" + noTime,
		events: "a RUNNING → DEAD: permanent failure after 1 attempt: bad input @0s; b PENDING → BLOCKED: blocked by a @0s"},
	{name: "APermanentFailureAtTheLastAttemptSaysPermanent", cfg: attempts(2), script: "submit a\nnext\nfail a x\nnext\nfail! a bad input",
		want: "a:DEAD | dlq [a permanent failure after 2 attempts: bad input] | ready" + noTime},
	// redrive
	{name: "RedriveIsReadyAtTheBackWithFreshAttempts", cfg: attempts(1), script: "submit a\nsubmit b\nnext\nfail a x\nredrive a",
		want: "a:READY b:READY | dlq | ready b a" + noTime, events: "a DEAD → READY: fresh attempts @0s"},
	{name: "ARedrivenTaskGetsEveryAttemptAgain", cfg: attempts(2), script: "submit a\nnext\nfail a x\nnext\nfail a y\nredrive a\nnext\nfail a z",
		want: "a:READY | dlq | ready a" + noTime, events: "a RUNNING → READY: attempt 1 failed: z, back of the line @0s"},
	{name: "RedriveReleasesADiamond", cfg: attempts(1),
		script: "submit a\nsubmit b a\nsubmit c a\nsubmit d b c\nnext\nfail a x\nredrive a",
		want:   "a:READY b:PENDING c:PENDING d:PENDING | dlq | ready a" + noTime,
		events: "a DEAD → READY: fresh attempts @0s; b BLOCKED → PENDING: no dead task upstream @0s; " +
			"c BLOCKED → PENDING: no dead task upstream @0s; d BLOCKED → PENDING: no dead task upstream @0s"},
	{name: "RedriveKeepsBlockedWithARootStillDead", cfg: attempts(1),
		script: "submit a\nsubmit b\nsubmit c a b\nsubmit d c\nnext\nfail a x\nnext\nfail b y\nredrive a",
		want:   "a:READY b:DEAD c:BLOCKED d:BLOCKED | dlq [c blocked by b] [d blocked by b] [b failed after 1 attempt: y] | ready a" + noTime,
		events: "a DEAD → READY: fresh attempts @0s; c BLOCKED → BLOCKED: blocked by b @0s; d BLOCKED → BLOCKED: blocked by b @0s"},
	{name: "RedriveRenamesDeepReasonsThroughAShortcut", cfg: attempts(1),
		// e waits on a directly and, through c and d, on b: when a is
		// redriven e must name b even though it is reached before d.
		script: "submit a\nsubmit b\nsubmit c a b\nsubmit d c\nsubmit e a d\nnext\nfail a x\nnext\nfail b y\nredrive a",
		want:   "a:READY b:DEAD c:BLOCKED d:BLOCKED e:BLOCKED | dlq [c blocked by b] [e blocked by b] [d blocked by b] [b failed after 1 attempt: y] | ready a" + noTime},
	{name: "RedriveOfABlockedTaskIsRefused", cfg: attempts(1), script: "submit a\nsubmit b a\nnext\nfail a x\nredrive b", err: core.ErrNotDead,
		want: "a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready" + noTime, events: "none"},
	{name: "RedriveOfAReadyTaskIsRefused", cfg: attempts(1), script: "submit a\nredrive a", err: core.ErrNotDead,
		want: "a:READY | dlq | ready a" + noTime, events: "none"},
	{name: "RedriveUnknownIsRefused", cfg: attempts(1), script: "redrive a", err: core.ErrUnknown,
		want: "| dlq | ready" + noTime, events: "none"},
	{name: "RedriveOfAPoisonedTaskIsRefused", cfg: core.Config{MaxAttempts: 1, PoisonAfter: 1},
		script: "submit a\nnext\nfail a x\nredrive a\nnext\nfail a y\nredrive a", err: core.ErrPoisoned,
		want: "a:DEAD | dlq [a failed after 1 attempt: y] | ready" + noTime, events: "none"},
}

// cycleCases cover the cycle check: a self-dependency, a cycle closed
// through tasks that arrived, and one closed through a dependency that
// was named before it arrived; each refused with the whole path, changing
// nothing, and the submit without the closing edge accepted.
var cycleCases = []tableCase{
	{name: "ASelfDependencyIsACycle", cfg: attempts(3), script: "submit a a", err: core.ErrCycle, path: []string{"a", "a"},
		want: "| dlq | ready" + noTime, events: "a rejected: cycle: a -> a @0s"},
	{name: "ACycleIsRefusedWithItsPath", cfg: attempts(3), script: "submit a b\nsubmit b c\nsubmit x\nsubmit c x a",
		err: core.ErrCycle, path: []string{"c", "a", "b", "c"},
		want: "a:PENDING b:PENDING x:READY | dlq | ready x" + noTime, events: "c rejected: cycle: c -> a -> b -> c @0s"},
	{name: "ACycleThroughAnEarlierUnknownDependencyIsRefused", cfg: attempts(3), script: "submit a b\nsubmit b a",
		err: core.ErrCycle, path: []string{"b", "a", "b"},
		want: "a:PENDING | dlq | ready" + noTime, events: "b rejected: cycle: b -> a -> b @0s"},
	{name: "ACycleIsRefusedAgainTheSameWay", cfg: attempts(3), script: "submit a b\nsubmit b c\nsubmit c a # refused\nsubmit c a",
		err: core.ErrCycle, path: []string{"c", "a", "b", "c"},
		want: "a:PENDING b:PENDING | dlq | ready" + noTime},
	{name: "TheSubmitWithoutTheClosingEdgeIsAccepted", cfg: attempts(3), script: "submit a b\nsubmit b c\nsubmit x\nsubmit c x a # refused\nsubmit c x",
		want: "a:PENDING b:PENDING x:READY c:PENDING | dlq | ready x" + noTime, events: "c submitted → PENDING (waits on x) @0s"},
	{name: "ACycleThroughABlockedTaskIsRefused", cfg: attempts(1), script: "submit a\nnext\nfail a x\nsubmit b a c\nsubmit c b",
		err: core.ErrCycle, path: []string{"c", "b", "c"},
		want: "a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready" + noTime},
}

// timeCases cover the rows of the state table that need the clock:
// heartbeats, expiry in each outcome and exactly once, DELAYED → READY,
// backoff with its jitter, and every refusal of a stale or expired lease.
var timeCases = []tableCase{
	// heartbeat
	{name: "HeartbeatRenewsTheLease", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 8s\nheartbeat a\nadvance 8s",
		want:   "a:RUNNING | dlq | ready | now 16s | timers a@18s", events: "none"},
	{name: "HeartbeatEmitsItsDeadline", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 8s\nheartbeat a",
		want:   "a:RUNNING | dlq | ready | now 8s | timers a@18s", events: "a heartbeat: lease renewed to 18s @8s"},
	{name: "HeartbeatWithoutLeaseTimeoutChangesNothing", cfg: timed(3, 0, core.Backoff{}),
		script: "submit a\nnext\nadvance 1h\nheartbeat a",
		want:   "a:RUNNING | dlq | ready | now 1h0m0s | timers", events: "a heartbeat: the lease never expires @1h0m0s"},
	{name: "HeartbeatOfAStaleLeaseIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nfail a x\nnext\nheartbeat a@1", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 0s | timers a@10s", events: "none"},
	{name: "HeartbeatOfAnExpiredLeaseIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nheartbeat a@1", err: core.ErrLeaseExpired,
		want: "a:READY | dlq | ready a | now 10s | timers", events: "none"},
	{name: "HeartbeatOfATaskNotRunningIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nheartbeat a", err: core.ErrNotRunning,
		want: "a:READY | dlq | ready a | now 0s | timers", events: "none"},
	{name: "HeartbeatOfAnUnknownTaskIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "heartbeat a", err: core.ErrUnknown,
		want: "| dlq | ready | now 0s | timers", events: "none"},
	// expiry
	{name: "ALeaseDoesNotExpireBeforeItsDeadline", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 9999ms",
		want:   "a:RUNNING | dlq | ready | now 9.999s | timers a@10s", events: "none"},
	{name: "ALeaseExpiresAtItsDeadline", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 9999ms\nadvance 1ms",
		want:   "a:READY | dlq | ready a | now 10s | timers",
		events: "a lease of attempt 1 expired at 10s @10s; a RUNNING → READY: attempt 1 failed: lease expired, back of the line @10s"},
	{name: "ALeaseExpiresOnce", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nadvance 10s",
		want:   "a:READY | dlq | ready a | now 20s | timers", events: "none"},
	{name: "ExpiryRetriesAtTheBackOfTheLine", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nsubmit b\nnext\nadvance 15s",
		want:   "a:READY b:READY | dlq | ready b a | now 15s | timers",
		events: "a lease of attempt 1 expired at 10s @10s; a RUNNING → READY: attempt 1 failed: lease expired, back of the line @10s"},
	{name: "ExpiryUnderBackoffIsDelayed", cfg: timed(3, leaseTimeout, twoSeconds),
		script: "submit a\nnext\nadvance 11s",
		want:   "a:DELAYED | dlq | ready | now 11s | timers a@12s",
		events: "a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s"},
	{name: "ExpiryAtTheLastAttemptIsDeadAndBlocksDownstream", cfg: timed(2, leaseTimeout, twoSeconds),
		script: "submit a\nsubmit b a\nsubmit c b\nnext\nadvance 10s\nadvance 2s\nnext\nadvance 30s",
		want:   "a:DEAD b:BLOCKED c:BLOCKED | dlq [a failed after 2 attempts: lease expired] [b blocked by a] [c blocked by a] | ready | now 42s | timers",
		events: "a lease of attempt 2 expired at 22s @22s; a RUNNING → DEAD: failed after 2 attempts: lease expired @22s; " +
			"b PENDING → BLOCKED: blocked by a @22s; c PENDING → BLOCKED: blocked by a @22s"},
	// DELAYED → READY, and the backoff's delays
	{name: "FailUnderBackoffIsDelayedOutOfTheLine", cfg: timed(3, 0, twoSeconds),
		script: "submit a\nsubmit b\nnext\nfail a HTTP 503",
		want:   "a:DELAYED b:READY | dlq | ready b | now 0s | timers a@2s",
		events: "a RUNNING → DELAYED: attempt 1 failed: HTTP 503, due at 2s @0s"},
	{name: "ADelayedTaskJoinsTheBackOfTheLineWhenDue", cfg: timed(3, 0, twoSeconds),
		script: "submit a\nsubmit b\nnext\nfail a x\nsubmit c\nadvance 2s",
		want:   "a:READY b:READY c:READY | dlq | ready b c a | now 2s | timers",
		events: "a DELAYED → READY: due, back of the line @2s"},
	{name: "ADelayedTaskIsNotReadyBeforeItsDueTime", cfg: timed(3, 0, twoSeconds),
		script: "submit a\nnext\nfail a x\nadvance 1999ms\nnext", err: errNothingReady,
		want: "a:DELAYED | dlq | ready | now 1.999s | timers a@2s", events: "none"},
	{name: "TheDelayGrowsByTheFactor", cfg: timed(3, 0, twoSeconds),
		script: "submit a\nnext\nfail a x\nadvance 2s\nnext\nfail a y",
		want:   "a:DELAYED | dlq | ready | now 2s | timers a@6s"},
	{name: "TheDelayStopsAtItsCap", cfg: timed(4, 0, core.Backoff{Base: time.Second, Factor: 10, Max: 5 * time.Second}),
		script: "submit a\nnext\nfail a x\nadvance 1s\nnext\nfail a y\nadvance 5s\nnext\nfail a z",
		want:   "a:DELAYED | dlq | ready | now 6s | timers a@11s"},
	{name: "TheLastAttemptIsDeadNotDelayed", cfg: timed(2, 0, twoSeconds),
		script: "submit a\nnext\nfail a x\nadvance 2s\nnext\nfail a y",
		want:   "a:DEAD | dlq [a failed after 2 attempts: y] | ready | now 2s | timers"},
	{name: "FullJitterDrawsFromTheSeededGenerator", cfg: timed(4, 0, core.Backoff{Base: time.Second, Factor: 2, Max: 3 * time.Second, Jitter: core.JitterFull, Seed: 42}),
		// Uniform in [0, d] in whole milliseconds, drawn from
		// rand.NewPCG(42, 0) once per delay: 858 of 1000, 1922 of 2000,
		// 409 of the 3000 cap.
		script: "submit a\nnext\nfail a x\nadvance 858ms\nnext\nfail a y\nadvance 1922ms\nnext\nfail a z",
		want:   "a:DELAYED | dlq | ready | now 2.78s | timers a@3.189s",
		events: "a RUNNING → DELAYED: attempt 3 failed: z, due at 3.189s @2.78s"},
	{name: "EqualJitterKeepsHalfTheDelay", cfg: timed(4, 0, core.Backoff{Base: time.Second, Factor: 2, Max: 3 * time.Second, Jitter: core.JitterEqual, Seed: 42}),
		// d/2 plus uniform in [0, d/2]: 929 of 1000, 1961 of 2000, 1704 of 3000.
		script: "submit a\nnext\nfail a x\nadvance 929ms\nnext\nfail a y\nadvance 1961ms\nnext\nfail a z",
		want:   "a:DELAYED | dlq | ready | now 2.89s | timers a@4.594s",
		events: "a RUNNING → DELAYED: attempt 3 failed: z, due at 4.594s @2.89s"},
	{name: "APermanentFailureUnderBackoffIsDeadAtOnce", cfg: timed(3, leaseTimeout, twoSeconds),
		script: "submit a\nsubmit b a\nnext\nfail! a bad input",
		want:   "a:DEAD b:BLOCKED | dlq [a permanent failure after 1 attempt: bad input] [b blocked by a] | ready | now 0s | timers",
		events: "a RUNNING → DEAD: permanent failure after 1 attempt: bad input @0s; b PENDING → BLOCKED: blocked by a @0s"},
	// refusals of stale and expired leases
	{name: "CompleteWithAStaleLeaseIsRefused", cfg: timed(3, 0, core.Backoff{}),
		script: "submit a\nnext\nfail a x\nnext\ncomplete a#1", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 0s | timers", events: "none"},
	{name: "FailWithAStaleLeaseIsRefused", cfg: timed(3, 0, core.Backoff{}),
		script: "submit a\nnext\nfail a x\nnext\nfail a#1 y", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 0s | timers", events: "none"},
	{name: "ALeaseWithAnotherAttemptIsRefused", cfg: timed(3, 0, core.Backoff{}),
		script: "submit a\nnext\nfail a x\nnext\ncomplete a~", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 0s | timers", events: "none"},
	{name: "ALeaseNeverHandedOutIsRefused", cfg: timed(3, 0, core.Backoff{}),
		script: "submit a\nnext\ncomplete a?1", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 0s | timers", events: "none"},
	{name: "CompleteWithAnExpiredLeaseIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\ncomplete a@1", err: core.ErrLeaseExpired,
		want: "a:READY | dlq | ready a | now 10s | timers", events: "none"},
	{name: "CompleteWithAnExpiredLeaseWhileTheTaskRunsAgainIsRefused", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nnext\ncomplete a@1", err: core.ErrLeaseExpired,
		want: "a:RUNNING | dlq | ready | now 10s | timers a@20s", events: "none"},
	{name: "FailWithAnExpiredLeaseIsRefused", cfg: timed(3, leaseTimeout, twoSeconds),
		script: "submit a\nnext\nadvance 10s\nfail a@1 x", err: core.ErrLeaseExpired,
		want: "a:DELAYED | dlq | ready | now 10s | timers a@12s", events: "none"},
	{name: "AnExpiredLeaseOfADeadTaskIsRefusedAsExpired", cfg: timed(1, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\ncomplete a@1", err: core.ErrLeaseExpired,
		want: "a:DEAD | dlq [a failed after 1 attempt: lease expired] | ready | now 10s | timers", events: "none"},
	{name: "AnExpiredLeaseStaysExpiredAfterARedrive", cfg: timed(1, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nredrive a\nnext\nadvance 1s\ncomplete a#1", err: core.ErrLeaseExpired,
		want: "a:RUNNING | dlq | ready | now 11s | timers a@20s", events: "none"},
	{name: "TheNewLeaseAfterARedriveIsNotExpired", cfg: timed(1, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nredrive a\nnext\nadvance 1s\ncomplete a#2",
		want:   "a:SUCCEEDED | dlq | ready | now 11s | timers"},
	{name: "BothExpiredAttemptsAreRefusedAsExpired", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 10s\nnext\nadvance 10s\nnext\ncomplete a@1", err: core.ErrLeaseExpired,
		want: "a:RUNNING | dlq | ready | now 20s | timers a@30s", events: "none"},
	{name: "CompleteWithAFailedLeaseIsStaleNotExpired", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nfail a x\nnext\nadvance 10s\nnext\ncomplete a@1", err: core.ErrStaleLease,
		want: "a:RUNNING | dlq | ready | now 10s | timers a@20s", events: "none"},
	{name: "ALeaseCompletedBeforeItsDeadlineIsNotExpiredLater", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\ncomplete a\nadvance 1m\ncomplete a@1", err: core.ErrNotRunning,
		want: "a:SUCCEEDED | dlq | ready | now 1m0s | timers", events: "none"},
	{name: "ALeaseRenewedByAHeartbeatIsAcceptedWithItsOldDeadline", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 5s\nheartbeat a\nadvance 9s\ncomplete a#1",
		want:   "a:SUCCEEDED | dlq | ready | now 14s | timers"},
	// the clock
	{name: "TiesFireInTheOrderSet", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nsubmit b\nnext\nnext\nadvance 10s",
		want:   "a:READY b:READY | dlq | ready a b | now 10s | timers"},
	{name: "AHeartbeatCountsAsSetWhenItRenews", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nsubmit b\nnext\nnext\nheartbeat a\nadvance 10s",
		want:   "a:READY b:READY | dlq | ready b a | now 10s | timers"},
	{name: "TimersFireInOrderOfTimeEachAtItsOwnTime", cfg: timed(3, leaseTimeout, twoSeconds),
		script: "submit a\nsubmit b\nnext\nadvance 4s\nnext\nadvanceto 15s",
		want:   "a:READY b:DELAYED | dlq | ready a | now 15s | timers b@16s",
		events: "a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s; " +
			"a DELAYED → READY: due, back of the line @12s; " +
			"b lease of attempt 1 expired at 14s @14s; b RUNNING → DELAYED: attempt 1 failed: lease expired, due at 16s @14s"},
	{name: "ATimerSetWhileFiringWithinTheAdvanceFiresToo", cfg: timed(3, leaseTimeout, twoSeconds),
		script: "submit a\nnext\nadvance 12s",
		want:   "a:READY | dlq | ready a | now 12s | timers",
		events: "a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s; " +
			"a DELAYED → READY: due, back of the line @12s"},
	{name: "AnAdvanceOfZeroChangesNothing", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 0s",
		want:   "a:RUNNING | dlq | ready | now 0s | timers a@10s", events: "none"},
	{name: "TheClockDoesNotGoBack", cfg: timed(3, leaseTimeout, core.Backoff{}),
		script: "submit a\nnext\nadvance 5s\nadvanceto 4s", err: core.ErrClockBackwards,
		want: "a:RUNNING | dlq | ready | now 5s | timers a@10s", events: "none"},
}

// runTable runs each case on a queue of its own.
func runTable(r runner, open Open, cases []tableCase) {
	for _, tc := range cases {
		r.sub(tc.name, func(r runner) {
			r.Helper()
			s, err := openSide(r, open, tc.cfg)
			if err != nil {
				r.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(tc.script), "\n")
			var out outcome
			for i, line := range lines {
				line, mayRefuse := strings.CutSuffix(line, " # refused")
				o, err := parseLine(line, s.m.now)
				if err != nil {
					r.Fatalf("line %d %q: %v", i+1, line, err)
				}
				var aerr error
				out, aerr = s.apply(o)
				if aerr != nil {
					r.Fatalf("line %d %q: %v\nscript:\n%s", i+1, line, aerr, indent(tc.script))
				}
				if o.kind == opNext && !out.ok {
					out.err = errNothingReady
				}
				if out.err != nil && i < len(lines)-1 && !mayRefuse {
					r.Fatalf("line %d %q: %v", i+1, line, out.err)
				}
			}
			last := lines[len(lines)-1]
			switch {
			case tc.err == nil && out.err != nil:
				r.Fatalf("%q = %v, want it accepted", last, out.err)
			case tc.err != nil && !errors.Is(out.err, tc.err):
				r.Fatalf("%q = %v, want %v", last, out.err, tc.err)
			}
			if tc.path != nil {
				var ce *core.CycleError
				if !errors.As(out.err, &ce) || !slices.Equal(ce.Path, tc.path) {
					r.Errorf("%q = %v, want a *core.CycleError with the path %q", last, out.err, tc.path)
				}
			}
			dlq, err := s.q.DeadLetters(context.Background())
			if err != nil {
				r.Fatalf("DeadLetters after %q: %v", last, err)
			}
			if got := s.m.tableView(dlq); got != tc.want {
				r.Errorf("after %q\n got %s\nwant %s", last, got, tc.want)
			}
			got := eventsLine(out.events)
			if tc.events == "none" && got != "" || tc.events != "" && tc.events != "none" && got != tc.events {
				r.Errorf("the events of %q\n got %s\nwant %s", last, got, tc.events)
			}
		})
	}
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n\t")
}
