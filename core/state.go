package core

// State is where a task stands. The zero value "" means "no state": a task
// never submitted, or the From of a task's first event.
type State string

// The states of a task. Each says what moves a task out of it; every
// transition is decided by [Queue.move], the one place that changes a state.
const (
	// Pending: submitted, waiting on dependencies that have not succeeded (or
	// have not arrived), none of them DEAD or BLOCKED. Leaves when the last
	// dependency succeeds (READY) or one dies (BLOCKED).
	Pending State = "PENDING"
	// Ready: every dependency succeeded; in the FIFO line. Leaves when
	// handed out by Next (RUNNING).
	Ready State = "READY"
	// Running: handed out under a lease. Leaves on Complete (SUCCEEDED), or
	// on Fail or the lease's expiry: READY at the back of the line with
	// attempts left, DELAYED instead under a backoff, DEAD at max attempts
	// or on a permanent error.
	Running State = "RUNNING"
	// Delayed: failed with attempts left under a backoff, waiting out its
	// retry delay. Leaves at its due time, when the clock reaches it (READY,
	// at the back of the line). Not in the dead-letter queue, and no
	// blocking wave touches it.
	Delayed State = "DELAYED"
	// Succeeded: done. Final.
	Succeeded State = "SUCCEEDED"
	// Dead: failed at its last attempt (or permanently); in the dead-letter
	// queue. Leaves on Redrive, RedriveMatching or ForceRedrive (READY, with
	// fresh attempts); a poisoned one (Config.PoisonAfter) on ForceRedrive
	// only.
	Dead State = "DEAD"
	// Blocked: a transitive dependency is DEAD; in the dead-letter queue
	// with "blocked by ROOT". Leaves when the last dead root it depends on is
	// redriven (PENDING).
	Blocked State = "BLOCKED"
)

// States lists every state, in the order a task usually meets them.
func States() []State {
	return []State{Pending, Ready, Running, Delayed, Succeeded, Dead, Blocked}
}

// code is the compact form of a State kept per task.
type code uint8

const (
	unsubmitted code = iota // named as a dependency only, or never seen
	pending
	ready
	running
	delayed
	succeeded
	dead
	blocked
	numCodes // the number of codes; sizes the tables below
)

var stateOf = [numCodes]State{unsubmitted: "", pending: Pending, ready: Ready, running: Running,
	delayed: Delayed, succeeded: Succeeded, dead: Dead, blocked: Blocked}

func (c code) State() State { return stateOf[c] }

// transitions is the state table of the design: allowed[from][to].
var allowed = [numCodes][numCodes]bool{
	unsubmitted: {pending: true, ready: true, blocked: true},
	pending:     {ready: true, blocked: true},
	ready:       {running: true},
	running:     {succeeded: true, ready: true, delayed: true, dead: true},
	delayed:     {ready: true},
	dead:        {ready: true},
	blocked:     {pending: true, blocked: true}, // blocked→blocked: root renamed
}
