package queuetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
)

// model is what the suite knows of one queue: folded from the events the
// queue delivered and checked against the state table as they arrive. Every
// read of the queue is compared with it (see model.check), and the outcome
// of each operation is predicted from it (see expect.go), so a queue is held
// to the rules of [core] on its own, without the reference beside it.
//
// The model's graph is small (the suite's queues hold tens of tasks): its
// queries walk it, O(n·(n+e)) at worst.
type model struct {
	cfg core.Config // as the queue was opened, OnEvent aside

	names    []string            // every name an operation used, in order of first use
	tasks    []string            // submitted tasks, in arrival order
	deps     map[string][]string // as submitted, duplicates dropped
	state    map[string]core.State
	attempts map[string]int // hand-outs since submit or the last redrive
	fifo     []string       // READY tasks, in the order they became READY
	dlq      []string       // DEAD and BLOCKED tasks, in the order they entered the DLQ
	poisoned map[string]bool
	redrives map[string]int // redrives since submit, for Config.PoisonAfter

	current map[string]core.Lease   // RUNNING task → its lease, the deadline as renewed
	history map[string][]core.Lease // every lease handed out, per task, in order
	expired map[string][]core.Lease // the leases that expired, per task, in order
	maxID   uint64                  // the largest lease id handed out

	now    time.Duration
	timers map[string]timer // RUNNING under a lease timeout: its deadline; DELAYED: its due time
	seq    uint64           // timers set so far, for ties
	rng    *rand.Rand       // the backoff's jitter, drawn as the queue must draw

	lastDLQ []core.DeadLetter // DeadLetters as check last read them

	op    uint64 // the Op of the last operation that delivered events
	hadOp bool

	x dlqModel // the growth alert and the bulk redrive: ops_memory.go
}

// timer is a deadline or due time and the order it was set in.
type timer struct {
	at  time.Duration
	seq uint64
}

func newModel(cfg core.Config) *model {
	cfg.OnEvent = nil
	return &model{
		cfg:      cfg,
		deps:     map[string][]string{},
		state:    map[string]core.State{},
		attempts: map[string]int{},
		poisoned: map[string]bool{},
		redrives: map[string]int{},
		current:  map[string]core.Lease{},
		history:  map[string][]core.Lease{},
		expired:  map[string][]core.Lease{},
		timers:   map[string]timer{},
		rng:      rand.New(rand.NewPCG(cfg.Backoff.Seed, 0)),
		x:        dlqModel{alert: cfg.Alert},
	}
}

// use records names an operation uses, so that reads cover them.
func (m *model) use(names ...string) {
	for _, n := range names {
		if !slices.Contains(m.names, n) {
			m.names = append(m.names, n)
		}
	}
}

// transition is the From → To of each event kind but Submitted and
// Rejected: the arrows of [core]'s state diagram.
var transition = map[core.EventKind][2]core.State{
	core.EventReady:     {core.Pending, core.Ready},
	core.EventStarted:   {core.Ready, core.Running},
	core.EventSucceeded: {core.Running, core.Succeeded},
	core.EventRetried:   {core.Running, core.Ready},
	core.EventDead:      {core.Running, core.Dead},
	core.EventBlocked:   {core.Pending, core.Blocked},
	core.EventUnblocked: {core.Blocked, core.Pending},
	core.EventRerooted:  {core.Blocked, core.Blocked},
	core.EventRedriven:  {core.Dead, core.Ready},
	core.EventDelayed:   {core.Running, core.Delayed},
	core.EventDue:       {core.Delayed, core.Ready},
	core.EventExpired:   {core.Running, core.Running},
	core.EventHeartbeat: {core.Running, core.Running},
}

// fold applies one event to the model, checking it against the state table
// and the model's state of its task.
func (m *model) fold(e core.Event) error {
	if e.At != m.now {
		return fmt.Errorf("%s event %q at %v, but the clock is at %v", e.Kind, e, e.At, m.now)
	}
	if isDLQKind(e.Kind) {
		return m.foldDLQ(e)
	}
	tr, ok := transition[e.Kind]
	if !ok && e.Kind != core.EventSubmitted && e.Kind != core.EventRejected {
		return fmt.Errorf("event %q of kind %s, which no operation of the suite makes", e, e.Kind)
	}
	prev := m.state[e.Task]
	switch e.Kind {
	case core.EventRejected:
		if e.From != "" || e.To != "" {
			return fmt.Errorf("rejected event %q has From %q, To %q, want none", e, e.From, e.To)
		}
		return nil
	case core.EventSubmitted:
		if e.From != "" || prev != "" {
			return fmt.Errorf("submitted event for %q, From %q, but it is %s", e.Task, e.From, orNone(prev))
		}
		if e.To != core.Pending && e.To != core.Ready && e.To != core.Blocked {
			return fmt.Errorf("submitted event for %q goes to %s", e.Task, orNone(e.To))
		}
		for i, d := range e.Deps {
			if slices.Contains(e.Deps[:i], d) {
				return fmt.Errorf("submitted event for %q lists dependency %q twice: %q", e.Task, d, e.Deps)
			}
		}
		m.tasks = append(m.tasks, e.Task)
		m.deps[e.Task] = slices.Clone(e.Deps)
		m.use(e.Task)
		m.use(e.Deps...)
	default:
		if e.From != tr[0] || e.To != tr[1] {
			return fmt.Errorf("%s event for %q goes %s → %s, want %s → %s", e.Kind, e.Task, orNone(e.From), orNone(e.To), tr[0], tr[1])
		}
		if prev != e.From {
			return fmt.Errorf("%s event for %q from %s, but it is %s", e.Kind, e.Task, e.From, orNone(prev))
		}
	}
	m.state[e.Task] = e.To
	m.x.track(e)

	// Invariant 4: a task joins the line when it becomes READY and leaves
	// it, from the front, when started.
	switch {
	case e.To == core.Ready:
		if slices.Contains(m.fifo, e.Task) {
			return fmt.Errorf("%q became READY twice", e.Task)
		}
		m.fifo = append(m.fifo, e.Task)
	case e.Kind == core.EventStarted:
		if len(m.fifo) == 0 || m.fifo[0] != e.Task {
			return fmt.Errorf("invariant 4: %q started, but the front of the line is %q", e.Task, m.fifo)
		}
		m.fifo = m.fifo[1:]
	}

	// Invariant 3: the DLQ, in the order tasks entered it.
	switch e.Kind {
	case core.EventSubmitted, core.EventBlocked, core.EventDead:
		if e.To == core.Blocked || e.To == core.Dead {
			m.dlq = append(m.dlq, e.Task)
			if err := m.enteredDLQ(e); err != nil {
				return err
			}
		}
	case core.EventUnblocked, core.EventRedriven:
		m.dlq = slices.DeleteFunc(m.dlq, func(t string) bool { return t == e.Task })
	}
	if e.To == core.Blocked || e.Kind == core.EventRerooted {
		if want := "blocked by " + e.Root; e.Root == "" || e.Reason != want {
			return fmt.Errorf("%s event for %q has Root %q and Reason %q, want Reason %q", e.Kind, e.Task, e.Root, e.Reason, want)
		}
	}

	// Attempts, leases and timers.
	switch e.Kind {
	case core.EventStarted:
		if want := m.attempts[e.Task] + 1; e.Attempt != want {
			return fmt.Errorf("started event for %q at attempt %d, want %d", e.Task, e.Attempt, want)
		}
		if want := m.deadline(); e.Deadline != want {
			return fmt.Errorf("started event for %q has Deadline %v, want %v (now %v, lease timeout %v)", e.Task, e.Deadline, want, m.now, m.cfg.LeaseTimeout)
		}
		m.attempts[e.Task] = e.Attempt
		l := core.Lease{Task: e.Task, ID: e.Lease, Attempt: e.Attempt, Deadline: e.Deadline}
		m.current[e.Task] = l
		m.history[e.Task] = append(m.history[e.Task], l)
		m.maxID = max(m.maxID, l.ID)
		if e.Deadline > 0 {
			m.setTimer(e.Task, e.Deadline)
		}
	case core.EventHeartbeat:
		cur, ok := m.current[e.Task]
		if !ok || cur.ID != e.Lease || cur.Attempt != e.Attempt {
			return fmt.Errorf("heartbeat event for %q, lease %d attempt %d, but its current lease is %+v", e.Task, e.Lease, e.Attempt, cur)
		}
		if want := m.deadline(); e.Deadline != want {
			return fmt.Errorf("heartbeat event for %q has Deadline %v, want %v (now %v, lease timeout %v)", e.Task, e.Deadline, want, m.now, m.cfg.LeaseTimeout)
		}
		cur.Deadline = e.Deadline
		m.current[e.Task] = cur
		if e.Deadline > 0 {
			m.setTimer(e.Task, e.Deadline)
		}
	case core.EventExpired:
		cur, ok := m.current[e.Task]
		if !ok || cur.ID != e.Lease || cur.Attempt != e.Attempt || e.Deadline != m.now || cur.Deadline != m.now {
			return fmt.Errorf("expired event %+v, but the current lease is %+v and the clock %v", e, cur, m.now)
		}
		m.expired[e.Task] = append(m.expired[e.Task], cur)
	case core.EventRetried, core.EventDelayed, core.EventDead:
		if e.Attempt != m.attempts[e.Task] {
			return fmt.Errorf("%s event for %q at attempt %d, but it was handed out %d times", e.Kind, e.Task, e.Attempt, m.attempts[e.Task])
		}
		delete(m.current, e.Task)
		delete(m.timers, e.Task)
		switch e.Kind {
		case core.EventDelayed:
			if e.Due <= m.now {
				return fmt.Errorf("delayed event for %q due at %v, not after now %v", e.Task, e.Due, m.now)
			}
			m.setTimer(e.Task, e.Due)
		case core.EventDead:
			if err := checkDeadReason(e.Reason, e.Error, m.cfg.MaxAttempts); err != nil {
				return fmt.Errorf("dead event for %q: %v", e.Task, err)
			}
			if e.Poisoned && m.cfg.PoisonAfter == 0 {
				return fmt.Errorf("dead event for %q is poisoned without PoisonAfter", e.Task)
			}
			m.poisoned[e.Task] = e.Poisoned
		}
	case core.EventSucceeded:
		delete(m.current, e.Task)
		delete(m.timers, e.Task)
	case core.EventDue:
		delete(m.timers, e.Task)
	case core.EventRedriven:
		m.attempts[e.Task] = 0
		m.redriven(e.Task)
		delete(m.poisoned, e.Task)
	}
	return nil
}

// deadline is the deadline of a lease handed out or renewed now.
func (m *model) deadline() time.Duration {
	if m.cfg.LeaseTimeout == 0 {
		return 0
	}
	return later(m.now, m.cfg.LeaseTimeout)
}

// later returns t + d, or the largest time if that overflows.
func later(t, d time.Duration) time.Duration {
	if d > math.MaxInt64-t {
		return math.MaxInt64
	}
	return t + d
}

func (m *model) setTimer(task string, at time.Duration) {
	m.seq++
	m.timers[task] = timer{at: at, seq: m.seq}
}

// firstTimer returns the timer that fires first: the earliest, and of
// those the first set.
func (m *model) firstTimer() (string, timer, bool) {
	var task string
	var first timer
	found := false
	for t, x := range m.timers {
		if !found || x.at < first.at || (x.at == first.at && x.seq < first.seq) {
			task, first, found = t, x, true
		}
	}
	return task, first, found
}

// delay predicts the backoff delay after attempt k failed with attempts
// left, drawing from the model's generator when the queue draws from its
// own: Base · Factor^(k−1) by repeated multiplication, capped by Max, then
// the jitter, a whole number of milliseconds from 1 ms up.
func (m *model) delay(k int) time.Duration {
	b := m.cfg.Backoff
	if b.Base <= 0 {
		return 0
	}
	f := b.Factor
	if f == 0 {
		f = 1
	}
	d := float64(b.Base)
	for range k - 1 {
		d *= f
	}
	c := time.Duration(d)
	switch {
	case b.Max > 0 && d >= float64(b.Max):
		c = b.Max
	case d >= math.MaxInt64:
		c = math.MaxInt64
	}
	unit := time.Duration(1)
	if c >= time.Millisecond {
		unit = time.Millisecond
	}
	switch b.Jitter {
	case core.JitterFull:
		return time.Duration(m.rng.Uint64N(uint64(c/unit)+1)) * unit
	case core.JitterEqual:
		half := c / 2
		return half + time.Duration(m.rng.Uint64N(uint64((c-half)/unit)+1))*unit
	}
	return c
}

// ---- queries of the graph ----

func (m *model) isTask(t string) bool { return m.state[t] != "" }

func (m *model) inState(s core.State) []string {
	var ts []string
	for _, t := range m.tasks {
		if m.state[t] == s {
			ts = append(ts, t)
		}
	}
	return ts
}

// reaches reports whether from transitively waits on to (or is to), in the
// graph with the tasks of extra waiting on their deps instead.
func (m *model) reaches(from, to string, extra map[string][]string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(x string) bool {
		if x == to {
			return true
		}
		if seen[x] {
			return false
		}
		seen[x] = true
		deps := m.deps[x]
		if d, ok := extra[x]; ok {
			deps = d
		}
		return slices.ContainsFunc(deps, walk)
	}
	return walk(from)
}

// upstream returns t's transitive dependencies.
func (m *model) upstream(t string) []string {
	var up []string
	var walk func(string)
	walk = func(x string) {
		for _, d := range m.deps[x] {
			if !slices.Contains(up, d) {
				up = append(up, d)
				walk(d)
			}
		}
	}
	walk(t)
	return up
}

// distances returns, for every task that transitively waits on t, the
// length of the shortest dependency path to t.
func (m *model) distances(t string) map[string]int {
	dist := map[string]int{t: 0}
	for line := []string{t}; len(line) > 0; line = line[1:] {
		x := line[0]
		for _, w := range m.tasks {
			if _, seen := dist[w]; !seen && slices.Contains(m.deps[w], x) {
				dist[w] = dist[x] + 1
				line = append(line, w)
			}
		}
	}
	delete(dist, t)
	return dist
}

// waitersOf returns the tasks that transitively wait on t, in arrival order.
func (m *model) waitersOf(t string) []string {
	dist := m.distances(t)
	var ws []string
	for _, w := range m.tasks {
		if _, ok := dist[w]; ok {
			ws = append(ws, w)
		}
	}
	return ws
}

// pendingDownstream returns the PENDING tasks that transitively wait on t.
func (m *model) pendingDownstream(t string) []string {
	var ts []string
	for _, w := range m.waitersOf(t) {
		if m.state[w] == core.Pending {
			ts = append(ts, w)
		}
	}
	return ts
}

// releasedBy returns the PENDING tasks whose last unfinished dependency is
// t, in arrival order.
func (m *model) releasedBy(t string) []string {
	var ts []string
	for _, w := range m.tasks {
		if m.state[w] != core.Pending || !slices.Contains(m.deps[w], t) {
			continue
		}
		if !slices.ContainsFunc(m.deps[w], func(d string) bool { return d != t && m.state[d] != core.Succeeded }) {
			ts = append(ts, w)
		}
	}
	return ts
}

// nearestFirst checks that a blocking wave from root lists its tasks in
// order of distance from root.
func (m *model) nearestFirst(root string, wave []string) error {
	dist := m.distances(root)
	for i := 1; i < len(wave); i++ {
		if dist[wave[i]] < dist[wave[i-1]] {
			return fmt.Errorf("the blocking wave from %q is %q, not nearest first: %q is %d away, %q %d",
				root, wave, wave[i-1], dist[wave[i-1]], wave[i], dist[wave[i]])
		}
	}
	return nil
}

func orNone(s core.State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}

func eventList(evs []core.Event) string {
	if len(evs) == 0 {
		return "none"
	}
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = fmt.Sprintf("[%s @%v] %s", e.Kind, e.At, e)
	}
	return strings.Join(s, "; ")
}
