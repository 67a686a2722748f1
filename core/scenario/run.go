package scenario

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// Options changes how a script runs.
type Options struct {
	// Strategy, when not empty, is the cycle-check strategy to use whatever
	// the script's strategy line says.
	Strategy string
	// Visited makes each submit's events name the tasks its cycle check
	// reached (core.Event.Visited), as the playground shows them. It costs
	// memory as long as the check's visits, per submit.
	Visited bool
	// Open, when set, makes the queue the run drives instead of core.New,
	// from the configuration core.New would get (OnEvent included, which
	// the queue must call as core's does). wq run --db opens a durable
	// queue with it. The commands that need a [BulkQueue] are refused, as
	// a step that is not OK, on a queue that is not one.
	Open func(core.Config) (Queue, error)
	// Tasks is how many tasks the run will submit beyond the script's own
	// submits, as a runner fed commands by Exec knows (an export's replay):
	// the queue is sized for both at once (core.Config.Tasks).
	Tasks int
}

// Step is what one command did.
type Step struct {
	Command Command
	// OK is false for a refused operation (a duplicate or cyclic submit, a
	// task not RUNNING, not DEAD or unknown) and for a failed expect. A next
	// with nothing READY is OK.
	OK bool
	// Err says why the command was refused or the expect failed; "" when OK.
	Err string
	// Task is, for next, the task handed out ("" if none was READY); for
	// the other commands with a task, that task; "" for attempts and
	// strategy.
	Task string
	// State is, for fail, the state the failure led to (READY or DEAD; ""
	// if refused); for next, RUNNING when a task was handed out; for the
	// other commands with a task, its state after the command ("" if it was
	// never submitted).
	State core.State
	// Events are the state changes the command caused, in order; a refused
	// submit has one Rejected event.
	Events []core.Event
	// Now is the queue's clock after the command.
	Now time.Duration
	// Preview is, for preview redrive, what the redrive would do (nil for
	// other commands).
	Preview *core.RedrivePreview
}

// Trace is the record of a run.
type Trace struct {
	Strategy string // the cycle-check strategy used
	Attempts int    // the queue's max attempts
	Steps    []Step // one per command run
}

// ExpectError is an expect line whose task was not in the state it named.
type ExpectError struct {
	Line, Col int
	Task      string
	Want      core.State
	Got       core.State // "" when the task was never submitted
}

// Error returns "LINE:COL: expect TASK WANT: got GOT".
func (e *ExpectError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.describe())
}

func (e *ExpectError) describe() string {
	if e.Got == "" {
		return fmt.Sprintf("expect %s %s: %s was never submitted", e.Task, e.Want, e.Task)
	}
	return fmt.Sprintf("expect %s %s: got %s", e.Task, e.Want, e.Got)
}

// Runner runs a script one command at a time against its own queue. The
// playground steps a script with it and runs the commands users type.
type Runner struct {
	q      Queue
	mem    *core.Queue  // q, when it is core's
	header *Script      // the settings the queue was made with
	events []core.Event // events of the command being run
	// arena holds the events of the steps run so far, back to back: a
	// step's events are a slice of it, so that a run of thousands of
	// steps makes a few allocations for its events, not one or more per
	// step. A step with more events than the arena has room for gets a
	// slice of its own.
	arena      []core.Event
	overridden bool // Options.Strategy replaced the script's
	reuse      bool // each Exec reuses the arena from its start (see stream)
	// leases are the leases handed out to each task since it was submitted
	// or last redriven, for the commands that act with an earlier
	// attempt's lease (complete T@N): O(hand-outs) in all. It is nil for a
	// run of a whole script that has no such command (see forgetLeases).
	leases map[string][]core.Lease
}

// NewRunner makes the queue a script runs against, from its header: the
// attempts line (default [DefaultAttempts]) and the strategy line, or
// opt.Strategy when set. It fails if the strategy is unknown or, for a
// Script built by hand, the attempts are out of range.
func NewRunner(s *Script, opt Options) (*Runner, error) {
	r := &Runner{header: s, leases: make(map[string][]core.Lease)}
	attempts := s.Attempts
	if attempts == 0 {
		attempts = DefaultAttempts
	}
	if attempts < 1 || attempts > maxAttempts {
		return nil, fmt.Errorf("scenario: attempts %d is out of range (want 1 to %d)", attempts, maxAttempts)
	}
	strategy := s.Strategy
	if opt.Strategy != "" {
		strategy = opt.Strategy
		r.overridden = true
	}
	if strategy != "" && !slices.Contains(incremental.Names(), strategy) {
		return nil, fmt.Errorf("scenario: unknown strategy %s (want %s)", quoted(strategy), orList(incremental.Names()))
	}
	cfg := core.Config{
		MaxAttempts:  attempts,
		Strategy:     strategy,
		OnEvent:      r.record,
		Visited:      opt.Visited,
		LeaseTimeout: s.Lease,
		Backoff:      s.Backoff,
		PoisonAfter:  s.PoisonAfter,
		Alert:        s.Alert,
		Tasks:        s.submits() + opt.Tasks,
	}
	if opt.Open != nil {
		q, err := opt.Open(cfg)
		if err != nil {
			return nil, fmt.Errorf("scenario: %w", err)
		}
		r.q = q
		return r, nil
	}
	q, err := core.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	r.q, r.mem = q, q
	return r, nil
}

// stream readies the runner for a run that keeps no step once the next
// has begun ([Stream], [Record]): a step's events are then valid only
// until the next Exec, whose events reuse their storage, and the leases
// handed out are not remembered unless script names one of an earlier
// attempt. Otherwise a run of millions of steps would keep, through the
// arena, the events of thousands of steps (each refusal of a long cycle
// holds its path), and every lease it handed out.
func (r *Runner) stream(script *Script) {
	r.reuse = true
	if !script.earlierLeases {
		r.leases = nil
	}
}

// record keeps an event of the command being run, and the leases that
// commands of later attempts may name.
func (r *Runner) record(e core.Event) {
	r.events = append(r.events, e)
	if r.leases == nil {
		return
	}
	switch e.Kind {
	case core.EventStarted:
		r.leases[e.Task] = append(r.leases[e.Task], core.Lease{Task: e.Task, ID: e.Lease, Attempt: e.Attempt, Deadline: e.Deadline})
	case core.EventHeartbeat:
		if ls := r.leases[e.Task]; len(ls) > 0 && ls[len(ls)-1].ID == e.Lease {
			ls[len(ls)-1].Deadline = e.Deadline
		}
	case core.EventRedriven:
		r.leases[e.Task] = r.leases[e.Task][:0]
	}
}

// Queue returns the queue the runner drives, when it is core's (nil when
// Options.Open made it). Changing it other than through Exec leaves the
// runner's steps without the events of those changes.
func (r *Runner) Queue() *core.Queue { return r.mem }

// Exec runs one command and returns what it did. A refused operation is a
// Step with OK false; the queue is unchanged and the run may go on.
//
// complete and fail act on the task's current lease. attempts and strategy
// only confirm the queue's setting, which NewRunner made from the script
// header: one that disagrees with it is refused (a strategy line overridden
// by Options.Strategy is not).
func (r *Runner) Exec(c Command) Step {
	if r.reuse {
		clear(r.arena) // no reference to the last step's names and lists
		r.arena = r.arena[:0]
	}
	if cap(r.arena)-len(r.arena) < arenaRoom {
		r.arena = make([]core.Event, 0, min(max(2*cap(r.arena), 16*arenaRoom), arenaMost))
	}
	r.events = r.arena[len(r.arena):len(r.arena)]
	st := Step{Command: c, Task: c.Task}
	var err error
	q := r.q
	switch c.Op {
	case OpAttempts:
		st.Task = ""
		if c.N != q.Config().MaxAttempts {
			err = fmt.Errorf("attempts %d comes too late: the queue was made with attempts %d", c.N, q.Config().MaxAttempts)
		}
	case OpStrategy:
		st.Task = ""
		if c.Strategy != q.Config().Strategy && !r.overridden {
			err = fmt.Errorf("strategy %s comes too late: the queue was made with strategy %s", c.Strategy, q.Config().Strategy)
		}
	case OpSubmit:
		err = q.Submit(c.Task, c.Deps...)
		st.State, _ = q.Status(c.Task)
	case OpNext:
		if l, ok := q.Next(); ok {
			st.Task, st.State = l.Task, core.Running
		}
	case OpLease, OpBackoff, OpJitter, OpPoison, OpAlert:
		st.Task = ""
		if c.Dur != r.header.Lease && c.Op == OpLease ||
			c.Op == OpPoison && c.N != r.header.PoisonAfter ||
			c.Op == OpAlert && (core.Alert{Entries: c.N, Window: c.Dur}) != r.header.Alert ||
			c.Op == OpBackoff && (c.Dur != r.header.Backoff.Base || c.Factor != r.header.Backoff.Factor || c.Max != r.header.Backoff.Max) ||
			c.Op == OpJitter && (c.Jitter != r.header.Backoff.Jitter || c.Seed != r.header.Backoff.Seed) {
			err = fmt.Errorf("%s comes too late: the queue was made before it", c)
		}
	case OpAdvance:
		st.Task = ""
		err = q.Advance(c.Dur)
	case OpHeartbeat:
		var l core.Lease
		if l, err = r.lease(c.Task, c.Attempt); err == nil {
			_, err = q.Heartbeat(l)
		}
		st.State, _ = q.Status(c.Task)
	case OpComplete:
		var l core.Lease
		if l, err = r.lease(c.Task, c.Attempt); err == nil {
			err = q.Complete(l)
		}
		st.State, _ = q.Status(c.Task)
	case OpFail:
		var cause error
		if c.Err != "" || c.Permanent {
			cause = errors.New(c.Err)
		}
		if c.Permanent {
			cause = core.Permanent(cause)
		}
		var l core.Lease
		if l, err = r.lease(c.Task, c.Attempt); err == nil {
			st.State, err = q.Fail(l, cause)
		}
	case OpRedrive:
		if c.Force {
			err = q.ForceRedrive(c.Task)
		} else {
			err = q.Redrive(c.Task)
		}
		st.State, _ = q.Status(c.Task)
	case OpRedriveMatching, OpRedriveGroup:
		var sel core.Selector
		if sel, err = r.selector(c); err == nil {
			_, err = r.bulk().RedriveMatching(sel, c.Rate)
		}
	case OpPreview:
		var sel core.Selector
		if sel, err = r.selector(c); err == nil {
			p := r.bulk().PreviewRedrive(sel)
			st.Preview = &p
		}
	case OpRedriveCancel:
		if r.bulk() == nil {
			err = errNoBulk
		} else {
			err = r.bulk().CancelRedrive()
		}
	case OpDLQ:
		// Nothing changes: the trace shows the grouped view, folded from
		// the events.
	case OpExpect:
		st.State, _ = q.Status(c.Task)
		if st.State != c.Want {
			e := &ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: st.State}
			err = errors.New(e.describe())
		}
	default:
		err = fmt.Errorf("unknown command %v", c.Op)
	}
	if err != nil {
		st.Err = err.Error()
	}
	st.OK = err == nil
	n := len(r.events)
	if n > 0 && n <= cap(r.arena)-len(r.arena) && &r.events[0] == &r.arena[:len(r.arena)+1][len(r.arena)] {
		// The events were written into the arena: keep them there.
		r.arena = r.arena[:len(r.arena)+n]
	} else if r.reuse && cap(r.events) > cap(r.arena) {
		// A step larger than the arena: its storage is the arena from
		// now on, so that a run of many such steps reuses one buffer
		// rather than making a new one for each.
		r.arena = r.events[:n]
	}
	st.Events = r.events[:n:n] // appending to them never touches the next step's
	st.Now = q.Now()
	r.events = nil
	return st
}

// arenaRoom is the fewest free events the arena of a Runner keeps for the
// next command, and arenaMost the most events one arena block holds.
const (
	arenaRoom = 64
	arenaMost = 1 << 14
)

// selector returns the selector of a bulk redrive command: its text, its
// fingerprint, or the fingerprint of the N-th group of the dlq view now.
func (r *Runner) selector(c Command) (core.Selector, error) {
	switch {
	case c.Match != "":
		return core.Selector{Contains: c.Match}, nil
	case c.Fingerprint != "":
		return core.Selector{Fingerprint: c.Fingerprint}, nil
	}
	if r.bulk() == nil {
		return core.Selector{}, errNoBulk
	}
	groups := r.bulk().DeadLetterGroups()
	if c.Group < 1 || c.Group > len(groups) {
		return core.Selector{}, fmt.Errorf("there is no group %d: the dead-letter queue has %s", c.Group, plural(len(groups), "group"))
	}
	return core.Selector{Fingerprint: groups[c.Group-1].Fingerprint}, nil
}

// errNoBulk refuses a bulk redrive command on a queue that cannot do it.
var errNoBulk = errors.New("this queue does not operate the dead-letter queue in bulk")

// bulk returns the queue as a BulkQueue, or nil.
func (r *Runner) bulk() BulkQueue {
	b, _ := r.q.(BulkQueue)
	return b
}

// lease returns the lease a command acts with: for attempt 0 the current
// lease of a RUNNING task, or one that the queue will refuse with the
// reason (unknown task, not running); for attempt N the lease handed out
// for attempt N since the task was submitted or last redriven, which the
// queue refuses if it is no longer current. It fails if no such lease was
// handed out.
func (r *Runner) lease(task string, attempt int) (core.Lease, error) {
	if attempt == 0 {
		if l, ok := r.q.Lease(task); ok {
			return l, nil
		}
		return core.Lease{Task: task}, nil
	}
	ls := r.leases[task]
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].Attempt == attempt {
			return ls[i], nil
		}
	}
	return core.Lease{}, fmt.Errorf("%s: no lease of attempt %d was handed out", task, attempt)
}

// Run runs every command of a script on a new queue (see [NewRunner]) and
// returns the trace. Refused operations are recorded and the run goes on.
// A failed expect stops the run: Run returns the trace up to and including
// that step with an [*ExpectError].
func Run(s *Script, opt Options) (*Trace, error) {
	r, err := NewRunner(s, opt)
	if err != nil {
		return nil, err
	}
	t := &Trace{Strategy: r.q.Config().Strategy, Attempts: r.q.Config().MaxAttempts}
	for _, c := range s.Commands {
		st := r.Exec(c)
		t.Steps = append(t.Steps, st)
		if c.Op == OpExpect && !st.OK {
			return t, &ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: st.State}
		}
	}
	return t, nil
}

// submits is how many submit commands s has: at most one task each.
func (s *Script) submits() int {
	n := 0
	for _, c := range s.Commands {
		if c.Op == OpSubmit {
			n++
		}
	}
	return n
}
