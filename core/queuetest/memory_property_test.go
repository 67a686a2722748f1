package queuetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// core's own property tests: random operation sequences on the in-memory
// queue, *core.Queue, driven directly, with every operation it has (those
// the Queue interface lacks included: SubmitBatch, RedriveMatching at once
// and at a rate, CancelRedrive, ForceRedrive, and the growth alert) and
// held after every operation to the suite's model: its predictions of each
// operation (expect, verify), its fold of the events and its reads against
// the invariants of core's package documentation (model.check). Besides,
// what only the in-memory queue shows is compared with the model (Tasks,
// every task's Info, Lease, NextTimer, Stats), a second queue given the same
// operations but no OnEvent must agree, a refused submit or batch is
// refused again the same way, and every event's Op is exactly the number
// of operations called so far.
//
// A failing sequence is shrunk and printed as a scenario with the command
// that reruns it (-queuetest.seed=N).

// TestMemoryRandomSequences runs seeded random sequences over small pools
// of names (so that forward references, cycles and diamonds are common),
// one in two hundred a long churn of failures and redrives.
func TestMemoryRandomSequences(t *testing.T) {
	runMemory(t, memRandom, 10000, 1000, 4)
}

// TestMemoryAutoRedrive runs random sequences on a queue whose OnEvent acts
// on the queue: it redrives every task that dies, at most K times per task
// (K from 1 to 3, so that some tasks stay dead and keep others blocked).
// Each redrive the callback makes is checked as a redrive is; every event,
// of the operation or of the callback's redrives, must arrive once what
// came before it has finished (Status of its task, read from inside
// OnEvent, is the model's after those operations), and OnEvent is never
// entered again while it runs. A callback that redrives a task while the
// operation that killed it is half done would release nothing and leave
// the tasks blocked afterwards naming a root that is READY.
func TestMemoryAutoRedrive(t *testing.T) {
	runMemory(t, memAutoRedrive, 2000, 500, 2)
}

// TestMemoryDeadLetterOps runs sequences where the dead-letter queue is
// busy: one attempt, tasks failing often, the poison-pill cap and the
// alert set at random, and bulk redrives (often of the biggest group, at a
// rate of one or two a period), previews, cancels and forced redrives
// among the other operations.
func TestMemoryDeadLetterOps(t *testing.T) {
	runMemory(t, memDeadLetterOps, 400, 100, 1)
}

// memMode is which of the memory tests a sequence belongs to.
type memMode uint8

const (
	memRandom memMode = iota
	memAutoRedrive
	memDeadLetterOps
)

var memTests = [...]string{memRandom: "TestMemoryRandomSequences", memAutoRedrive: "TestMemoryAutoRedrive",
	memDeadLetterOps: "TestMemoryDeadLetterOps"}

// runMemory runs n sequences of mode (short with -short; as many as
// -queuetest.sequences says if set), spread over workers, or the one of
// -queuetest.seed.
func runMemory(t *testing.T, mode memMode, n, short, workers int) {
	seed, err := replaySeed()
	if err != nil {
		t.Fatal(err)
	}
	if seed != 0 {
		if err := runMemorySeed(seed, mode); err != nil {
			t.Fatal(err)
		}
		return
	}
	if testing.Short() {
		n = short
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	first := 0
	if mode == memDeadLetterOps {
		first = 1_000_000
	}
	for w := range workers {
		t.Run(fmt.Sprintf("Worker%d", w), func(t *testing.T) {
			t.Parallel()
			for i := w; i < n; i += workers {
				if err := runMemorySeed(sequenceSeed(first+i), mode); err != nil {
					t.Fatalf("sequence %d: %v", i, err)
				}
			}
		})
	}
}

// memConfig is what a memory sequence runs against.
type memConfig struct {
	core.Config
	autoRedrive int  // OnEvent redrives a task that dies, at most this many times
	dlqOps      bool // the generator makes bulk redrives, cancels and forced redrives
}

// runMemorySeed generates and runs the sequence of one seed of mode. On
// failure it shrinks the sequence and returns an error describing both,
// with how to rerun it.
func runMemorySeed(seed uint64, mode memMode) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cfg := memConfig{Config: randomConfig(r)}
	if r.IntN(3) == 0 {
		cfg.Alert = core.Alert{Entries: 1 + r.IntN(4), Window: []time.Duration{time.Second, 5 * time.Second, 30 * time.Second}[r.IntN(3)]}
	}
	cfg.dlqOps = r.IntN(2) == 0
	pool := poolNames(4 + r.IntN(9))
	length := 5 + r.IntN(60)
	churn := r.IntN(200) == 0
	switch mode {
	case memAutoRedrive:
		cfg.MaxAttempts = 1 + r.IntN(2) // deaths are common
		cfg.autoRedrive = 1 + r.IntN(3)
	case memDeadLetterOps:
		cfg.MaxAttempts, cfg.dlqOps, churn = 1, true, true
		pool, length = poolNames(8+r.IntN(9)), 100+r.IntN(200)
	}
	if churn && mode != memDeadLetterOps {
		// A long sequence over more names where tasks mostly fail and are
		// redriven: the READY line and the dead-letter queue stay long and
		// see thousands of entries come and go.
		pool, length = poolNames(12+r.IntN(13)), 500+r.IntN(1000)
	}
	h, err := newMemHarness(cfg)
	if err != nil {
		return err
	}
	g := &memGen{generator: generator{r: r, m: h.m, nextTimer: h.q.NextTimer, pool: pool}, churn: churn, dlqOps: cfg.dlqOps}
	var ops []op
	for range length {
		o := g.next()
		ops = append(ops, o)
		if err := h.safeApply(o); err != nil {
			return memFailure(cfg, ops, err, fmt.Sprintf("go test ./core/queuetest -run '^%s$' -queuetest.seed=%d", memTests[mode], seed))
		}
	}
	return nil
}

// memFailure shrinks a failing sequence and describes it.
func memFailure(cfg memConfig, ops []op, err error, rerun string) error {
	deadline := time.Now().Add(time.Minute)
	small := shrinkOps(ops, func(cand []op) bool {
		return time.Now().Before(deadline) && memReplay(cfg, cand) != nil
	})
	s := script(cfg.Config, small)
	if cfg.autoRedrive > 0 {
		s = fmt.Sprintf("\t# OnEvent redrives every task that dies, at most %d times per task\n", cfg.autoRedrive) + s
	}
	return fmt.Errorf("failed at operation %d (%s): %v\n"+
		"a shorter sequence, %d operations, fails with: %v\n%s"+
		"rerun: %s",
		len(ops), ops[len(ops)-1], err, len(small), orNil(memReplay(cfg, small)), s, rerun)
}

// memReplay runs ops on a fresh harness and returns the first failure.
func memReplay(cfg memConfig, ops []op) error {
	h, err := newMemHarness(cfg)
	if err != nil {
		return err
	}
	return runOps(ops, h.safeApply)
}

// ---- the generator ----

// memGen is the suite's generator with the operations only *core.Queue
// has: batches, and with dlqOps bulk redrives, cancels and forced
// redrives; churning, mostly hand-outs, failures and redrives.
type memGen struct {
	generator
	churn, dlqOps bool
}

func (g *memGen) next() op {
	r, m := g.r, g.m
	if g.dlqOps {
		switch dead := m.inState(core.Dead); {
		case m.x.job != nil && r.IntN(8) == 0:
			return op{kind: opCancel}
		case len(dead) >= 2 && r.IntN(3) == 0:
			return g.bulk()
		case r.IntN(20) == 0:
			return op{kind: opForce, task: g.deadOrAny()}
		}
	}
	if g.churn && r.IntN(4) != 0 {
		switch n := r.IntN(100); {
		case n < 40:
			return op{kind: opNext}
		case n < 78:
			return op{kind: opFail, task: g.leaseTask(), lease: g.leaseRef(),
				permanent: r.IntN(4) == 0, msg: failMessages[r.IntN(len(failMessages))]}
		default:
			return op{kind: opRedrive, task: g.deadOrAny()}
		}
	}
	if r.IntN(14) == 0 {
		return g.batch()
	}
	return g.generator.next()
}

// deadOrAny is a DEAD task seven times in ten, if there is one.
func (g *memGen) deadOrAny() string {
	if dead := g.m.inState(core.Dead); len(dead) > 0 && g.r.IntN(10) < 7 {
		return dead[g.r.IntN(len(dead))]
	}
	return g.any()
}

// batch makes a SubmitBatch of 1 to 5 tasks, mostly new, often waiting on
// a task later in the batch (a forward reference), and sometimes refused:
// a cycle inside the batch, or through tasks already waiting on one of its
// tasks, a self-dependency, a name twice or one already submitted, the
// empty name.
func (g *memGen) batch() op {
	r, m := g.r, g.m
	fresh := slices.DeleteFunc(slices.Clone(g.pool), m.isTask)
	r.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	tasks := make([]core.Task, 1+r.IntN(min(5, max(1, len(fresh)))))
	for i := range tasks {
		name := g.any()
		switch n := r.IntN(100); {
		case n < 6 && i > 0:
			name = tasks[r.IntN(i)].Name
		case n < 7:
			name = ""
		case n < 90 && len(fresh) > 0:
			name, fresh = fresh[0], fresh[1:]
		}
		tasks[i].Name = name
	}
	for i := range tasks {
		t := tasks[i].Name
		waiters := m.waitersOf(t)
		var deps []string
		for range r.IntN(4) {
			d := g.any()
			switch n := r.IntN(100); {
			case n < 40 && i+1 < len(tasks):
				d = tasks[i+1+r.IntN(len(tasks)-i-1)].Name // forward
			case n < 48 && i > 0:
				d = tasks[r.IntN(i)].Name // with a forward one, a cycle
			case n < 50:
				d = t
			case n < 55 && len(waiters) > 0:
				d = waiters[r.IntN(len(waiters))] // closes a cycle
			case n < 56:
				d = ""
			case n < 60 && len(deps) > 0:
				d = deps[r.IntN(len(deps))]
			}
			deps = append(deps, d)
		}
		tasks[i].Deps = deps
	}
	return op{kind: opBatch, batch: tasks}
}

// bulk makes a bulk redrive: by text or by the fingerprint of a DEAD
// task's error (often the biggest group, so that it has several roots),
// at once or at a rate, now and then with an invalid selector or rate.
func (g *memGen) bulk() op {
	r, m := g.r, g.m
	o := op{kind: opBulk}
	var dead []string
	for _, t := range m.dlq {
		if m.state[t] == core.Dead {
			dead = append(dead, t)
		}
	}
	switch n := r.IntN(20); {
	case n == 0:
	case n == 1:
		o.sel = core.Selector{Fingerprint: "boom", Contains: "boom"}
	case n < 8:
		o.sel.Fingerprint = "HTTP 503"
		if len(dead) > 0 {
			o.sel.Fingerprint = core.Fingerprint(m.x.errText[dead[r.IntN(len(dead))]])
		}
	case n < 14:
		count, most := map[string]int{}, 0
		for _, t := range dead {
			if fp := core.Fingerprint(m.x.errText[t]); !m.poisoned[t] {
				if count[fp]++; count[fp] > most {
					most, o.sel.Fingerprint = count[fp], fp
				}
			}
		}
		if most == 0 {
			o.sel.Fingerprint = "boom"
		}
	default:
		o.sel.Contains = []string{"HTTP", "503", "boom", "timeout", "lease", "nothing like it", "o", "e", "t"}[r.IntN(9)]
	}
	switch n := r.IntN(20); {
	case n == 0:
		o.rate = core.Rate{N: 0, Per: time.Second}
	case n < 10:
	default:
		o.rate = core.Rate{N: 1 + r.IntN(2), Per: []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}[r.IntN(3)]}
	}
	return o
}

// ---- the harness ----

// memHarness runs operations on a *core.Queue and holds it to the model.
type memHarness struct {
	cfg      memConfig
	q, quiet *core.Queue // quiet: the same operations, with no OnEvent
	m        *model
	events   []core.Event // delivered, not taken yet
	probes   []memProbe   // per event delivered in this apply
	calls    uint64       // operations called on q, the callback's included

	lastCycle *op // the last submit refused for a cycle, for FuzzMemoryOps

	// OnEvent's own checks and, with autoRedrive, the redrives it makes.
	redriven    map[string]int      // auto-redrives so far, per task
	nested      []memRedrive        // the callback's redrives, in call order
	delivering  bool                // inside OnEvent
	callbackErr error               // the first thing OnEvent found wrong
	preview     core.RedrivePreview // of the bulk redrive being applied
	job         core.RedriveJob     // what it returned
}

// memProbe is what OnEvent read of an event's task as it was delivered,
// and how many redrives the callback had made by then.
type memProbe struct {
	task   string
	state  core.State
	nested int
}

// memRedrive is a Redrive the callback called, and what it returned.
type memRedrive struct {
	task string
	err  error
}

func newMemHarness(cfg memConfig) (*memHarness, error) {
	h := &memHarness{cfg: cfg, m: newModel(cfg.Config), redriven: map[string]int{}}
	c := cfg.Config
	c.OnEvent = h.deliver
	q, err := core.New(c)
	if err != nil {
		return nil, fmt.Errorf("core.New(%+v): %v", c, err)
	}
	h.q = q
	c.OnEvent = nil
	if h.quiet, err = core.New(c); err != nil {
		return nil, fmt.Errorf("core.New without OnEvent: %v", err)
	}
	if len(h.events) != 0 {
		return nil, fmt.Errorf("core.New delivered events %s", eventList(h.events))
	}
	if err := h.compare(); err != nil {
		return nil, fmt.Errorf("an empty queue: %v", err)
	}
	return h, nil
}

// deliver is the queue's OnEvent. It keeps the event and what Status says
// of its task, from inside the callback; with autoRedrive it acts on the
// queue, as an operator's automation would: it redrives a task that died,
// unless it did so autoRedrive times already.
func (h *memHarness) deliver(e core.Event) {
	h.events = append(h.events, e)
	p := memProbe{task: e.Task, nested: len(h.nested)}
	if e.Task != "" {
		p.state, _ = h.q.Status(e.Task)
	}
	h.probes = append(h.probes, p)
	if h.callbackErr != nil {
		return
	}
	if h.delivering {
		h.callbackErr = fmt.Errorf("OnEvent(%s) was called while OnEvent was running", e)
		return
	}
	h.delivering = true
	defer func() { h.delivering = false }()
	if e.Kind == core.EventDead && h.redriven[e.Task] < h.cfg.autoRedrive {
		h.redriven[e.Task]++
		err := h.q.Redrive(e.Task)
		h.nested = append(h.nested, memRedrive{task: e.Task, err: err})
	}
}

// safeApply is apply with a panic of the queue turned into an error.
func (h *memHarness) safeApply(o op) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return h.apply(o)
}

// apply runs one operation on both queues and checks it: its outcome and
// events against the model's prediction (a refused one changing nothing,
// a refused submit or batch refused again the same way), the callback's
// redrives after it, each as a redrive, every event delivered once what
// came before it had finished, and then the queue against the model.
func (h *memHarness) apply(o op) error {
	m := h.m
	m.use(o.task)
	m.use(o.deps...)
	h.probes = h.probes[:0]
	w := m.expect(o)
	var before memView
	if w.mayRefuse() || !w.accept {
		before = h.view(h.q)
	}
	if o.kind == opBulk && !w.mem.invalid {
		if err := h.checkPreview(o, w); err != nil {
			return err
		}
	}
	out, err := h.do(o)
	if err != nil {
		return err
	}
	if err := m.verify(o, w, out); err != nil {
		return err
	}
	if err := h.checkProbes(0); err != nil {
		return fmt.Errorf("%s: %v", o, err)
	}
	if refused := out.err != nil || o.kind == opNext && !out.ok; refused {
		if d := before.diff(h.view(h.q)); d != "" {
			return fmt.Errorf("invariant 5: %s refused with %v, but the queue changed: %s", o, out.err, d)
		}
		if err := h.refusedAgain(o, out.err); err != nil {
			return err
		}
	}
	if o.kind == opBulk && out.err == nil {
		if err := h.checkJob(o, w, out); err != nil {
			return err
		}
	}
	// The callback's redrives ran after the operation, in the order it
	// called them; each is checked as a redrive is.
	for k, c := range h.nested {
		r := op{kind: opRedrive, task: c.task}
		w := m.expect(r)
		if qerr := h.quiet.Redrive(c.task); orNil(qerr) != orNil(c.err) {
			return fmt.Errorf("OnEvent's %s = %v, but %v without OnEvent", r, c.err, qerr)
		}
		evs, err := h.take()
		if err != nil {
			return fmt.Errorf("OnEvent's %s: %v", r, err)
		}
		if err := m.verify(r, w, outcome{err: c.err, events: evs}); err != nil {
			return fmt.Errorf("OnEvent's %v", err)
		}
		if err := h.checkProbes(k + 1); err != nil {
			return fmt.Errorf("OnEvent's %s: %v", r, err)
		}
	}
	h.nested = h.nested[:0]
	if len(h.events) > 0 {
		return fmt.Errorf("events of no operation called: %s", eventList(h.events))
	}
	return h.compare()
}

// do runs o on q and on quiet, which must return the same, and returns what
// q returned and delivered.
func (h *memHarness) do(o op) (outcome, error) {
	var out outcome
	var qout outcome
	m := h.m
	switch o.kind {
	case opSubmit:
		out.err, qout.err = h.q.Submit(o.task, o.deps...), h.quiet.Submit(o.task, o.deps...)
		if errors.Is(out.err, core.ErrCycle) {
			h.lastCycle = &op{kind: opSubmit, task: o.task, deps: slices.Clone(o.deps)}
		}
	case opBatch:
		out.err, qout.err = h.q.SubmitBatch(o.batch), h.quiet.SubmitBatch(o.batch)
	case opNext:
		out.lease, out.ok = h.q.Next()
		qout.lease, qout.ok = h.quiet.Next()
	case opHeartbeat:
		l := m.lease(o.task, o.lease)
		out.lease, out.err = h.q.Heartbeat(l)
		qout.lease, qout.err = h.quiet.Heartbeat(l)
		if out.err != nil && out.lease != (core.Lease{}) {
			return out, fmt.Errorf("%s refused with %v, but returned %+v", o, out.err, out.lease)
		}
	case opComplete:
		l := m.lease(o.task, o.lease)
		out.err, qout.err = h.q.Complete(l), h.quiet.Complete(l)
	case opFail:
		l := m.lease(o.task, o.lease)
		err := errors.New(o.msg)
		if o.permanent {
			err = core.Permanent(err)
		}
		out.state, out.err = h.q.Fail(l, err)
		qout.state, qout.err = h.quiet.Fail(l, err)
	case opRedrive:
		out.err, qout.err = h.q.Redrive(o.task), h.quiet.Redrive(o.task)
	case opForce:
		out.err, qout.err = h.q.ForceRedrive(o.task), h.quiet.ForceRedrive(o.task)
	case opAdvance:
		out.err, qout.err = h.q.Advance(o.dur), h.quiet.Advance(o.dur)
	case opBulk:
		var qjob core.RedriveJob
		h.job, out.err = h.q.RedriveMatching(o.sel, o.rate)
		qjob, qout.err = h.quiet.RedriveMatching(o.sel, o.rate)
		if !reflect.DeepEqual(h.job, qjob) {
			return out, fmt.Errorf("%s = %+v, but %+v without OnEvent", o, h.job, qjob)
		}
	case opCancel:
		out.err, qout.err = h.q.CancelRedrive(), h.quiet.CancelRedrive()
	default:
		return out, fmt.Errorf("unknown op kind %d", o.kind)
	}
	if orNil(out.err) != orNil(qout.err) || !out.lease.Equal(qout.lease) || out.ok != qout.ok || out.state != qout.state {
		return out, fmt.Errorf("%s = %+v, %v, %s, %v, but %+v, %v, %s, %v without OnEvent",
			o, out.lease, out.ok, out.state, orNil(out.err), qout.lease, qout.ok, qout.state, orNil(qout.err))
	}
	var err error
	out.events, err = h.take()
	if err != nil {
		return out, fmt.Errorf("%s: %v", o, err)
	}
	return out, nil
}

// take returns the events of the operation just called on q: every call,
// the callback's included, is followed by one take, in the order of the
// calls. Each event carries Op, the number of operations called so far
// (refused ones included); the events of the callback's redrives come
// after, with the Ops that follow, left for their own take.
func (h *memHarness) take() ([]core.Event, error) {
	h.calls++
	if h.callbackErr != nil {
		return nil, fmt.Errorf("OnEvent: %v (events: %s)", h.callbackErr, eventList(h.events))
	}
	n := 0
	for n < len(h.events) && h.events[n].Op == h.calls {
		n++
	}
	for _, e := range h.events[n:] {
		if e.Op <= h.calls || e.Op > h.calls+uint64(len(h.nested)) {
			return nil, fmt.Errorf("event %q carries Op %d, want %d: it is operation %d, and OnEvent called %d more after it (events: %s)",
				e, e.Op, h.calls, h.calls, len(h.nested), eventList(h.events))
		}
	}
	evs := slices.Clone(h.events[:n])
	h.events = slices.Delete(h.events, 0, n)
	return evs, nil
}

// checkProbes checks the events delivered after the operation and k of the
// callback's redrives had finished: what Status said of each event's task
// from inside OnEvent is the model's state after them.
func (h *memHarness) checkProbes(k int) error {
	for _, p := range h.probes {
		if p.nested == k && p.task != "" && p.state != h.m.state[p.task] {
			return fmt.Errorf("while an event of %q was delivered, Status said %s, but the operations before it leave it %s: "+
				"an event must arrive once its operation has finished", p.task, orNone(p.state), orNone(h.m.state[p.task]))
		}
	}
	return nil
}

// refusedAgain checks invariant 5 once more for a refused submit or batch:
// the same call is refused again with the same error and changes nothing;
// and a refused submit but for a cycle says which task with a
// *core.TaskError.
func (h *memHarness) refusedAgain(o op, err error) error {
	if o.kind != opSubmit && o.kind != opBatch {
		return nil
	}
	var te *core.TaskError
	if o.kind == opSubmit && !errors.Is(err, core.ErrCycle) && (!errors.As(err, &te) || errors.Is(err, core.ErrDuplicate) && te.Task != o.task) {
		return fmt.Errorf("%s = %v (%T), want a *core.TaskError naming the task", o, err, err)
	}
	before := h.view(h.q)
	w := h.m.expect(o)
	out, derr := h.do(o)
	if derr != nil {
		return fmt.Errorf("again: %v", derr)
	}
	if orNil(out.err) != orNil(err) {
		return fmt.Errorf("invariant 5: %s = %v, then again = %v", o, err, out.err)
	}
	if verr := h.m.verify(o, w, out); verr != nil {
		return fmt.Errorf("invariant 5: again: %v", verr)
	}
	if d := before.diff(h.view(h.q)); d != "" {
		return fmt.Errorf("invariant 5: %s refused again, but the queue changed: %s", o, d)
	}
	return nil
}

// checkPreview checks PreviewRedrive before a bulk redrive: the roots and
// the poisoned tasks skipped are the model's, and it changes nothing.
func (h *memHarness) checkPreview(o op, w expectation) error {
	before := h.view(h.q)
	h.preview = h.q.PreviewRedrive(o.sel)
	var roots []string
	for _, r := range h.preview.Roots {
		roots = append(roots, r.Task)
	}
	if !slices.Equal(roots, w.mem.roots) || !slices.Equal(h.preview.Skipped, w.mem.poisoned) {
		return fmt.Errorf("%s: PreviewRedrive says %q skipping %q, the model %q skipping %q", o, roots, h.preview.Skipped, w.mem.roots, w.mem.poisoned)
	}
	if d := before.diff(h.view(h.q)); d != "" {
		return fmt.Errorf("%s: the preview changed the queue: %s", o, d)
	}
	return nil
}

// checkJob checks what an accepted bulk redrive returned, and for one at
// once, that its events are what the preview said.
func (h *memHarness) checkJob(o op, w expectation, out outcome) error {
	done := 0
	if j := h.m.x.job; j != nil {
		done = j.done
	} else {
		for _, e := range out.events {
			if e.Kind == core.EventRedriven {
				done++
			}
		}
	}
	if j := h.job; !slices.Equal(j.Tasks, w.mem.roots) || j.Done != done || j.Finished != (h.m.x.job == nil) {
		return fmt.Errorf("%s returned %+v, want %q, %d done, finished %v", o, j, w.mem.roots, done, h.m.x.job == nil)
	}
	if o.rate == (core.Rate{}) {
		if err := previewMatches(h.preview, out.events); err != nil {
			return fmt.Errorf("%s: the preview is not what it did: %v (events: %s)", o, err, eventList(out.events))
		}
	}
	return nil
}

// previewMatches checks a bulk redrive at once against its preview: as
// many tasks released and left BLOCKED under another root as it listed
// and counted (the tasks themselves the model checked; core's
// TestPreviewEqualsRedrive checks the lists).
func previewMatches(p core.RedrivePreview, evs []core.Event) error {
	listed := map[core.EventKind]int{}
	for _, r := range p.Roots {
		listed[core.EventUnblocked] += len(r.Release)
		listed[core.EventRerooted] += len(r.Stay)
	}
	done := map[core.EventKind]int{}
	for _, e := range evs {
		done[e.Kind]++
	}
	if done[core.EventUnblocked] != listed[core.EventUnblocked] || done[core.EventRerooted] != listed[core.EventRerooted] ||
		p.Released != listed[core.EventUnblocked] || p.Blocked != listed[core.EventRerooted] {
		return fmt.Errorf("released %d and rerooted %d; the preview lists %d and %d, counts %d and %d",
			done[core.EventUnblocked], done[core.EventRerooted], listed[core.EventUnblocked], listed[core.EventRerooted], p.Released, p.Blocked)
	}
	return nil
}

// compare holds the queue to the model: the reads of the Queue interface
// and the invariants (model.check), then what only *core.Queue shows:
// Tasks, every task's deps, attempts, lease (its id included) and timer,
// NextTimer, Len, Config and Stats; the alert events all placed; and the
// queue without OnEvent showing the same.
func (h *memHarness) compare() error {
	m, q := h.m, h.q
	if err := m.check(Memory(q)); err != nil {
		return err
	}
	if got := q.Tasks(); !slices.Equal(got, m.tasks) && len(got)+len(m.tasks) > 0 {
		return fmt.Errorf("Tasks() = %q, want %q", got, m.tasks)
	}
	for _, n := range m.names {
		info, _ := q.Info(n)
		if !slices.Equal(info.Deps, m.deps[n]) {
			return fmt.Errorf("Info(%q).Deps = %q, want %q", n, info.Deps, m.deps[n])
		}
		if info.Attempts != m.attempts[n] {
			return fmt.Errorf("Info(%q).Attempts = %d, want %d", n, info.Attempts, m.attempts[n])
		}
		if x, ok := m.timers[n]; info.Timer != x.at || ok != (info.Timer != 0) {
			return fmt.Errorf("Info(%q).Timer = %v, want %v (%v; task %s)", n, info.Timer, x.at, ok, orNone(m.state[n]))
		}
		l, ok := q.Lease(n)
		cur, running := m.current[n]
		if ok != running || !l.Equal(cur) {
			return fmt.Errorf("Lease(%q) = %+v, %v, want %+v, %v", n, l, ok, cur, running)
		}
	}
	for _, d := range q.DeadLetters() {
		if d.Entered != m.x.entered[d.Task] || d.State == core.Blocked && d.Root != m.x.roots[d.Task] {
			return fmt.Errorf("DeadLetters lists %+v, but the events say it entered at %v, root %q", d, m.x.entered[d.Task], m.x.roots[d.Task])
		}
	}
	at, ok := q.NextTimer()
	if _, x, wok := m.firstTimer(); ok != wok || at != x.at {
		return fmt.Errorf("NextTimer() = %v, %v, want %v, %v", at, ok, x.at, wok)
	}
	if got := q.Len(); got != len(m.tasks) {
		return fmt.Errorf("Len() = %d, want %d", got, len(m.tasks))
	}
	strategy := h.cfg.Strategy
	if strategy == "" {
		strategy = incremental.Default
	}
	if c := q.Config(); c.Strategy != strategy || c.MaxAttempts != h.cfg.MaxAttempts {
		return fmt.Errorf("Config() = %+v, want strategy %q and %d attempts", c, strategy, h.cfg.MaxAttempts)
	}
	if x := m.x; x.expectAlert || len(x.alerts) > 0 {
		return fmt.Errorf("alert events no entry raised: %+v", x.alerts)
	}
	st := q.Stats()
	if st.Alerting != m.x.alertOn {
		return fmt.Errorf("Stats().Alerting = %v, the events say %v", st.Alerting, m.x.alertOn)
	}
	if j := m.x.job; (st.Redrive != nil) != (j != nil) {
		return fmt.Errorf("Stats().Redrive = %+v, the model has %+v", st.Redrive, j)
	} else if j != nil {
		if r := st.Redrive; !slices.Equal(r.Tasks, j.tasks) || r.Done != j.done || r.Selector != j.sel || r.Rate != j.rate {
			return fmt.Errorf("Stats().Redrive = %+v, the model has %+v", *r, *j)
		}
	}
	if d := h.view(q).diff(h.view(h.quiet)); d != "" {
		return fmt.Errorf("a queue without OnEvent differs after the same operations: %s", d)
	}
	return nil
}

// memView is what *core.Queue shows, to check that a refused operation
// changes nothing and that two queues agree.
type memView struct {
	tasks, ready []string
	dlq          []core.DeadLetter
	now, next    time.Duration
	infos        []string // per name any operation used
	alerting     bool
	job          string
}

func (h *memHarness) view(q *core.Queue) memView {
	v := memView{tasks: q.Tasks(), ready: q.ReadyTasks(), dlq: q.DeadLetters(), now: q.Now(), next: -1}
	if at, ok := q.NextTimer(); ok {
		v.next = at
	}
	for _, n := range h.m.names {
		info, ok := q.Info(n)
		dl := info.DeadLetter
		info.DeadLetter = nil
		s := fmt.Sprintf("%s:%v:%+v", n, ok, info)
		if dl != nil {
			s += fmt.Sprintf(" %+v", *dl)
		}
		l, lok := q.Lease(n)
		v.infos = append(v.infos, s+fmt.Sprintf(" lease %+v %v", l, lok))
	}
	st := q.Stats()
	v.alerting = st.Alerting
	if st.Redrive != nil {
		v.job = fmt.Sprintf("%+v", *st.Redrive)
	}
	return v
}

// diff describes how b differs from a, or returns "".
func (a memView) diff(b memView) string {
	var d []string
	if !slices.Equal(a.tasks, b.tasks) {
		d = append(d, fmt.Sprintf("Tasks %q → %q", a.tasks, b.tasks))
	}
	if !slices.Equal(a.ready, b.ready) {
		d = append(d, fmt.Sprintf("ReadyTasks %q → %q", a.ready, b.ready))
	}
	if !reflect.DeepEqual(a.dlq, b.dlq) && len(a.dlq)+len(b.dlq) > 0 {
		d = append(d, fmt.Sprintf("DeadLetters %+v → %+v", a.dlq, b.dlq))
	}
	if a.now != b.now || a.next != b.next {
		d = append(d, fmt.Sprintf("Now, NextTimer %v, %v → %v, %v", a.now, a.next, b.now, b.next))
	}
	for i := range min(len(a.infos), len(b.infos)) {
		if a.infos[i] != b.infos[i] {
			d = append(d, a.infos[i]+" → "+b.infos[i])
		}
	}
	if a.alerting != b.alerting || a.job != b.job {
		d = append(d, fmt.Sprintf("alerting %v, redrive %s → %v, %s", a.alerting, a.job, b.alerting, b.job))
	}
	return strings.Join(d, "; ")
}
