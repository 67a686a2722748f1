package queuetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/dagq/dagq/core"
)

// levelPair is a candidate's queue and dagq's, given the same operations
// and compared after each: what the operation returned (accepted or
// refused; the lease handed out or renewed, but for its ID), then the
// state of every name used so far and, from L5, the dead-letter queue.
type levelPair struct {
	level Level
	set   Settings

	cand      L4Queue
	cand5     L5Queue // nil below L5
	cand6     L6Queue // nil below L6
	candLease map[string][]core.Lease

	ref      *core.Queue
	refLease map[string][]core.Lease // since submit or the last redrive, as the scenario language keeps them
	redriven []string                // the tasks the last operation redrove

	names []string            // every name used, in order of first use
	deps  map[string][]string // accepted submits, for the generator
}

// errOpen is a candidate's queue that is nil or lacks its level's methods.
var errOpen = errors.New("queuetest: open")

// newLevelPair opens both queues under set.
func newLevelPair[Q L4Queue](level Level, set Settings, open func(Settings) Q) (*levelPair, error) {
	p := &levelPair{level: level, set: set, candLease: map[string][]core.Lease{},
		refLease: map[string][]core.Lease{}, deps: map[string][]string{}}
	q, err := callOpen(open, set)
	if err != nil {
		return nil, err
	}
	p.cand = q
	if level >= L5 {
		if p.cand5, _ = p.cand.(L5Queue); p.cand5 == nil {
			return nil, fmt.Errorf("%w: %T is not an L5Queue: L5 needs DeadLetters() []core.DeadLetter and Redrive(task string) error", errOpen, q)
		}
	}
	if level >= L6 {
		if p.cand6, _ = p.cand.(L6Queue); p.cand6 == nil {
			return nil, fmt.Errorf("%w: %T is not an L6Queue: L6 needs Heartbeat(core.Lease) (core.Lease, error), Advance(time.Duration) error and RedriveMatching(text string) error", errOpen, q)
		}
	}
	cfg := core.Config{MaxAttempts: set.MaxAttempts, LeaseTimeout: set.LeaseTimeout, Backoff: set.Backoff, OnEvent: p.record}
	if p.ref, err = core.New(cfg); err != nil {
		return nil, fmt.Errorf("queuetest: the reference: %v", err)
	}
	return p, nil
}

// callOpen calls open, a panic and a nil queue being errors.
func callOpen[Q L4Queue](open func(Settings) Q, set Settings) (q L4Queue, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: your open function panicked: %v", errOpen, v)
		}
	}()
	q = open(set)
	if q == nil || isNil(q) {
		return nil, fmt.Errorf("%w: your open function returned a nil queue", errOpen)
	}
	return q, nil
}

// isNil reports whether q holds a nil pointer, as an open function that
// returns (*Queue)(nil) does.
func isNil(q L4Queue) bool {
	v := reflect.ValueOf(q)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// record keeps the reference's leases, as the scenario language does
// (task@N names the latest lease of attempt N since the task's submit or
// last redrive), and the tasks an operation redrove.
func (p *levelPair) record(e core.Event) {
	switch e.Kind {
	case core.EventStarted:
		p.refLease[e.Task] = append(p.refLease[e.Task], core.Lease{Task: e.Task, ID: e.Lease, Attempt: e.Attempt, Deadline: e.Deadline})
	case core.EventHeartbeat:
		if ls := p.refLease[e.Task]; len(ls) > 0 && ls[len(ls)-1].ID == e.Lease {
			ls[len(ls)-1].Deadline = e.Deadline
		}
	case core.EventRedriven:
		p.refLease[e.Task] = p.refLease[e.Task][:0]
		p.redriven = append(p.redriven, e.Task)
	}
}

// use records names an operation uses.
func (p *levelPair) use(names ...string) {
	for _, n := range names {
		if !slices.Contains(p.names, n) {
			p.names = append(p.names, n)
		}
	}
}

// outcome is what one queue did with an operation.
type levelOutcome struct {
	err    error      // nil: accepted
	ok     bool       // next: a task was handed out
	lease  core.Lease // next, heartbeat
	panics string     // the candidate's queue panicked
}

// errInvalid is an operation that names a lease the reference never
// handed out: a shrunk sequence that has lost the hand-out it needs.
var errInvalid = errors.New("queuetest: no such lease")

// refLeaseOf is the lease the reference acts with, as the scenario
// language resolves task and task@N.
func (p *levelPair) refLeaseOf(o levelOp) (core.Lease, error) {
	if o.attempt == 0 {
		if l, ok := p.ref.Lease(o.task); ok {
			return l, nil
		}
		return core.Lease{Task: o.task}, nil
	}
	ls := p.refLease[o.task]
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].Attempt == o.attempt {
			return ls[i], nil
		}
	}
	return core.Lease{}, errInvalid
}

// candLeaseOf is the candidate's lease that corresponds to the
// reference's: the same hand-out, as the candidate's Next returned it and
// its Heartbeat renewed it.
func (p *levelPair) candLeaseOf(o levelOp) core.Lease {
	ls := p.candLease[o.task]
	if o.attempt == 0 {
		if st, _ := p.ref.Status(o.task); st == core.Running && len(ls) > 0 {
			return ls[len(ls)-1]
		}
		return core.Lease{Task: o.task}
	}
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].Attempt == o.attempt {
			return ls[i]
		}
	}
	return core.Lease{Task: o.task, Attempt: o.attempt}
}

// levelDiff is how the candidate's queue differs from dagq's after an
// operation: what each did, as sentences, and the names whose state
// differs.
type levelDiff struct {
	got, want []string
	names     []string // whose Status differs
}

func (d *levelDiff) add(got, want string) {
	d.got = append(d.got, got)
	d.want = append(d.want, want)
}

// step runs o on both queues and compares them; nil if they agree. An
// operation that names a lease the reference never handed out is
// errInvalid and runs on neither.
func (p *levelPair) step(o levelOp) (*levelDiff, error) {
	p.use(o.task)
	p.use(o.deps...)
	var cl core.Lease
	if o.kind == opHeartbeat || o.kind == opComplete || o.kind == opFail {
		cl = p.candLeaseOf(o) // before dagq's queue moves on
	}
	want, err := p.doRef(o)
	if err != nil {
		return nil, err
	}
	got := p.doCand(o, cl)
	d := &levelDiff{}
	p.compareOutcome(o, got, want, d)
	if got.panics == "" {
		p.compareState(d)
	}
	if len(d.got) == 0 {
		return nil, nil
	}
	return d, nil
}

func (p *levelPair) doRef(o levelOp) (levelOutcome, error) {
	var out levelOutcome
	p.redriven = p.redriven[:0]
	switch o.kind {
	case opSubmit:
		if out.err = p.ref.Submit(o.task, o.deps...); out.err == nil {
			p.deps[o.task] = slices.Clone(o.deps)
		}
	case opNext:
		out.lease, out.ok = p.ref.Next()
	case opHeartbeat, opComplete, opFail:
		l, err := p.refLeaseOf(o)
		if err != nil {
			return out, err
		}
		switch o.kind {
		case opHeartbeat:
			out.lease, out.err = p.ref.Heartbeat(l)
		case opComplete:
			out.err = p.ref.Complete(l)
		default:
			_, out.err = p.ref.Fail(l, failError(o))
		}
	case opRedrive:
		out.err = p.ref.Redrive(o.task)
	case opAdvance:
		out.err = p.ref.Advance(o.dur)
	case opRedriveMatching:
		_, out.err = p.ref.RedriveMatching(core.Selector{Contains: o.msg}, core.Rate{})
	}
	return out, nil
}

// failError is the error a fail operation passes.
func failError(o levelOp) error {
	err := errors.New(o.msg)
	if o.permanent {
		err = core.Permanent(err)
	}
	return err
}

// doCand runs o on the candidate's queue, presenting the lease l.
func (p *levelPair) doCand(o levelOp, l core.Lease) (out levelOutcome) {
	defer func() {
		if v := recover(); v != nil {
			out = levelOutcome{panics: fmt.Sprint(v)}
		}
	}()
	switch o.kind {
	case opSubmit:
		out.err = p.cand.Submit(o.task, o.deps...)
	case opNext:
		if out.lease, out.ok = p.cand.Next(); out.ok {
			p.candLease[out.lease.Task] = append(p.candLease[out.lease.Task], out.lease)
		}
	case opHeartbeat:
		if out.lease, out.err = p.cand6.Heartbeat(l); out.err == nil {
			if ls := p.candLease[o.task]; len(ls) > 0 {
				ls[len(ls)-1] = out.lease
			}
		}
	case opComplete:
		out.err = p.cand.Complete(l)
	case opFail:
		out.err = p.cand.Fail(l, failError(o))
	case opRedrive:
		out.err = p.cand5.Redrive(o.task)
	case opAdvance:
		out.err = p.cand6.Advance(o.dur)
	case opRedriveMatching:
		out.err = p.cand6.RedriveMatching(o.msg)
	}
	for _, t := range p.redriven {
		p.candLease[t] = p.candLease[t][:0]
	}
	return out
}

// sameLease reports whether the candidate's lease is the reference's as
// far as the level reads it: Task and Attempt, and from L6 Deadline.
func (p *levelPair) sameLease(a, b core.Lease) bool {
	return a.Task == b.Task && a.Attempt == b.Attempt && (p.level < L6 || a.Deadline == b.Deadline)
}

func (p *levelPair) sayLease(l core.Lease) string {
	s := fmt.Sprintf("%s (attempt %d", l.Task, l.Attempt)
	if p.level >= L6 {
		if l.Deadline > 0 {
			s += fmt.Sprintf(", deadline %v", l.Deadline)
		} else {
			s += ", no deadline"
		}
	}
	return s + ")"
}

func (p *levelPair) compareOutcome(o levelOp, got, want levelOutcome, d *levelDiff) {
	if got.panics != "" {
		d.add("it panicked: "+got.panics, sayAccepted(want.err))
		return
	}
	if o.kind == opNext {
		switch {
		case got.ok != want.ok && want.ok:
			d.add("it handed out nothing", "it hands out "+p.sayLease(want.lease))
		case got.ok != want.ok:
			d.add("it handed out "+p.sayLease(got.lease), "nothing is READY: it hands out nothing")
		case got.ok && !p.sameLease(got.lease, want.lease):
			d.add("it handed out "+p.sayLease(got.lease), "it hands out "+p.sayLease(want.lease))
		}
		return
	}
	if (got.err == nil) != (want.err == nil) {
		d.add(sayAccepted(got.err), sayAccepted(want.err))
		return
	}
	if o.kind == opHeartbeat && got.err == nil && !p.sameLease(got.lease, want.lease) {
		d.add("it renewed the lease to "+p.sayLease(got.lease), "it renews it to "+p.sayLease(want.lease))
	}
}

func sayAccepted(err error) string {
	if err == nil {
		return "accepted"
	}
	return "refused: " + err.Error()
}

// seen is what the level reads of a state: at L4 BLOCKED is PENDING.
func (p *levelPair) seen(s core.State) core.State {
	if p.level < L5 && s == core.Blocked {
		return core.Pending
	}
	return s
}

func sayState(s core.State, ok bool) string {
	if !ok {
		return "not submitted"
	}
	if s == "" {
		return `"" (no state)`
	}
	return string(s)
}

// compareState compares the state of every name used and, from L5, the
// dead-letter queue.
func (p *levelPair) compareState(d *levelDiff) {
	for _, n := range p.names {
		ws, wok := p.ref.Status(n)
		gs, gok := p.cand.Status(n)
		if gok != wok || p.seen(gs) != p.seen(ws) {
			d.add(fmt.Sprintf("Status(%q) = %s", n, sayState(gs, gok)), fmt.Sprintf("%s is %s", n, sayState(ws, wok)))
			d.names = append(d.names, n)
		}
	}
	if p.level < L5 {
		return
	}
	got, want := p.cand5.DeadLetters(), p.ref.DeadLetters()
	if g, w := p.sayDLQ(got), p.sayDLQ(want); g != w {
		d.add("DeadLetters() = "+g, "the dead-letter queue is "+w)
	}
}

// sayDLQ writes the entries as the level reads them: "[a DEAD] [b BLOCKED
// by a]", from L6 with a DEAD entry's error: "[a DEAD: HTTP 503]".
func (p *levelPair) sayDLQ(dlq []core.DeadLetter) string {
	if len(dlq) == 0 {
		return "empty"
	}
	var b strings.Builder
	for i, e := range dlq {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("[" + e.Task + " " + string(e.State))
		switch {
		case e.State == core.Blocked:
			b.WriteString(" by " + e.Root)
		case e.State == core.Dead && p.level >= L6:
			b.WriteString(": " + e.Error)
		}
		b.WriteByte(']')
	}
	return b.String()
}
