package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dagq/dagq/incremental"
)

// Config configures a [Queue]. The zero Config is a working queue: three
// attempts ([DefaultMaxAttempts]), the default cycle check
// (incremental.Default), no events, leases that never expire, retries at
// once, no poison-pill cap and no growth alert. [Queue.Config] returns the
// configuration in use, its defaults filled in.
type Config struct {
	// MaxAttempts is how many times a task is handed out before a failure
	// sends it to the dead-letter queue; 0 means [DefaultMaxAttempts]. It
	// must not be negative.
	MaxAttempts int
	// Strategy names the cycle check (see package incremental); "" means
	// incremental.Default.
	Strategy string
	// OnEvent, when set, receives every state change, in order, and the
	// events that change no state: a lease expiring, a heartbeat, the
	// growth alert and its clear, a bulk redrive's start, progress and end.
	//
	// The events of an operation (Submit, SubmitBatch, Next, Heartbeat,
	// Complete, Fail, Redrive, ForceRedrive, RedriveMatching,
	// CancelRedrive, Advance) are delivered when it has finished, just
	// before it returns: the queue OnEvent sees is consistent, every
	// invariant holds, and OnEvent may call any method of the queue,
	// operations included. An automatic redrive, calling Redrive when an
	// EventDead arrives, is the natural example.
	//
	// An operation OnEvent calls runs in full at once; its events are
	// delivered after the events already waiting, by the same delivery loop
	// (OnEvent is never entered again while it runs). So events always
	// arrive in the order of their Op, and the queue OnEvent sees is the one
	// after every operation so far, which may be later than the event in
	// hand: after that redrive, the tasks its death blocked are PENDING
	// again (unless another dead task holds them) by the time their
	// EventBlocked arrives.
	//
	// A panic in OnEvent reaches the caller of the operation; the events not
	// delivered yet are delivered, in order, when the next operation ends.
	//
	// Nothing is built for events when OnEvent is nil; when it is set, the
	// events wait in a buffer the queue reuses.
	OnEvent func(Event)
	// Visited, with OnEvent, makes submit events name the tasks their cycle
	// check reached (Event.Visited). It costs a slice of ids per check and a
	// list of names per submit, as long as the check's visits: leave it off
	// unless something shows them.
	Visited bool
	// LeaseTimeout is how long a lease lasts after Next or a Heartbeat,
	// on the queue's clock ([Queue.Now]); a lease that reaches its deadline
	// expires, failing the task with "lease expired". 0: leases never
	// expire. It must not be negative.
	LeaseTimeout time.Duration
	// Backoff delays retries (DELAYED); the zero value retries at once.
	// [New] refuses what [Backoff] says it refuses.
	Backoff Backoff
	// PoisonAfter is the poison-pill cap: a task redriven this many times
	// (since it was submitted, or last forced) that dies again is poisoned,
	// "needs a human" ([DeadLetter.Poisoned]): a bulk redrive skips it,
	// [Queue.Redrive] refuses it with ErrPoisoned, and only
	// [Queue.ForceRedrive] moves it. 0: off. It must not be negative.
	PoisonAfter int
	// Alert raises one [EventAlert] when the dead-letter queue grows fast,
	// and one [EventCleared] when it calms down; the zero value is off.
	Alert Alert
	// Tasks, when known, is how many tasks the queue will hold: New sizes
	// its tables for them at once instead of growing them a submit at a
	// time (a replay of a 10⁵-task script saves a quarter of its memory).
	// A hint: it changes nothing a caller sees, a queue holds any number of
	// tasks whatever it says, and at most [MaxTasksHint] is taken; 0 or
	// less: none.
	Tasks int
}

// MaxTasksHint is the most of [Config.Tasks] New sizes its tables for, so
// that a hint cannot allocate more than tasks would.
const MaxTasksHint = 1 << 20

// DefaultMaxAttempts is the attempts of a [Config] whose MaxAttempts is 0,
// as of a scenario without an attempts line.
const DefaultMaxAttempts = 3

// Lease is a task handed out by [Queue.Next]. Only the current, unexpired
// lease of a task can heartbeat, complete or fail it; it is identified by
// Task, ID and Attempt. A Lease built from those three fields alone (one
// read back from a log, say) is as good as the one Next returned: the
// queue finds its task by name then, where Next's lets it skip the lookup.
// So, as with time.Time, compare leases with [Lease.Equal], not ==.
type Lease struct {
	Task     string
	ID       uint64        // unique within the queue
	Attempt  int           // 1 for the first hand-out after submit or redrive
	Deadline time.Duration // when it expires, on the queue's clock, unless renewed; 0: never

	node int32 // the task's id + 1, a hint that saves a lookup by name; 0: none
}

// Equal says whether l and m are the same lease with the same Deadline:
// their Task, ID, Attempt and Deadline are equal, whichever carries the
// queue's hint.
func (l Lease) Equal(m Lease) bool {
	return l.Task == m.Task && l.ID == m.ID && l.Attempt == m.Attempt && l.Deadline == m.Deadline
}

// Queue is a work queue whose tasks wait on other tasks. It is not safe for
// concurrent use.
//
// Task names are interned to dense int32 ids on first sight, whether as a
// task or as a dependency; adjacency lives in spans of one arena, indexed
// by id, so that a warmed-up queue does not allocate per task.
type Queue struct {
	cfg         Config // as given to New, its defaults filled in
	maxAttempts int32
	onEvent     func(Event)
	check       incremental.Strategy

	table nameTable // name → id, for every name the queue knows
	nodes nodeStore // by id
	dl    []dlNode  // the DLQ's part of nodes[:len(dl)]; see dlNode
	order []int32   // submitted tasks, arrival order
	ready fifo      // READY tasks, hand-out order
	dlq   deadLetters

	op    uint64 // operations so far; events carry the current one
	lease uint64 // last lease id handed out

	// Operating the DLQ: the poison-pill cap, the growth alert (alert.go),
	// the rate-limited redrive in progress (bulk.go) and the edges redrives
	// examined.
	poisonAfter int32
	alert       alertState
	job         *redriveJob
	jobTimer    int32 // the job's timer index + 1, as node.timer
	dlqVisits   uint64

	// Time: the clock, the timer heap (timers.go) and what sets timers.
	// Without a lease timeout or backoff, timers stays empty.
	now          time.Duration
	leaseTimeout time.Duration
	backoff      Backoff
	rng          *rand.Rand // the jitter's generator; nil without backoff
	timers       []timer
	timerSeq     uint64                  // timers set so far, for ties
	expired      map[uint64]expiredLease // by lease id: every lease that expired

	// Events wait in outbox until the operation ends; outbox[:sent] are
	// delivered. delivering: the delivery loop is running.
	outbox     []Event
	sent       int
	delivering bool

	arena arena
	// scratch for walks; mark[v] == stamp means v was seen in this walk
	mark  []uint32
	count []int32
	stamp uint32
	walk  []int32
	line  []int32
	ids32 []int32
	// touched is a sum of what nameTable.touch read, kept so that no
	// compiler drops those reads.
	touched uint64
	roots   []int32
	// visited: the ids the current cycle check reached, when watching
	visited  []int32
	watching bool
}

// node is what the queue knows of one id that the lifecycle reads: 56
// bytes and one pointer, its name; its lists are spans of the arena. What
// only the dead-letter queue needs is in a dlNode, apart (see Queue.dl), so
// that submit, hand-out and completion walk, and the garbage collector
// scans, 56 bytes of the 136.
type node struct {
	name       string
	deps       span   // what it waits on, duplicates dropped, in submit order
	dependents span   // submitted tasks that wait on it, in their arrival order
	lease      uint64 // RUNNING: the current lease
	waiting    int32  // deps not SUCCEEDED (unsubmitted ones included)
	attempts   int32  // hand-outs since submit or the last redrive
	timer      int32  // RUNNING under a lease timeout, or DELAYED: its timer's index in q.timers + 1; else 0
	state      code
}

// dlNode is what the queue knows of one id for the dead-letter queue:
// Queue.dl[v], for the ids below len(Queue.dl), which grows to cover an id
// when one first dies, is blocked or is redriven (dlOf). An id past it has
// the zero dlNode: never in the DLQ, never redriven.
type dlNode struct {
	reason   string        // DEAD: "failed after N attempts: ERR"
	errText  string        // DEAD: ERR alone
	fp       string        // DEAD: Fingerprint(errText), once fpOK
	entered  time.Duration // DEAD or BLOCKED: the clock when it entered the DLQ
	dlqEntry uint64        // DEAD or BLOCKED: its entry number in the DLQ, else 0
	redrives int32         // redrives since submit, or the last ForceRedrive
	blocks   int32         // DEAD: the BLOCKED tasks whose root it is (its blast radius)
	root     int32         // BLOCKED: the dead task its reason names
	fpOK     bool          // fp is computed
	poisoned bool          // DEAD: died again after PoisonAfter redrives
}

// dlOf returns v's dlNode, growing q.dl to cover v. O(1) amortized.
func (q *Queue) dlOf(v int32) *dlNode {
	if int(v) >= len(q.dl) {
		q.dl = append(q.dl, make([]dlNode, q.nodes.len()-len(q.dl))...)
	}
	return &q.dl[v]
}

// inDLQ reports whether v is DEAD or BLOCKED, by its DLQ entry. O(1).
func (q *Queue) inDLQ(v int32) bool { return int(v) < len(q.dl) && q.dl[v].dlqEntry != 0 }

// New returns an empty queue, its clock at 0. It fails if cfg.MaxAttempts
// is negative, the strategy is unknown, cfg.LeaseTimeout or cfg.PoisonAfter is
// negative, cfg.Backoff is one [Backoff] refuses or cfg.Alert one [Alert]
// refuses.
func New(cfg Config) (*Queue, error) {
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.MaxAttempts < 0 {
		return nil, fmt.Errorf("core: MaxAttempts is %d, want at least 1 (0: %d)", cfg.MaxAttempts, DefaultMaxAttempts)
	}
	if cfg.MaxAttempts > 1<<30 {
		return nil, fmt.Errorf("core: MaxAttempts is %d, want at most %d", cfg.MaxAttempts, 1<<30)
	}
	if cfg.LeaseTimeout < 0 {
		return nil, fmt.Errorf("core: LeaseTimeout is %v, want at least 0 (0: leases never expire)", cfg.LeaseTimeout)
	}
	if err := cfg.Backoff.validate(); err != nil {
		return nil, err
	}
	if cfg.PoisonAfter < 0 || cfg.PoisonAfter > 1<<30 {
		return nil, fmt.Errorf("core: PoisonAfter is %d, want 0 (off) to %d", cfg.PoisonAfter, 1<<30)
	}
	if err := cfg.Alert.validate(); err != nil {
		return nil, err
	}
	check, err := incremental.New(cfg.Strategy)
	if err != nil {
		return nil, errors.Join(errors.New("core: cannot make queue"), err)
	}
	if cfg.Strategy == "" {
		cfg.Strategy = incremental.Default
	}
	q := &Queue{
		cfg:         cfg,
		maxAttempts: int32(cfg.MaxAttempts),
		onEvent:     cfg.OnEvent,
		check:       check,
		table:       newNameTable(min(max(cfg.Tasks, 0), MaxTasksHint)),

		leaseTimeout: cfg.LeaseTimeout,
		backoff:      cfg.Backoff,
		poisonAfter:  int32(cfg.PoisonAfter),
		alert:        newAlertState(cfg.Alert),
	}
	if n := min(max(cfg.Tasks, 0), MaxTasksHint); n > 0 {
		q.nodes = newNodeStore(n)
	}
	if cfg.Backoff.Base > 0 {
		q.rng = rand.New(rand.NewPCG(cfg.Backoff.Seed, 0))
	}
	if w, ok := check.(incremental.Watcher); ok && cfg.OnEvent != nil && cfg.Visited {
		q.watching = true
		w.Watch(func(v int32) { q.visited = append(q.visited, v) })
	}
	return q, nil
}

// visitedNames returns the tasks the last cycle check reached, each once,
// in the order first reached; nil unless Config.Visited asked for them.
func (q *Queue) visitedNames() []string {
	if !q.watching {
		return nil
	}
	seen := make(map[int32]bool, len(q.visited))
	out := []string{}
	for _, v := range q.visited {
		if !seen[v] {
			seen[v] = true
			out = append(out, q.nodes.at(v).name)
		}
	}
	return out
}

// Config returns the configuration the queue was made with, its defaults
// filled in: MaxAttempts is at least 1 and Strategy names the strategy in
// use. O(1).
func (q *Queue) Config() Config { return q.cfg }

// Len returns the number of submitted tasks.
func (q *Queue) Len() int { return len(q.order) }

// lookup returns the id of a submitted task.
func (q *Queue) lookup(task string) (int32, bool) {
	v, ok, _, _ := q.table.find(&q.nodes, task)
	if !ok || q.nodes.at(v).state == unsubmitted {
		return 0, false
	}
	return v, true
}

// intern returns the id of name, making one if it is new; named says
// whether it had one. One probe of the name table does both.
func (q *Queue) intern(name string) (v int32, named bool) {
	v, named, slot, h := q.table.find(&q.nodes, name)
	if named {
		return v, true
	}
	v = q.nodes.add(name)
	q.table.put(slot, h, v)
	return v, false
}

// forget drops the ids from n on, made by a submit that was refused.
func (q *Queue) forget(n int) {
	for v := n; v < q.nodes.len(); v++ {
		q.table.remove(&q.nodes, q.nodes.at(int32(v)).name)
	}
	q.nodes.truncate(n)
	if len(q.dl) > n {
		clear(q.dl[n:])
		q.dl = q.dl[:n]
	}
}

// newWalk starts a walk: marks of earlier walks no longer count. The cost is
// O(1), and O(ids) when the marks must grow.
func (q *Queue) newWalk() {
	if n := q.nodes.len(); len(q.mark) < n {
		q.mark = append(q.mark, make([]uint32, n-len(q.mark))...)
		q.count = append(q.count, make([]int32, n-len(q.count))...)
	}
	q.stamp++
	if q.stamp == 0 {
		clear(q.mark)
		q.stamp = 1
	}
	q.walk = q.walk[:0]
}

// Status returns the state of a submitted task; false if it was never
// submitted (a task only named as a dependency has no state yet).
func (q *Queue) Status(task string) (State, bool) {
	v, ok := q.lookup(task)
	if !ok {
		return "", false
	}
	return q.nodes.at(v).state.State(), true
}

// Lease returns the current lease of a RUNNING task, with its deadline as
// it stands (renewed by heartbeats).
func (q *Queue) Lease(task string) (Lease, bool) {
	v, ok := q.lookup(task)
	if !ok || q.nodes.at(v).state != running {
		return Lease{}, false
	}
	n := q.nodes.at(v)
	deadline, _ := q.timerOf(v)
	return Lease{Task: n.name, ID: n.lease, Attempt: int(n.attempts), Deadline: deadline, node: v + 1}, true
}

// Tasks returns the submitted tasks in arrival order.
func (q *Queue) Tasks() []string { return q.names(q.order) }

// ReadyTasks returns the READY tasks in the order Next will hand them out.
func (q *Queue) ReadyTasks() []string { return q.names(q.ready.items()) }

func (q *Queue) names(ids []int32) []string {
	out := make([]string, len(ids))
	for i, v := range ids {
		out[i] = q.nodes.at(v).name
	}
	return out
}

// graphView is the queue seen as the read-only graph the strategies check.
type graphView Queue

func (g *graphView) Len() int                   { return g.nodes.len() }
func (g *graphView) Deps(v int32) []int32       { return g.arena.ints(g.nodes.at(v).deps) }
func (g *graphView) Dependents(v int32) []int32 { return g.arena.ints(g.nodes.at(v).dependents) }
