package queuetest

import (
	"time"

	"github.com/dagq/dagq/core"
)

// levelCase is one rule of a level, shown on a short script: the ladder a
// candidate's queue climbs, in order, before the random sequences.
type levelCase struct {
	level  Level
	name   string
	rule   string // the rule, as a sentence
	set    Settings
	script string // one operation a line, the scenario language's
}

var (
	three    = Settings{MaxAttempts: 3}
	one      = Settings{MaxAttempts: 1}
	leased   = Settings{MaxAttempts: 2, LeaseTimeout: 10 * time.Second}
	backedOf = Settings{MaxAttempts: 3, Backoff: core.Backoff{Base: time.Second, Factor: 2, Max: 3 * time.Second}}
)

// levelCases are the ladders of L4, L5 and L6, easiest first.
var levelCases = []levelCase{
	{L4, "ReadyAtOnce", "A task without dependencies is READY at once.", three, "submit a"},
	{L4, "WaitsOnADependencyNotYetSubmitted", "A task may arrive before its dependencies: one that has not arrived counts as not done, and the task is PENDING.", three, "submit b a"},
	{L4, "NextHandsOutTheFront", "Next hands out the front READY task: RUNNING, attempt 1.", three, "submit a\nnext"},
	{L4, "NothingReadyHandsOutNothing", "Next hands out nothing when nothing is READY.", three, "submit b a\nnext"},
	{L4, "FirstInFirstOut", "READY tasks are handed out first in, first out.", three, "submit c\nsubmit a\nsubmit b\nnext\nnext\nnext"},
	{L4, "CompleteReleasesWaiters", "Complete makes the task SUCCEEDED and each task waiting on it READY, in the order they were submitted.", three, "submit c a\nsubmit b a\nsubmit a\nnext\ncomplete a\nnext"},
	{L4, "WaitsForEveryDependency", "A task is READY only when every dependency is SUCCEEDED: keep a count of the unfinished ones.", three, "submit c a b\nsubmit a\nsubmit b\nnext\ncomplete a\nnext\ncomplete b"},
	{L4, "DoneDependencyIsDone", "A task submitted after its dependencies succeeded is READY at once.", three, "submit a\nnext\ncomplete a\nsubmit b a"},
	{L4, "DuplicateRefused", "A task submitted twice is refused, and the refusal changes nothing.", three, "submit a\nsubmit a b"},
	{L4, "WaitingOnItselfRefused", "A task that waits on itself is refused.", three, "submit a a"},
	{L4, "LoopRefused", "A submit that would close a loop is refused, and changes nothing.", three, "submit b a\nsubmit a b\nsubmit a\nnext"},
	{L4, "LongLoopRefused", "A loop through tasks named before they arrived is a loop too: check from the new task.", three, "submit c b\nsubmit b a\nsubmit a c\nsubmit d c"},
	{L4, "CompleteNotRunningRefused", "Only a RUNNING task can be completed or failed; anything else is refused and changes nothing.", three, "submit a\ncomplete a\nfail a boom\ncomplete x"},
	{L4, "CompleteTwiceRefused", "A task completes once.", three, "submit a\nnext\ncomplete a\ncomplete a"},
	{L4, "RetryAtTheBack", "A failure with attempts left puts the task at the back of the line, never the front.", three, "submit a\nsubmit b\nnext\nfail a boom\nnext\nnext"},
	{L4, "AttemptsCount", "Each hand-out counts an attempt.", three, "submit a\nnext\nfail a boom\nnext\nfail a boom\nnext"},
	{L4, "DeadAtTheLastAttempt", "A failure at the last attempt makes the task DEAD: it is not retried for ever.", Settings{MaxAttempts: 2}, "submit a\nsubmit b a\nnext\nfail a boom\nnext\nfail a boom\nnext"},

	{L5, "DeathBlocksDownstream", "A death blocks every task waiting on the dead one, transitively, at once: nothing hangs PENDING for ever.", one, "submit c b\nsubmit b a\nsubmit a\nnext\nfail a boom"},
	{L5, "DeadLettersInOrder", "The dead-letter queue holds the DEAD and BLOCKED tasks in the order they entered, a blocking wave nearest first.", one, "submit d c\nsubmit c b\nsubmit b a\nsubmit e a\nsubmit a\nnext\nfail a boom"},
	{L5, "RootIsTheDeadTask", "A blocked task names its root, the dead task upstream, not its nearest parent.", one, "submit c b\nsubmit b a\nsubmit a\nnext\nfail a boom"},
	{L5, "BlockedOnArrival", "A task submitted waiting on a DEAD or BLOCKED task is BLOCKED at once, with that root.", one, "submit a\nnext\nfail a boom\nsubmit b a\nsubmit c b"},
	{L5, "ArrivalBlocksItsWaiters", "A task that arrives BLOCKED blocks the tasks already waiting on it, too.", one, "submit a\nnext\nfail a boom\nsubmit d c\nsubmit c b\nsubmit b a"},
	{L5, "RedriveIsReadyAgain", "Redrive gives a DEAD task fresh attempts: READY at the back, attempt 1 again.", Settings{MaxAttempts: 2}, "submit a\nsubmit b\nnext\nfail a boom\nnext\nfail a boom\nredrive a\nnext\nnext"},
	{L5, "RedriveReleases", "Redrive releases what the task held: PENDING again, READY when it succeeds.", one, "submit c b\nsubmit b a\nsubmit a\nnext\nfail a boom\nredrive a\nnext\ncomplete a\nnext"},
	{L5, "AnotherRootStillHolds", "A task held by two dead roots stays BLOCKED when one is redriven, renamed to the other.", one, "submit a\nsubmit b\nsubmit c a b\nnext\nfail a boom\nnext\nfail b boom\nredrive a"},
	{L5, "RedriveOnlyTheDead", "Only a DEAD task can be redriven: a BLOCKED, READY or unknown one is refused.", one, "submit b a\nsubmit a\nnext\nfail a boom\nredrive b\nredrive x\nsubmit c\nredrive c"},

	{L6, "LeaseHasADeadline", "Under a lease timeout, a lease's deadline is now + the timeout.", leased, "submit a\nadvance 3s\nnext"},
	{L6, "LeaseExpires", "A lease not renewed expires at its deadline: a failure with \"lease expired\", retried at the back.", leased, "submit a\nsubmit b\nnext\nadvance 10s\nnext\nnext"},
	{L6, "HeartbeatRenews", "A heartbeat renews the lease: its deadline is now + the timeout.", leased, "submit a\nnext\nadvance 6s\nheartbeat a\nadvance 6s\ncomplete a"},
	{L6, "ExpiryAtTheLastAttemptKills", "An expiry at the last attempt is a death like any other: DEAD, the error \"lease expired\", downstream BLOCKED.", leased, "submit b a\nsubmit a\nnext\nadvance 10s\nnext\nadvance 10s"},
	{L6, "StaleLeaseFenced", "A slow worker's lease, expired and handed out again, cannot complete the task: fence by the lease.", leased, "submit a\nnext\nadvance 10s\nnext\ncomplete a@1\nheartbeat a@1\ncomplete a"},
	{L6, "BackoffDelays", "Under a backoff a retry is DELAYED, READY at the back when it falls due.", backedOf, "submit a\nsubmit b\nnext\nfail a boom\nadvance 999ms\nnext\nadvance 1ms\nnext"},
	{L6, "BackoffGrows", "The delay after attempt k is min(max, base·factor^(k−1)).", backedOf, "submit a\nnext\nfail a boom\nadvance 1s\nnext\nfail a boom\nadvance 1.999s\nnext\nadvance 1ms\nnext"},
	{L6, "TimersFireInOrder", "Advance fires every deadline and due time on the way, in order of time, each at its own time.", Settings{MaxAttempts: 3, LeaseTimeout: 5 * time.Second, Backoff: core.Backoff{Base: 2 * time.Second, Max: 2 * time.Second}}, "submit a\nsubmit b\nnext\nadvance 2s\nnext\nadvance 10s\nnext"},
	{L6, "PermanentErrorIsDead", "A permanent error (core.Permanent) is DEAD at once, whatever attempts are left.", three, "submit b a\nsubmit a\nnext\nfail! a bad input"},
	{L6, "DeadLetterKeepsTheError", "A DEAD entry keeps the error it died of.", one, "submit a\nsubmit b\nnext\nfail a HTTP 503\nnext\nfail b timeout"},
	{L6, "BulkRedriveByError", "A bulk redrive redrives every DEAD task whose error contains the text, in the order of the dead-letter queue, and releases what they held.", one, "submit a\nsubmit b\nsubmit c\nsubmit d a b\nnext\nfail a HTTP 503\nnext\nfail b timeout\nnext\nfail c HTTP 500\nredrive matching HTTP\nnext\nnext"},
	{L6, "BulkRedriveMatchingNothingRefused", "A bulk redrive that matches no DEAD task is refused, and changes nothing.", one, "submit a\nnext\nfail a timeout\nredrive matching HTTP"},
}
