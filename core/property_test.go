package core

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/incremental"
)

var (
	seedFlag = flag.Uint64("seed", 0,
		"run only the random operation sequence with this seed, as printed by a failing TestPropertyRandomSequences")
	sequencesFlag = flag.Int("sequences", 0,
		"number of random operation sequences TestPropertyRandomSequences runs (default 10000, 1000 with -short)")
)

// propertyBaseSeed is the fixed seed every sequence seed derives from.
const propertyBaseSeed = 0x6461_6771 // "dagq"

// TestPropertyRandomSequences drives the Queue through random operation
// sequences over small pools of names (so that forward references, cycles
// and diamonds are common) and checks, after every operation, the invariants
// of the package documentation against the queue's public API and against a model folded
// from its events: see harness.apply.
//
// A failing sequence is shrunk to a minimal one, printed as a scenario, with
// the seed that reruns it.
func TestPropertyRandomSequences(t *testing.T) {
	if *seedFlag != 0 {
		if err := runSeed(*seedFlag, false); err != nil {
			t.Fatal(err)
		}
		return
	}
	n := 10000
	if testing.Short() {
		n = 1000
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	const workers = 4
	for w := range workers {
		t.Run(fmt.Sprintf("Worker%d", w), func(t *testing.T) {
			t.Parallel()
			for i := w; i < n; i += workers {
				if err := runSeed(sequenceSeed(i), false); err != nil {
					t.Fatalf("sequence %d: %v", i, err)
				}
			}
		})
	}
}

// TestPropertyAutoRedrive runs random operation sequences, as
// TestPropertyRandomSequences does, on a queue whose OnEvent acts on the
// queue: it redrives every task that dies, at most K times per task (K from
// 1 to 3, so that some tasks stay dead and keep others blocked). Besides
// the checks of every operation, including each redrive the callback makes,
// it checks that every event arrives when the queue is consistent (the
// invariants hold) and that OnEvent is never entered again while it runs.
//
// A callback that redrives a task while the operation that killed it is
// half done would release nothing and leave the tasks blocked afterwards
// naming a root that is READY.
func TestPropertyAutoRedrive(t *testing.T) {
	if *seedFlag != 0 {
		if err := runSeed(*seedFlag, true); err != nil {
			t.Fatal(err)
		}
		return
	}
	n := 2000
	if testing.Short() {
		n = 500
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	const workers = 2
	for w := range workers {
		t.Run(fmt.Sprintf("Worker%d", w), func(t *testing.T) {
			t.Parallel()
			for i := w; i < n; i += workers {
				if err := runSeed(sequenceSeed(i), true); err != nil {
					t.Fatalf("sequence %d: %v", i, err)
				}
			}
		})
	}
}

// sequenceSeed derives the seed of the i-th sequence from the base seed.
func sequenceSeed(i int) uint64 {
	s := rand.New(rand.NewPCG(propertyBaseSeed, uint64(i))).Uint64()
	if s == 0 { // 0 means "no -seed flag"
		s = 1
	}
	return s
}

// seqConfig is what a sequence runs against.
type seqConfig struct {
	maxAttempts int
	strategy    string
	// autoRedrive, if above 0, makes OnEvent redrive every task that dies,
	// at most autoRedrive times per task.
	autoRedrive int
	// Time: Config.LeaseTimeout and Config.Backoff.
	leaseTimeout time.Duration
	backoff      Backoff
	// Operating the DLQ: Config.PoisonAfter and Config.Alert, and whether
	// the generator makes bulk redrives, cancels and forced redrives.
	poisonAfter int
	alert       Alert
	dlqOps      bool
}

// randomTime picks a random time configuration: a quarter each with
// neither leases nor backoff, leases only, backoff only, and both; the
// backoff with a random base, factor (0 among them), cap (none among
// them), jitter and seed.
func randomTime(r *rand.Rand) (time.Duration, Backoff) {
	var lease time.Duration
	var b Backoff
	mode := r.IntN(4)
	if mode&1 != 0 {
		lease = []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}[r.IntN(4)]
	}
	if mode&2 != 0 {
		b.Base = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}[r.IntN(3)]
		b.Factor = []float64{0, 1, 1.5, 2, 3}[r.IntN(5)]
		b.Max = []time.Duration{0, b.Base, 4 * b.Base, 20 * time.Second}[r.IntN(4)]
		b.Jitter = Jitter(r.IntN(3))
		b.Seed = r.Uint64()
	}
	return lease, b
}

// runSeed generates and runs the sequence of one seed, with an OnEvent that
// redrives dead tasks if auto is set. On failure it shrinks the sequence
// and returns an error describing both, with how to rerun it.
func runSeed(seed uint64, auto bool) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	strategies := incremental.Names()
	cfg := seqConfig{maxAttempts: 1 + r.IntN(3), strategy: strategies[r.IntN(len(strategies))]}
	cfg.leaseTimeout, cfg.backoff = randomTime(r)
	cfg.poisonAfter, cfg.alert, cfg.dlqOps = randomDLQ(r)
	rerun := fmt.Sprintf("go test ./core -run 'TestPropertyRandomSequences$' -seed=%d", seed)
	if auto {
		cfg.maxAttempts = 1 + r.IntN(2) // deaths are common
		cfg.autoRedrive = 1 + r.IntN(3)
		rerun = fmt.Sprintf("go test ./core -run 'TestPropertyAutoRedrive$' -seed=%d", seed)
	}
	pool := poolNames(4 + r.IntN(9))
	length := 5 + r.IntN(60)
	churn := r.IntN(200) == 0
	if churn {
		// A long sequence over more names where tasks mostly fail and are
		// redriven: the READY line and the dead-letter queue stay long and
		// see thousands of entries come and go.
		pool = poolNames(12 + r.IntN(13))
		length = 500 + r.IntN(1000)
	}

	h, err := newHarness(cfg)
	if err != nil {
		return err
	}
	g := &generator{r: r, h: h, pool: pool, churn: churn}
	var ops []op
	for range length {
		o := g.next()
		ops = append(ops, o)
		if err := h.safeApply(o); err != nil {
			return failure(cfg, ops, err, rerun)
		}
	}
	return nil
}

// failure shrinks a failing sequence and describes it.
func failure(cfg seqConfig, ops []op, err error, rerun string) error {
	small := shrink(cfg, ops)
	smallErr := replay(cfg, small)
	return fmt.Errorf("failed at operation %d (%s): %v\n"+
		"minimal sequence, %d operations, fails with: %v\n%s"+
		"rerun: %s",
		len(ops), ops[len(ops)-1], err, len(small), smallErr, scenario(cfg, small), rerun)
}

// scenario writes ops in the scenario language (lease choices, permanent
// failures and invalid names, which the language cannot say, as comments).
func scenario(cfg seqConfig, ops []op) string {
	var b strings.Builder
	strategy := cfg.strategy
	if strategy == "" {
		strategy = incremental.Default
	}
	fmt.Fprintf(&b, "\tattempts %d\n\tstrategy %s\n", cfg.maxAttempts, strategy)
	if cfg.leaseTimeout > 0 {
		fmt.Fprintf(&b, "\tlease %v\n", cfg.leaseTimeout)
	}
	if bo := cfg.backoff; bo.Base > 0 {
		fmt.Fprintf(&b, "\tbackoff %v %v %v\n\tjitter %s %d\n", bo.Base, bo.Factor, bo.Max, bo.Jitter, bo.Seed)
	}
	if cfg.poisonAfter > 0 {
		fmt.Fprintf(&b, "\tpoison %d\n", cfg.poisonAfter)
	}
	if a := cfg.alert; a.Entries > 0 {
		fmt.Fprintf(&b, "\talert %d %v\n", a.Entries, a.Window)
	}
	if cfg.autoRedrive > 0 {
		fmt.Fprintf(&b, "\t# OnEvent redrives every task that dies, at most %d times per task\n", cfg.autoRedrive)
	}
	for _, o := range ops {
		fmt.Fprintf(&b, "\t%s\n", o)
	}
	return b.String()
}

// replay runs ops on a fresh queue and returns the first failure.
func replay(cfg seqConfig, ops []op) error {
	h, err := newHarness(cfg)
	if err != nil {
		return err
	}
	for i, o := range ops {
		if err := h.safeApply(o); err != nil {
			return fmt.Errorf("operation %d (%s): %v", i+1, o, err)
		}
	}
	return nil
}

// shrink removes operations, and dependencies of submits, as long as the
// sequence still fails.
//
// It first drops halves, quarters, … of the sequence, then single
// operations, and gives up improving after a minute.
func shrink(cfg seqConfig, ops []op) []op {
	deadline := time.Now().Add(time.Minute)
	for chunk := len(ops) / 2; chunk > 1; chunk /= 2 {
		for i := 0; i+chunk <= len(ops) && time.Now().Before(deadline); {
			cand := slices.Delete(slices.Clone(ops), i, i+chunk)
			if replay(cfg, cand) != nil {
				ops = cand
			} else {
				i += chunk
			}
		}
	}
	for changed := true; changed && time.Now().Before(deadline); {
		changed = false
		for i := 0; i < len(ops); i++ {
			cand := slices.Delete(slices.Clone(ops), i, i+1)
			if replay(cfg, cand) != nil {
				ops, changed = cand, true
				i--
			}
		}
		for i := range ops {
			for j := 0; j < len(ops[i].deps); j++ {
				cand := slices.Clone(ops)
				cand[i].deps = slices.Delete(slices.Clone(ops[i].deps), j, j+1)
				if replay(cfg, cand) != nil {
					ops, changed = cand, true
					j--
				}
			}
			// A batch's tasks, and their dependencies.
			for j := 0; j < len(ops[i].batch); j++ {
				cand := slices.Clone(ops)
				cand[i].batch = slices.Delete(slices.Clone(ops[i].batch), j, j+1)
				if replay(cfg, cand) != nil {
					ops, changed = cand, true
					j--
					continue
				}
				for k := 0; k < len(ops[i].batch[j].Deps); k++ {
					cand := slices.Clone(ops)
					cand[i].batch = slices.Clone(ops[i].batch)
					cand[i].batch[j].Deps = slices.Delete(slices.Clone(ops[i].batch[j].Deps), k, k+1)
					if replay(cfg, cand) != nil {
						ops, changed = cand, true
						k--
					}
				}
			}
		}
	}
	return ops
}

func poolNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	return names
}

// invalidNames are refused by Submit, as a task or as a dependency. (The
// scenario language is stricter; the Queue refuses only the empty name.)
var invalidNames = []string{""}

func validName(s string) bool { return s != "" }

// plainNameRE matches the names the scenario language can say.
var plainNameRE = regexp.MustCompile(`^[A-Za-z0-9_.:/-]+$`)

// ---- operations ----

type opKind uint8

const (
	opSubmit opKind = iota
	opNext
	opComplete
	opFail
	opRedrive
	opBatch
	opAdvance   // Advance(dur), or AdvanceTo(dur) if to
	opHeartbeat // Heartbeat of task's lease (op.lease)
	opBulk      // RedriveMatching(op.sel, op.rate), its preview checked
	opCancel    // CancelRedrive
	opForce     // ForceRedrive(task)
)

// leaseChoice says which lease a complete or fail presents.
type leaseChoice uint8

const (
	leaseCurrent  leaseChoice = iota // the task's current lease; its latest if it is not running
	leaseStale                       // an earlier lease of the task
	leaseForged                      // a lease id never handed out
	leaseOther                       // another running task's lease id under this task's name
	leaseTampered                    // the current lease id with another attempt number
	leaseExpired                     // a lease of the task that expired
)

var leaseNotes = [...]string{leaseCurrent: "", leaseStale: " # stale lease",
	leaseForged: " # forged lease", leaseOther: " # another task's lease id",
	leaseTampered: " # current lease id, wrong attempt", leaseExpired: " # an expired lease"}

// op is one operation, concrete enough to replay on a fresh queue.
type op struct {
	kind      opKind
	task      string
	deps      []string
	lease     leaseChoice
	permanent bool
	msg       string
	batch     []Task // opBatch: the tasks, in order
	dur       time.Duration
	to        bool     // opAdvance: AdvanceTo(dur) rather than Advance(dur)
	sel       Selector // opBulk
	rate      Rate     // opBulk
}

// sayName writes a name as the scenario language does, quoted if it
// cannot say it.
func sayName(s string) string {
	if plainNameRE.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// batchString writes a batch's tasks as "[task deps...] ...".
func batchString(tasks []Task) string {
	s := make([]string, len(tasks))
	for i, t := range tasks {
		s[i] = "[" + sayName(t.Name)
		for _, d := range t.Deps {
			s[i] += " " + sayName(d)
		}
		s[i] += "]"
	}
	return strings.Join(s, " ")
}

func (o op) String() string {
	name := sayName
	switch o.kind {
	case opSubmit:
		s := "submit " + name(o.task)
		for _, d := range o.deps {
			s += " " + name(d)
		}
		return s
	case opNext:
		return "next"
	case opComplete:
		return "complete " + name(o.task) + leaseNotes[o.lease]
	case opFail:
		s := "fail " + name(o.task) + " " + o.msg + leaseNotes[o.lease]
		if o.permanent {
			if o.lease == leaseCurrent {
				s += " #"
			}
			s += " permanent"
		}
		return s
	case opRedrive:
		return "redrive " + name(o.task)
	case opBatch:
		return "batch " + batchString(o.batch) + " # SubmitBatch, each [task deps...]"
	case opAdvance:
		if o.to {
			return fmt.Sprintf("advance to %v # AdvanceTo", o.dur)
		}
		return fmt.Sprintf("advance %v", o.dur)
	case opHeartbeat:
		return "heartbeat " + name(o.task) + leaseNotes[o.lease]
	case opBulk:
		return bulkString(o.sel, o.rate)
	case opCancel:
		return "redrive cancel"
	case opForce:
		return "redrive! " + name(o.task)
	}
	return fmt.Sprintf("op(%d)", o.kind)
}

// generator makes random operations, looking at the model to make the
// interesting ones likely: leases of running tasks, redrives of dead tasks,
// submits that close cycles and submits that fix them.
type generator struct {
	r     *rand.Rand
	h     *harness
	pool  []string
	churn bool // few submits and completes, many fails and redrives
}

var failMessages = []string{"boom", "HTTP 503", "timeout: 30s"}

func (g *generator) next() op {
	r, h := g.r, g.h
	if h.lastCycle != nil && r.IntN(2) == 0 {
		return h.fixLastCycle()
	}
	// Weights in percent: submit 35, next 25, complete 15, fail 15, redrive 10;
	// churning: submit 8, next 35, complete 4, fail 33, redrive 20. Then,
	// besides, one in six an advance of the clock or a heartbeat.
	if h.dlqOps {
		// Bulk redrives of several dead tasks, and cancels of the one in
		// progress, are what the DLQ operations are about: make them likely.
		if h.job != nil && r.IntN(8) == 0 {
			return op{kind: opCancel}
		}
		if len(h.inState(Dead)) >= 2 && r.IntN(3) == 0 {
			return g.bulk()
		}
	}
	if r.IntN(6) == 0 {
		if r.IntN(3) == 0 {
			return op{kind: opHeartbeat, task: g.leaseTask(), lease: g.leaseChoice()}
		}
		return g.advance()
	}
	n := r.IntN(100)
	if g.churn {
		switch m := n; {
		case m < 8:
			n = 0
		case m < 43:
			n = 35
		case m < 47:
			n = 60
		case m < 80:
			n = 75
		default:
			n = 90
		}
	}
	switch {
	case n < 35:
		if r.IntN(5) == 0 {
			return g.batch()
		}
		return g.submit()
	case n < 60:
		return op{kind: opNext}
	case n < 75:
		return op{kind: opComplete, task: g.leaseTask(), lease: g.leaseChoice()}
	case n < 90:
		return op{kind: opFail, task: g.leaseTask(), lease: g.leaseChoice(),
			permanent: r.IntN(4) == 0, msg: failMessages[r.IntN(len(failMessages))]}
	default:
		task := g.any()
		if dead := h.inState(Dead); len(dead) > 0 && r.IntN(10) < 7 {
			task = dead[r.IntN(len(dead))]
		}
		if h.dlqOps {
			switch m := r.IntN(20); {
			case m < 5:
				return g.bulk()
			case m < 7:
				return op{kind: opCancel}
			case m < 9:
				return op{kind: opForce, task: task}
			}
		}
		return op{kind: opRedrive, task: task}
	}
}

func (g *generator) any() string { return g.pool[g.r.IntN(len(g.pool))] }

// advance moves the clock: often exactly to the next timer or just short of
// it (where ties and boundaries are), else by a random step, now and then
// backwards (refused).
func (g *generator) advance() op {
	r, h := g.r, g.h
	at, ok := h.nextTimer()
	switch n := r.IntN(100); {
	case n < 30 && ok:
		return op{kind: opAdvance, dur: at, to: true}
	case n < 40 && ok:
		return op{kind: opAdvance, dur: at - h.now - 1}
	case n < 43:
		return op{kind: opAdvance, dur: -time.Second}
	case n < 45 && h.now > 0:
		return op{kind: opAdvance, dur: h.now - 1, to: true}
	case n < 50:
		return op{kind: opAdvance, dur: 0}
	}
	steps := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}
	return op{kind: opAdvance, dur: steps[r.IntN(len(steps))]}
}

func (g *generator) submit() op {
	r := g.r
	t := g.any()
	if fresh := slices.DeleteFunc(slices.Clone(g.pool), g.h.isTask); len(fresh) > 0 && r.IntN(4) != 0 {
		t = fresh[r.IntN(len(fresh))]
	}
	if r.IntN(60) == 0 {
		t = invalidNames[r.IntN(len(invalidNames))]
	}
	waiters := g.h.waitersOf(t) // a dependency among them closes a cycle
	var deps []string
	for range r.IntN(4) {
		n := r.IntN(100)
		switch {
		case n < 5:
			deps = append(deps, t) // self-dependency
		case n < 25:
			if len(waiters) > 0 { // closes a cycle
				deps = append(deps, waiters[r.IntN(len(waiters))])
			} else {
				deps = append(deps, g.any())
			}
		case n < 27:
			deps = append(deps, invalidNames[r.IntN(len(invalidNames))])
		case n < 35 && len(deps) > 0:
			deps = append(deps, deps[r.IntN(len(deps))]) // a duplicate
		default:
			deps = append(deps, g.any())
		}
	}
	return op{kind: opSubmit, task: t, deps: deps}
}

// batch makes a SubmitBatch of 1 to 5 tasks, mostly new (no more tasks
// than new names, when there are some), often waiting on a task later in
// the batch (a forward reference), and sometimes refused: a cycle inside
// the batch, or through tasks already waiting on one of its tasks, a
// self-dependency, a name twice or one already submitted, an invalid name.
func (g *generator) batch() op {
	r := g.r
	fresh := slices.DeleteFunc(slices.Clone(g.pool), g.h.isTask)
	r.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	tasks := make([]Task, 1+r.IntN(min(5, max(1, len(fresh)))))
	for i := range tasks {
		name := g.any() // perhaps submitted already
		switch n := r.IntN(100); {
		case n < 6 && i > 0:
			name = tasks[r.IntN(i)].Name // twice in the batch
		case n < 7:
			name = invalidNames[r.IntN(len(invalidNames))]
		case n < 90 && len(fresh) > 0:
			name, fresh = fresh[0], fresh[1:]
		}
		tasks[i].Name = name
	}
	for i := range tasks {
		t := tasks[i].Name
		waiters := g.h.waitersOf(t) // a dependency among them closes a cycle
		var deps []string
		for range r.IntN(4) {
			d := g.any()
			switch n := r.IntN(100); {
			case n < 40:
				if i+1 < len(tasks) {
					d = tasks[i+1+r.IntN(len(tasks)-i-1)].Name // forward
				}
			case n < 48:
				if i > 0 {
					d = tasks[r.IntN(i)].Name // with a forward one, a cycle
				}
			case n < 50:
				d = t // self-dependency
			case n < 55:
				if len(waiters) > 0 {
					d = waiters[r.IntN(len(waiters))] // closes a cycle
				}
			case n < 56:
				d = invalidNames[r.IntN(len(invalidNames))]
			case n < 60:
				if len(deps) > 0 {
					d = deps[r.IntN(len(deps))] // a duplicate
				}
			}
			deps = append(deps, d)
		}
		tasks[i].Deps = deps
	}
	return op{kind: opBatch, batch: tasks}
}

func (g *generator) leaseTask() string {
	if running := g.h.inState(Running); len(running) > 0 && g.r.IntN(4) != 0 {
		return running[g.r.IntN(len(running))]
	}
	return g.any()
}

func (g *generator) leaseChoice() leaseChoice {
	switch n := g.r.IntN(100); {
	case n < 80:
		return leaseCurrent
	case n < 88:
		return leaseStale
	case n < 93:
		return leaseForged
	case n < 95:
		return leaseOther
	case n < 97:
		return leaseExpired
	default:
		return leaseTampered
	}
}

// ---- the harness: a queue, a model folded from its events, the checks ----

// harness runs operations on a Queue and checks it after each against a
// model. The model is folded from the queue's events (each event checked
// against the state table and against the model's state of its task) and
// the expectations of each operation are computed from the model before it.
type harness struct {
	q      *Queue
	quiet  *Queue // the same operations, with no OnEvent: it must agree with q
	max    int
	strat  string
	events []Event // delivered since the last operation
	calls  uint64  // operations (Submit, SubmitBatch, Next, Heartbeat, Complete, Fail, Redrive, Advance) called on q

	// OnEvent's own checks and, with autoRedrive, the redrives it makes.
	autoRedrive int             // redrive a dead task at most this many times
	redriven    map[string]int  // auto-redrives so far, per task
	nested      []nestedRedrive // the callback's redrives not yet checked, in call order
	delivering  bool            // inside OnEvent
	callbackErr error           // the first thing OnEvent found wrong

	tasks    []string            // arrival order
	deps     map[string][]string // as submitted, duplicates dropped
	state    map[string]State
	fifo     []string     // READY tasks in the order they became READY
	dlq      []DeadLetter // in the order tasks entered the DLQ
	attempts map[string]int
	current  map[string]Lease   // RUNNING task → its lease
	history  map[string][]Lease // every lease handed out, per task
	ids      map[uint64]bool
	maxID    uint64
	names    []string // every name an operation used, for snapshots

	lastCycle *op // the last submit refused for a cycle, until the next submit

	// Time: the model's clock and timers, the leases that expired, and a
	// generator that predicts the backoff's jitter draw for draw.
	leaseTimeout time.Duration
	backoff      Backoff
	rng          *rand.Rand
	now          time.Duration
	timers       map[string]modelTimer // RUNNING with a lease timeout, DELAYED
	timerSeq     uint64
	expired      map[uint64]Lease // by lease id

	dlqModel // poison, alert and bulk redrive: property_dlq_test.go
}

// modelTimer is a timer of the model: when, and the order it was set in.
type modelTimer struct {
	at  time.Duration
	seq uint64
}

// nestedRedrive is a Redrive the callback called, and what it returned.
type nestedRedrive struct {
	task string
	err  error
}

func newHarness(cfg seqConfig) (*harness, error) {
	h := &harness{
		max:      cfg.maxAttempts,
		deps:     map[string][]string{},
		state:    map[string]State{},
		attempts: map[string]int{},
		current:  map[string]Lease{},
		history:  map[string][]Lease{},
		ids:      map[uint64]bool{},

		autoRedrive: cfg.autoRedrive,
		redriven:    map[string]int{},

		leaseTimeout: cfg.leaseTimeout,
		backoff:      cfg.backoff,
		rng:          rand.New(rand.NewPCG(cfg.backoff.Seed, 0)),
		timers:       map[string]modelTimer{},
		expired:      map[uint64]Lease{},

		dlqModel: newDLQModel(cfg),
	}
	q, err := New(Config{MaxAttempts: cfg.maxAttempts, Strategy: cfg.strategy, OnEvent: h.deliver,
		LeaseTimeout: cfg.leaseTimeout, Backoff: cfg.backoff, PoisonAfter: cfg.poisonAfter, Alert: cfg.alert})
	if err != nil {
		return nil, fmt.Errorf("New(MaxAttempts %d, Strategy %q, LeaseTimeout %v, Backoff %+v): %v",
			cfg.maxAttempts, cfg.strategy, cfg.leaseTimeout, cfg.backoff, err)
	}
	h.q = q
	if h.quiet, err = New(Config{MaxAttempts: cfg.maxAttempts, Strategy: cfg.strategy,
		LeaseTimeout: cfg.leaseTimeout, Backoff: cfg.backoff, PoisonAfter: cfg.poisonAfter, Alert: cfg.alert}); err != nil {
		return nil, fmt.Errorf("New without OnEvent: %v", err)
	}
	h.strat = cfg.strategy
	if h.strat == "" {
		h.strat = incremental.Default
	}
	if got := q.Config().MaxAttempts; got != cfg.maxAttempts {
		return nil, fmt.Errorf("MaxAttempts() = %d, want %d", got, cfg.maxAttempts)
	}
	if len(h.events) != 0 {
		return nil, fmt.Errorf("New delivered events %v", h.events)
	}
	if err := checkInvariants(q); err != nil {
		return nil, fmt.Errorf("empty queue: %v", err)
	}
	return h, nil
}

// deliver is the queue's OnEvent. It keeps the event for the checks of the
// operation that made it, and checks that the event arrives when the queue
// is consistent again (the invariants hold) and not while OnEvent runs.
// With autoRedrive it acts on the queue: it redrives a task that died, as an
// operator's automation would, unless it did so autoRedrive times already.
func (h *harness) deliver(e Event) {
	h.events = append(h.events, e)
	if h.callbackErr != nil {
		return
	}
	if h.delivering {
		h.callbackErr = fmt.Errorf("OnEvent(%s) was called while OnEvent was running", e)
		return
	}
	h.delivering = true
	defer func() { h.delivering = false }()
	if err := checkInvariants(h.q); err != nil {
		h.callbackErr = fmt.Errorf("event %q (Op %d) arrived while the queue was inconsistent: %v", e, e.Op, err)
		return
	}
	if e.Kind == EventDead && h.redriven[e.Task] < h.autoRedrive {
		h.redriven[e.Task]++
		err := h.q.Redrive(e.Task)
		h.nested = append(h.nested, nestedRedrive{task: e.Task, err: err})
	}
}

// safeApply is apply with a panic of the queue turned into an error.
func (h *harness) safeApply(o op) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return h.apply(o)
}

// apply runs one operation and checks:
//
//   - the operation's result and its events against what the model expects
//     (exact accept/refuse decisions, states, attempts, reasons, the tasks
//     blocked, readied and unblocked; blocking waves nearest first, tasks
//     readied in arrival order, a redrive deciding dependencies before
//     dependents);
//   - events: all of one operation carry its Op, the number of operations
//     called so far; each has the From and To of its kind and From is the
//     model's state of the task;
//   - delivery: every event arrives after its operation has finished, with
//     the invariants holding, and never while OnEvent runs; the redrives
//     OnEvent calls (seqConfig.autoRedrive) come after the operation, in
//     the order called, their events after its events, and each is checked
//     as a redrive op is;
//   - invariant 4: Next hands out the front of the FIFO the events build,
//     and ReadyTasks is that FIFO;
//   - invariant 5: a refused operation changes nothing and delivers no
//     event but Rejected; a refused submit is refused again with the same
//     error; a reported cycle is a simple cycle of the graph with the new
//     edges; the submit without the edges that close it is accepted (the
//     generators make that submit often);
//   - the queue's Tasks, Status of every name, Deps, ReadyTasks,
//     DeadLetters (order and reasons), Lease, Attempts, Len and Strategy
//     equal the model's;
//   - a second queue given the same operations but no OnEvent returns the
//     same results and shows the same state;
//   - checkInvariants.
func (h *harness) apply(o op) error {
	h.addNames(o.task)
	h.addNames(o.deps...)
	for _, t := range o.batch {
		h.addNames(t.Name)
		h.addNames(t.Deps...)
	}
	// A refused operation delivers no event (checked), so the model stays as
	// it was and compare finds any change it made; submits also compare
	// snapshots, for a clearer message.
	var before snapshot
	if o.kind == opSubmit || o.kind == opBatch {
		before = h.snapshot()
	}
	h.events = h.events[:0]
	var err error
	switch o.kind {
	case opSubmit:
		h.lastCycle = nil // submit sets it again if refused for a cycle
		err = h.submit(o, before)
	case opNext:
		err = h.next()
	case opComplete, opFail:
		err = h.finish(o)
	case opRedrive:
		err = h.redrive(o)
	case opBatch:
		err = h.submitBatch(o, before)
	case opAdvance:
		err = h.advance(o)
	case opHeartbeat:
		err = h.heartbeat(o)
	case opBulk:
		err = h.bulk(o)
	case opCancel:
		err = h.cancel()
	case opForce:
		err = h.force(o)
	default:
		err = fmt.Errorf("unknown op kind %d", o.kind)
	}
	if err != nil {
		return err
	}
	// The callback's redrives ran after the operation, in the order it
	// called them; each is checked as a redrive op is.
	for len(h.nested) > 0 {
		c := h.nested[0]
		h.nested = h.nested[1:]
		want := h.expectRedrive(c.task)
		evs, eerr := h.takeEvents()
		if err := h.checkRedrive(want, c.err, evs, eerr); err != nil {
			return fmt.Errorf("OnEvent's %v", err)
		}
	}
	if len(h.events) > 0 {
		return fmt.Errorf("events of no operation called: %s", eventList(h.events))
	}
	if err := h.compare(); err != nil {
		return err
	}
	if err := checkInvariants(h.q); err != nil {
		return err
	}
	return nil
}

func (h *harness) addNames(names ...string) {
	for _, n := range names {
		if !slices.Contains(h.names, n) {
			h.names = append(h.names, n)
		}
	}
}

// takeEvents returns the events of the operation just run, checking that
// each carries Op, the number of operations called so far (refused ones
// included), and folds them into the model. Every call of an operation on
// q, the callback's included, is followed by one takeEvents, in the order
// of the calls.
//
// The events of the operations the callback called come after, with the
// Ops that follow: they are left for their own takeEvents.
func (h *harness) takeEvents() ([]Event, error) {
	evs, err := h.takeUnfolded()
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		if err := h.fold(e); err != nil {
			return nil, fmt.Errorf("%v (events: %s)", err, eventList(evs))
		}
	}
	return evs, nil
}

// takeUnfolded is takeEvents without the folding, for a caller that folds
// the events itself, a few at a time.
func (h *harness) takeUnfolded() ([]Event, error) {
	h.calls++
	if h.callbackErr != nil {
		return nil, fmt.Errorf("OnEvent: %v (events: %s)", h.callbackErr, eventList(h.events))
	}
	n := 0
	for n < len(h.events) && h.events[n].Op == h.calls {
		n++
	}
	evs := h.setAlertsApart(slices.Clone(h.events[:n]))
	for _, e := range h.events[n:] {
		if e.Op <= h.calls || e.Op > h.calls+uint64(len(h.nested)) {
			return nil, fmt.Errorf("event %q carries Op %d, want %d: it is operation %d, and OnEvent called %d more after it (events: %s)",
				e, e.Op, h.calls, h.calls, len(h.nested), eventList(h.events))
		}
	}
	h.events = slices.Delete(h.events, 0, n)
	return evs, nil
}

func eventList(evs []Event) string {
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = fmt.Sprintf("[%s] %s", e.Kind, e)
	}
	return strings.Join(s, "; ")
}

// transition is the From → To of each event kind but Submitted and Rejected.
var transition = map[EventKind][2]State{
	EventReady:     {Pending, Ready},
	EventStarted:   {Ready, Running},
	EventSucceeded: {Running, Succeeded},
	EventRetried:   {Running, Ready},
	EventDead:      {Running, Dead},
	EventBlocked:   {Pending, Blocked},
	EventUnblocked: {Blocked, Pending},
	EventRerooted:  {Blocked, Blocked},
	EventRedriven:  {Dead, Ready},
	EventDelayed:   {Running, Delayed},
	EventDue:       {Delayed, Ready},
	EventExpired:   {Running, Running},
	EventHeartbeat: {Running, Running},
}

// fold applies one event to the model, checking it against the state table.
func (h *harness) fold(e Event) error {
	switch e.Kind {
	case EventAlert, EventCleared, EventRedriveStarted, EventRedriveProgress, EventRedriveDone, EventRedriveCancelled:
		return h.foldDLQ(e)
	}
	tr, ok := transition[e.Kind]
	if !ok && e.Kind != EventSubmitted && e.Kind != EventRejected {
		return fmt.Errorf("event of unknown kind %d for %q", e.Kind, e.Task)
	}
	prev := h.state[e.Task]
	if e.At != h.now {
		return fmt.Errorf("%s event for %q at %v, but the clock is at %v", e.Kind, e.Task, e.At, h.now)
	}
	switch e.Kind {
	case EventRejected:
		if e.From != "" || e.To != "" {
			return fmt.Errorf("rejected event %q has From %q, To %q, want none", e, e.From, e.To)
		}
		return nil
	case EventSubmitted:
		if e.From != "" || prev != "" {
			return fmt.Errorf("submitted event for %q, From %q, but the model has it %s", e.Task, e.From, orNone(prev))
		}
		if e.To != Pending && e.To != Ready && e.To != Blocked {
			return fmt.Errorf("submitted event for %q goes to %s", e.Task, orNone(e.To))
		}
		h.tasks = append(h.tasks, e.Task)
		h.deps[e.Task] = slices.Clone(e.Deps)
	default:
		if e.From != tr[0] || e.To != tr[1] {
			return fmt.Errorf("%s event for %q goes %s → %s, want %s → %s", e.Kind, e.Task, orNone(e.From), orNone(e.To), tr[0], tr[1])
		}
		if prev != e.From {
			return fmt.Errorf("%s event for %q from %s, but it was %s", e.Kind, e.Task, e.From, orNone(prev))
		}
	}
	h.state[e.Task] = e.To

	// The FIFO: a task joins when it becomes READY and leaves when started.
	switch {
	case e.To == Ready:
		if slices.Contains(h.fifo, e.Task) {
			return fmt.Errorf("%q became READY twice", e.Task)
		}
		h.fifo = append(h.fifo, e.Task)
	case e.Kind == EventStarted:
		if len(h.fifo) == 0 || h.fifo[0] != e.Task {
			return fmt.Errorf("invariant 4: %q started, but the front of the line is %q", e.Task, h.fifo)
		}
		h.fifo = h.fifo[1:]
	}

	// The DLQ, in the order tasks entered it.
	switch e.Kind {
	case EventSubmitted, EventBlocked, EventDead:
		if e.To == Blocked || e.To == Dead {
			h.dlq = append(h.dlq, DeadLetter{Task: e.Task, Reason: e.Reason, State: e.To, Root: e.Root, Entered: e.At,
				Error: e.Error, Poisoned: e.Poisoned})
			if err := h.enteredDLQ(e); err != nil {
				return err
			}
		}
	case EventRerooted:
		i := slices.IndexFunc(h.dlq, func(d DeadLetter) bool { return d.Task == e.Task })
		if i < 0 {
			return fmt.Errorf("rerooted %q is not in the model's DLQ", e.Task)
		}
		h.dlq[i].Reason, h.dlq[i].Root = e.Reason, e.Root
	case EventUnblocked, EventRedriven:
		h.dlq = slices.DeleteFunc(h.dlq, func(d DeadLetter) bool { return d.Task == e.Task })
	}

	switch e.Kind {
	case EventStarted:
		h.attempts[e.Task] = e.Attempt
	case EventRedriven:
		h.attempts[e.Task] = 0
		h.redriveCount(e.Task)
	case EventSucceeded, EventRetried, EventDead, EventDelayed:
		delete(h.current, e.Task)
	}
	if err := h.foldTime(e); err != nil {
		return err
	}
	if e.To == Blocked || e.Kind == EventRerooted {
		if want := "blocked by " + e.Root; e.Root == "" || e.Reason != want {
			return fmt.Errorf("%s event for %q has Root %q and Reason %q, want Reason %q", e.Kind, e.Task, e.Root, e.Reason, want)
		}
	}
	return nil
}

// ---- per-operation expectations ----

func (h *harness) submit(o op, before snapshot) error {
	want := dedup(o.deps)
	var allowed []error
	invalid := !validName(o.task) || slices.ContainsFunc(want, func(d string) bool { return !validName(d) })
	if invalid {
		allowed = append(allowed, ErrInvalidName)
	}
	dup := h.isTask(o.task)
	cycle := !dup && (slices.Contains(want, o.task) || slices.ContainsFunc(want, func(d string) bool { return h.reaches(d, o.task) }))
	switch {
	case dup:
		allowed = append(allowed, ErrDuplicate)
	case cycle:
		allowed = append(allowed, ErrCycle)
	}
	wantState, wantBlocked := h.expectAccepted(o.task, want)

	err := h.q.Submit(o.task, o.deps...)
	evs, eerr := h.takeEvents()
	if eerr != nil {
		return eerr
	}
	call := fmt.Sprintf("Submit(%q, %q)", o.task, o.deps)
	if qerr := h.quiet.Submit(o.task, o.deps...); errString(qerr) != errString(err) {
		return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
	}
	if err != nil {
		if !slices.ContainsFunc(allowed, func(s error) bool { return errors.Is(err, s) }) {
			if len(allowed) == 0 {
				return fmt.Errorf("%s = %v, want it accepted (%s)", call, err, wantState)
			}
			return fmt.Errorf("%s = %v, want an error that is %v", call, err, allowed)
		}
		var path []string
		if errors.Is(err, ErrCycle) {
			var ce *CycleError
			if !errors.As(err, &ce) {
				return fmt.Errorf("%s = %v (%T), is ErrCycle but not a *CycleError", call, err, err)
			}
			if perr := h.checkCyclePath(o.task, map[string][]string{o.task: want}, ce.Path); perr != nil {
				return fmt.Errorf("%s = %v: %v", call, err, perr)
			}
			path = ce.Path
			h.lastCycle = &op{kind: opSubmit, task: o.task, deps: slices.Clone(o.deps)}
		} else {
			var te *TaskError
			if !errors.As(err, &te) {
				return fmt.Errorf("%s = %v (%T), want a *TaskError", call, err, err)
			}
			if errors.Is(err, ErrDuplicate) && te.Task != o.task {
				return fmt.Errorf("%s = %v, TaskError names %q", call, err, te.Task)
			}
		}
		if cerr := h.checkRejected(o, want, err, path, evs, before); cerr != nil {
			return fmt.Errorf("%s = %v: %v", call, err, cerr)
		}
		// Invariant 5: the same submit is refused again, the same way.
		err2 := h.q.Submit(o.task, o.deps...)
		evs2, eerr := h.takeEvents()
		if eerr != nil {
			return eerr
		}
		if qerr := h.quiet.Submit(o.task, o.deps...); errString(qerr) != errString(err2) {
			return fmt.Errorf("%s again = %v, but %v without OnEvent", call, err2, qerr)
		}
		if err2 == nil || err2.Error() != err.Error() {
			return fmt.Errorf("invariant 5: %s = %v, then again = %v", call, err, err2)
		}
		if cerr := h.checkRejected(o, want, err2, path, evs2, before); cerr != nil {
			return fmt.Errorf("invariant 5: %s again: %v", call, cerr)
		}
		return nil
	}

	if len(allowed) > 0 {
		return fmt.Errorf("%s accepted, want an error that is %v", call, allowed)
	}
	return h.checkAccepted(call, o.task, want, wantState, wantBlocked, evs)
}

// expectAccepted returns what an accepted submit of task with deps
// (duplicates dropped) should do, from the model before it: the state it
// arrives in, and the tasks it blocks.
func (h *harness) expectAccepted(task string, deps []string) (State, []string) {
	state := Ready
	for _, d := range deps {
		switch s := h.state[d]; {
		case s == Dead || s == Blocked:
			state = Blocked
		case s != Succeeded && state != Blocked:
			state = Pending
		}
	}
	if state != Blocked {
		return state, nil
	}
	return state, h.pendingDownstream(task)
}

// checkAccepted checks the events of an accepted submit, folded into the
// model, against what expectAccepted said before it.
func (h *harness) checkAccepted(call, task string, deps []string, wantState State, wantBlocked []string, evs []Event) error {
	if len(evs) == 0 || evs[0].Kind != EventSubmitted || evs[0].Task != task {
		return fmt.Errorf("%s: first event is not Submitted %q: %s", call, task, eventList(evs))
	}
	e := evs[0]
	if !slices.Equal(e.Deps, deps) {
		return fmt.Errorf("%s: Submitted event Deps %q, want %q", call, e.Deps, deps)
	}
	if e.To != wantState {
		return fmt.Errorf("%s: %s submitted → %s, want %s (deps %s)", call, task, e.To, wantState, h.describe(deps))
	}
	if wantState == Blocked && (e.Root == task || !h.reaches(task, e.Root) || h.state[e.Root] != Dead) {
		return fmt.Errorf("%s: %s blocked by %q, which is not a DEAD task upstream", call, task, e.Root)
	}
	var blocked []string
	for _, e := range evs[1:] {
		if e.Kind != EventBlocked {
			return fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
		}
		blocked = append(blocked, e.Task)
	}
	if err := sameSet("blocked on arrival of "+task, blocked, wantBlocked); err != nil {
		return fmt.Errorf("%s: %v: %s", call, err, eventList(evs))
	}
	if err := h.nearestFirst(task, blocked); err != nil {
		return fmt.Errorf("%s: %v", call, err)
	}
	return nil
}

// submitBatch runs a SubmitBatch. The model decides, before it, whether the
// batch must be accepted: no invalid name, no task already submitted or
// named twice, no cycle (a self-dependency included) in the graph with the
// batch's edges. Refused, it must change nothing, deliver one Rejected
// event naming a task the error is about, and be refused again the same
// way. Accepted, its events must be, task after task in the order given,
// exactly what Submit of that task would deliver at that point, all under
// the batch's one Op.
func (h *harness) submitBatch(o op, before snapshot) error {
	call := "SubmitBatch(" + batchString(o.batch) + ")"
	// Which refusals apply, and to which tasks.
	applies := map[error][]int{} // sentinel → indexes of the tasks it is about
	named := map[string]bool{}
	for i, t := range o.batch {
		if !validName(t.Name) || slices.ContainsFunc(t.Deps, func(d string) bool { return !validName(d) }) {
			applies[ErrInvalidName] = append(applies[ErrInvalidName], i)
		}
		if h.isTask(t.Name) || named[t.Name] {
			applies[ErrDuplicate] = append(applies[ErrDuplicate], i)
		}
		named[t.Name] = true
	}
	var cycle bool
	if len(applies[ErrDuplicate]) == 0 && len(applies[ErrInvalidName]) == 0 {
		names := slices.Clone(h.tasks)
		deps := maps.Clone(h.deps)
		for _, t := range o.batch {
			names = append(names, t.Name)
			deps[t.Name] = dedup(t.Deps)
		}
		cycle = findCycle(names, deps) != nil
	}

	err := h.q.SubmitBatch(o.batch)
	evs, eerr := h.takeUnfolded()
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if qerr := h.quiet.SubmitBatch(o.batch); errString(qerr) != errString(err) {
		return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
	}
	accept := len(applies) == 0 && !cycle
	if err != nil {
		if accept {
			return fmt.Errorf("%s = %v, want it accepted", call, err)
		}
		for _, e := range evs {
			if err := h.fold(e); err != nil {
				return fmt.Errorf("%s: %v (events: %s)", call, err, eventList(evs))
			}
		}
		if cerr := h.checkBatchRefused(o, err, evs, applies, before); cerr != nil {
			return fmt.Errorf("%s = %v: %v", call, err, cerr)
		}
		// Invariant 5: the same batch is refused again, the same way.
		err2 := h.q.SubmitBatch(o.batch)
		evs2, eerr := h.takeEvents()
		if eerr != nil {
			return fmt.Errorf("%s again: %v", call, eerr)
		}
		if qerr := h.quiet.SubmitBatch(o.batch); errString(qerr) != errString(err2) {
			return fmt.Errorf("%s again = %v, but %v without OnEvent", call, err2, qerr)
		}
		if err2 == nil || err2.Error() != err.Error() {
			return fmt.Errorf("invariant 5: %s = %v, then again = %v", call, err, err2)
		}
		if cerr := h.checkBatchRefused(o, err2, evs2, applies, before); cerr != nil {
			return fmt.Errorf("invariant 5: %s again: %v", call, cerr)
		}
		return nil
	}
	if !accept {
		var want []error
		for s := range applies {
			want = append(want, s)
		}
		if cycle {
			want = append(want, ErrCycle)
		}
		return fmt.Errorf("%s accepted, want an error that is %v", call, want)
	}
	// Task by task: the expectation from the model as the task arrives, its
	// events (Submitted, then the tasks it blocks) folded, then checked.
	rest := evs
	for _, t := range o.batch {
		n := 1
		for n < len(rest) && rest[n].Kind != EventSubmitted {
			n++
		}
		n = min(n, len(rest))
		deps := dedup(t.Deps)
		wantState, wantBlocked := h.expectAccepted(t.Name, deps)
		for _, e := range rest[:n] {
			if err := h.fold(e); err != nil {
				return fmt.Errorf("%s: %v (events: %s)", call, err, eventList(evs))
			}
		}
		if err := h.checkAccepted(call, t.Name, deps, wantState, wantBlocked, rest[:n]); err != nil {
			return fmt.Errorf("%v (events of the batch: %s)", err, eventList(evs))
		}
		rest = rest[n:]
	}
	if len(rest) > 0 {
		return fmt.Errorf("%s: events after the batch's tasks: %s", call, eventList(rest))
	}
	return nil
}

// checkBatchRefused checks a refused batch: the error is of a kind that
// applies, one Rejected event names a task of the batch it applies to (for
// a cycle, the task the path starts at, the path a simple cycle of the
// graph with the batch's edges), and the queue is unchanged.
func (h *harness) checkBatchRefused(o op, err error, evs []Event, applies map[error][]int, before snapshot) error {
	if len(evs) != 1 || evs[0].Kind != EventRejected {
		return fmt.Errorf("want one Rejected event, got %s", eventList(evs))
	}
	e := evs[0]
	if e.Reason != err.Error() {
		return fmt.Errorf("rejected event reason %q, want the error", e.Reason)
	}
	about := func(i int) bool { return o.batch[i].Name == e.Task && slices.Equal(dedup(o.batch[i].Deps), e.Deps) }
	var ce *CycleError
	switch {
	case errors.As(err, &ce):
		i := slices.IndexFunc(o.batch, func(t Task) bool { return t.Name == e.Task })
		if i < 0 || !about(i) {
			return fmt.Errorf("rejected event %+v names no task of the batch with its deps", e)
		}
		if !slices.Equal(e.Path, ce.Path) {
			return fmt.Errorf("rejected event Path %q, want the error's %q", e.Path, ce.Path)
		}
		newDeps := map[string][]string{}
		for _, t := range o.batch {
			newDeps[t.Name] = dedup(t.Deps)
		}
		if perr := h.checkCyclePath(e.Task, newDeps, ce.Path); perr != nil {
			return perr
		}
	default:
		var te *TaskError
		if !errors.As(err, &te) {
			return fmt.Errorf("error %T, want a *TaskError or a *CycleError", err)
		}
		if te.Task != e.Task || e.Path != nil {
			return fmt.Errorf("rejected event %+v, want Task %q and no Path", e, te.Task)
		}
		if !slices.ContainsFunc(applies[te.Err], about) {
			return fmt.Errorf("the error is about %q, but no task of the batch by that name is %v (%v)", te.Task, te.Err, applies)
		}
	}
	if d := before.diff(h.snapshot()); d != "" {
		return fmt.Errorf("invariant 5: a refused batch changed the queue: %s", d)
	}
	return nil
}

// checkRejected checks the events and the (lack of) effect of a refused submit.
func (h *harness) checkRejected(o op, want []string, err error, path []string, evs []Event, before snapshot) error {
	if len(evs) != 1 || evs[0].Kind != EventRejected {
		return fmt.Errorf("want one Rejected event, got %s", eventList(evs))
	}
	e := evs[0]
	if e.Task != o.task || e.Reason != err.Error() || !slices.Equal(e.Path, path) || !slices.Equal(e.Deps, want) {
		return fmt.Errorf("rejected event %+v, want Task %q, Reason %q, Path %q, Deps %q", e, o.task, err.Error(), path, want)
	}
	if d := before.diff(h.snapshot()); d != "" {
		return fmt.Errorf("invariant 5: a refused submit changed the queue: %s", d)
	}
	return nil
}

// checkCyclePath checks that path is a simple cycle through t in the graph
// with the tasks of newDeps waiting on their deps instead: [t x … t], each
// step an edge.
func (h *harness) checkCyclePath(t string, newDeps map[string][]string, path []string) error {
	if len(path) < 2 || path[0] != t || path[len(path)-1] != t {
		return fmt.Errorf("cycle path %q does not start and end with %q", path, t)
	}
	for i := 1; i < len(path)-1; i++ {
		if path[i] == t || slices.Contains(path[1:i], path[i]) {
			return fmt.Errorf("cycle path %q repeats %q", path, path[i])
		}
	}
	for i := 0; i+1 < len(path); i++ {
		from, to := path[i], path[i+1]
		edges, ok := newDeps[from]
		if !ok {
			edges = h.deps[from]
		}
		if !slices.Contains(edges, to) {
			return fmt.Errorf("cycle path %q: %q does not wait on %q", path, from, to)
		}
	}
	return nil
}

func (h *harness) next() error {
	line := slices.Clone(h.fifo)
	var front string
	if len(h.fifo) > 0 {
		front = h.fifo[0]
	}
	wantAttempt := h.attempts[front] + 1
	l, ok := h.q.Next()
	evs, err := h.takeEvents()
	if err != nil {
		return err
	}
	if l2, ok2 := h.quiet.Next(); l2 != l || ok2 != ok {
		return fmt.Errorf("Next() = %+v, %v, but %+v, %v without OnEvent", l, ok, l2, ok2)
	}
	if front == "" {
		if ok || len(evs) != 0 {
			return fmt.Errorf("Next() = %+v, %v with nothing READY (events %s)", l, ok, eventList(evs))
		}
		return nil
	}
	if !ok {
		return fmt.Errorf("Next() = false, want %q, the front of %q", front, h.fifo)
	}
	if l.Task != front || l.Attempt != wantAttempt {
		return fmt.Errorf("invariant 4: Next() = %+v, want %q attempt %d (line %q)", l, front, wantAttempt, line)
	}
	if len(evs) != 1 || evs[0].Kind != EventStarted || evs[0].Attempt != l.Attempt || evs[0].Lease != l.ID || evs[0].Deadline != l.Deadline {
		return fmt.Errorf("Next() = %+v, want one Started event with its attempt, lease and deadline, got %s", l, eventList(evs))
	}
	if want := h.deadline(); l.Deadline != want {
		return fmt.Errorf("Next() = %+v, want the deadline %v (now %v, lease timeout %v)", l, want, h.now, h.leaseTimeout)
	}
	if h.ids[l.ID] {
		return fmt.Errorf("Next() = %+v reuses lease id %d", l, l.ID)
	}
	h.ids[l.ID] = true
	h.maxID = max(h.maxID, l.ID)
	h.current[l.Task] = l
	h.history[l.Task] = append(h.history[l.Task], l)
	return nil
}

// lease returns the lease a complete or fail op presents.
func (h *harness) lease(o op) Lease {
	forged := Lease{Task: o.task, ID: h.maxID + 1000, Attempt: 1}
	cur, running := h.current[o.task]
	hist := h.history[o.task]
	switch o.lease {
	case leaseCurrent:
		if running {
			return cur
		}
		if len(hist) > 0 {
			return hist[len(hist)-1]
		}
	case leaseStale:
		for _, l := range hist {
			if !running || !sameLease(l, cur) {
				return l
			}
		}
	case leaseExpired:
		for _, l := range hist {
			if x, ok := h.expired[l.ID]; ok && sameLease(x, l) {
				return l
			}
		}
	case leaseOther:
		for _, t := range h.tasks {
			if l, ok := h.current[t]; ok && t != o.task {
				return Lease{Task: o.task, ID: l.ID, Attempt: l.Attempt}
			}
		}
	case leaseTampered:
		if running {
			return Lease{Task: o.task, ID: cur.ID, Attempt: cur.Attempt + 1}
		}
	}
	return forged
}

// finish runs a complete or a fail.
func (h *harness) finish(o op) error {
	l := h.lease(o)
	was := h.state[o.task]
	cur := h.current[o.task]
	accept, refusals := h.refusal(l)
	// Expectations from the model before the operation.
	dies := o.permanent || cur.Attempt >= h.max
	var wantDelay time.Duration
	if accept && o.kind == opFail && !dies {
		wantDelay = h.delay(cur.Attempt) // draws as the queue will
	}
	var wantReady, wantBlocked []string
	if accept && o.kind == opComplete {
		wantReady = h.releasedBy(o.task)
	}
	if accept && o.kind == opFail && dies {
		wantBlocked = h.pendingDownstream(o.task)
	}

	var call string
	var err error
	var st State
	if o.kind == opComplete {
		call = fmt.Sprintf("Complete(%+v)", l)
		err = h.q.Complete(l)
		if qerr := h.quiet.Complete(l); errString(qerr) != errString(err) {
			return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
		}
	} else {
		ferr := errors.New(o.msg)
		if o.permanent {
			ferr = Permanent(ferr)
		}
		call = fmt.Sprintf("Fail(%+v, %q, permanent %v)", l, o.msg, o.permanent)
		st, err = h.q.Fail(l, ferr)
		if qst, qerr := h.quiet.Fail(l, ferr); qst != st || errString(qerr) != errString(err) {
			return fmt.Errorf("%s = %s, %v, but %s, %v without OnEvent", call, st, err, qst, qerr)
		}
	}
	evs, eerr := h.takeEvents()
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if !accept {
		if err == nil || !slices.ContainsFunc(refusals, func(s error) bool { return errors.Is(err, s) }) {
			return fmt.Errorf("%s = %v, want an error that is %v (task %s, current lease %+v)", call, err, refusals, orNone(was), cur)
		}
		if len(evs) != 0 {
			return fmt.Errorf("%s refused with %v but delivered events %s", call, err, eventList(evs))
		}
		return nil // compare checks that it changed nothing
	}
	if err != nil {
		return fmt.Errorf("%s = %v, want it accepted", call, err)
	}
	if len(evs) == 0 || evs[0].Task != o.task {
		return fmt.Errorf("%s: first event is not about %q: %s", call, o.task, eventList(evs))
	}
	first, rest := evs[0], evs[1:]
	kinds := func(k EventKind) ([]string, error) {
		var ts []string
		for _, e := range rest {
			if e.Kind != k {
				return nil, fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
			}
			ts = append(ts, e.Task)
		}
		return ts, nil
	}
	switch {
	case o.kind == opComplete:
		if first.Kind != EventSucceeded {
			return fmt.Errorf("%s: first event %s, want succeeded", call, first.Kind)
		}
		ready, err := kinds(EventReady)
		if err != nil {
			return err
		}
		if err := sameSet(fmt.Sprintf("%s: tasks made READY", call), ready, wantReady); err != nil {
			return err
		}
		// wantReady is in arrival order, which the line must keep.
		if !slices.Equal(ready, wantReady) {
			return fmt.Errorf("%s made %q READY, want them in the order they arrived, %q", call, ready, wantReady)
		}
		return nil
	case dies:
		reason := deadReason(l.Attempt, o.msg, o.permanent)
		if st != Dead || first.Kind != EventDead || first.Attempt != l.Attempt || first.Reason != reason {
			return fmt.Errorf("%s = %s with event %s %q (attempt %d), want DEAD with %q (attempt %d of %d)",
				call, orNone(st), first.Kind, first.Reason, first.Attempt, reason, l.Attempt, h.max)
		}
		blocked, err := kinds(EventBlocked)
		if err != nil {
			return err
		}
		for _, e := range rest {
			if e.Root != o.task {
				return fmt.Errorf("%s: %q blocked by %q, want %q", call, e.Task, e.Root, o.task)
			}
		}
		if err := sameSet(fmt.Sprintf("%s: tasks blocked", call), blocked, wantBlocked); err != nil {
			return err
		}
		return h.nearestFirst(o.task, blocked)
	case wantDelay > 0:
		if due := h.now + wantDelay; st != Delayed || first.Kind != EventDelayed || first.Attempt != l.Attempt ||
			first.Reason != o.msg || first.Due != due || len(rest) != 0 {
			return fmt.Errorf("%s = %s, want DELAYED (attempt %d of %d) until %v with one Delayed event with the error: %s",
				call, orNone(st), l.Attempt, h.max, due, eventList(evs))
		}
	default:
		if st != Ready || first.Kind != EventRetried || first.Attempt != l.Attempt || first.Reason != o.msg || len(rest) != 0 {
			return fmt.Errorf("%s = %s, want READY (attempt %d of %d) with one Retried event with the error: %s",
				call, orNone(st), l.Attempt, h.max, eventList(evs))
		}
	}
	return nil
}

func (h *harness) redrive(o op) error {
	want := h.expectRedrive(o.task)
	err := h.q.Redrive(o.task)
	evs, eerr := h.takeEvents()
	return h.checkRedrive(want, err, evs, eerr)
}

// redriveWant is what a redrive should do, from the model before it.
type redriveWant struct {
	task      string
	was       State
	refusal   error    // ErrUnknown, ErrNotDead, ErrPoisoned or nil
	unblocked []string // the BLOCKED tasks with no other DEAD task upstream
	force     bool     // ForceRedrive rather than Redrive
}

func (h *harness) expectRedrive(task string) redriveWant {
	w := redriveWant{task: task, was: h.state[task]}
	switch {
	case !h.isTask(task):
		w.refusal = ErrUnknown
	case h.state[task] != Dead:
		w.refusal = ErrNotDead
	case h.poisoned(task):
		w.refusal = ErrPoisoned
	}
	// After the redrive, a BLOCKED task stays BLOCKED iff it still has a
	// DEAD transitive dependency.
	for _, b := range h.inState(Blocked) {
		still := false
		for _, u := range h.upstream(b) {
			if u != task && h.state[u] == Dead {
				still = true
			}
		}
		if !still {
			w.unblocked = append(w.unblocked, b)
		}
	}
	return w
}

// checkRedrive checks a redrive that returned err with the events evs
// (eerr: what takeEvents found wrong), and runs it on the quiet queue.
func (h *harness) checkRedrive(want redriveWant, err error, evs []Event, eerr error) error {
	call := fmt.Sprintf("Redrive(%q)", want.task)
	qredrive := h.quiet.Redrive
	if want.force {
		call, qredrive = fmt.Sprintf("ForceRedrive(%q)", want.task), h.quiet.ForceRedrive
	}
	if qerr := qredrive(want.task); errString(qerr) != errString(err) {
		return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
	}
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if refusal := want.refusal; refusal != nil {
		if !errors.Is(err, refusal) {
			return fmt.Errorf("%s = %v, want %v (task %s before)", call, err, refusal, orNone(want.was))
		}
		if len(evs) != 0 {
			return fmt.Errorf("%s refused with %v but delivered events %s", call, err, eventList(evs))
		}
		return nil // compare checks that it changed nothing
	}
	if err != nil {
		return fmt.Errorf("%s = %v, want it accepted", call, err)
	}
	if len(evs) == 0 || evs[0].Kind != EventRedriven || evs[0].Task != want.task {
		return fmt.Errorf("%s: first event is not Redriven %q: %s", call, want.task, eventList(evs))
	}
	var unblocked []string
	for _, e := range evs[1:] {
		switch e.Kind {
		case EventUnblocked:
			unblocked = append(unblocked, e.Task)
		case EventRerooted:
			if h.state[e.Root] != Dead {
				return fmt.Errorf("%s: %q rerooted to %q, which is %s", call, e.Task, e.Root, orNone(h.state[e.Root]))
			}
		default:
			return fmt.Errorf("%s: unexpected %s event: %s", call, e.Kind, eventList(evs))
		}
	}
	if err := sameSet(call+": tasks unblocked", unblocked, want.unblocked); err != nil {
		return fmt.Errorf("%v: %s", err, eventList(evs))
	}
	// The tasks are decided dependencies before dependents (so, along every
	// path of tasks it decides, upstream first).
	for i, x := range evs[1:] {
		for _, y := range evs[1+i+1:] {
			if x.Task == y.Task {
				return fmt.Errorf("%s decides %q twice: %s", call, x.Task, eventList(evs))
			}
			if slices.Contains(h.deps[x.Task], y.Task) {
				return fmt.Errorf("%s decides %q before its dependency %q: %s", call, x.Task, y.Task, eventList(evs))
			}
		}
	}
	return nil
}

// fixLastCycle returns the last submit refused for a cycle with the
// dependencies that close the cycle (and invalid ones) left out: it must be
// accepted.
func (h *harness) fixLastCycle() op {
	o := *h.lastCycle
	h.lastCycle = nil
	o.deps = slices.DeleteFunc(slices.Clone(o.deps), func(d string) bool {
		return d == o.task || !validName(d) || h.reaches(d, o.task)
	})
	return o
}

// ---- model queries ----

func (h *harness) isTask(t string) bool { return h.state[t] != "" }

func (h *harness) inState(s State) []string {
	var ts []string
	for _, t := range h.tasks {
		if h.state[t] == s {
			ts = append(ts, t)
		}
	}
	return ts
}

// reaches reports whether from transitively waits on to (or is to).
func (h *harness) reaches(from, to string) bool {
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
		return slices.ContainsFunc(h.deps[x], walk)
	}
	return walk(from)
}

// upstream returns t's transitive dependencies.
func (h *harness) upstream(t string) []string {
	var up []string
	var walk func(string)
	walk = func(x string) {
		for _, d := range h.deps[x] {
			if !slices.Contains(up, d) {
				up = append(up, d)
				walk(d)
			}
		}
	}
	walk(t)
	return up
}

// distances returns, for every task that transitively waits on t, the length
// of the shortest dependency path to t.
func (h *harness) distances(t string) map[string]int {
	dist := map[string]int{t: 0}
	for line := []string{t}; len(line) > 0; line = line[1:] {
		x := line[0]
		for _, w := range h.tasks {
			if _, seen := dist[w]; !seen && slices.Contains(h.deps[w], x) {
				dist[w] = dist[x] + 1
				line = append(line, w)
			}
		}
	}
	delete(dist, t)
	return dist
}

// waitersOf returns the tasks that transitively wait on t, in arrival order.
func (h *harness) waitersOf(t string) []string {
	dist := h.distances(t)
	var ws []string
	for _, w := range h.tasks {
		if _, ok := dist[w]; ok {
			ws = append(ws, w)
		}
	}
	return ws
}

// pendingDownstream returns the PENDING tasks that transitively wait on t.
func (h *harness) pendingDownstream(t string) []string {
	var ts []string
	for w := range h.distances(t) {
		if h.state[w] == Pending {
			ts = append(ts, w)
		}
	}
	return ts
}

// releasedBy returns the PENDING tasks whose last unfinished dependency is
// t, in arrival order.
func (h *harness) releasedBy(t string) []string {
	var ts []string
	for _, w := range h.tasks {
		if h.state[w] != Pending || !slices.Contains(h.deps[w], t) {
			continue
		}
		if !slices.ContainsFunc(h.deps[w], func(d string) bool { return d != t && h.state[d] != Succeeded }) {
			ts = append(ts, w)
		}
	}
	return ts
}

// nearestFirst checks that a blocking wave from root lists its tasks in
// order of distance from root.
func (h *harness) nearestFirst(root string, wave []string) error {
	dist := h.distances(root)
	for i := 1; i < len(wave); i++ {
		if dist[wave[i]] < dist[wave[i-1]] {
			return fmt.Errorf("blocking wave from %q is %q, not nearest first: %q is %d away, %q %d",
				root, wave, wave[i-1], dist[wave[i-1]], wave[i], dist[wave[i]])
		}
	}
	return nil
}

func (h *harness) describe(names []string) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = n + " " + orNone(h.state[n])
	}
	return strings.Join(s, ", ")
}

// compare checks the queue's public view against the model.
func (h *harness) compare() error {
	if got := h.q.Tasks(); !slices.Equal(got, h.tasks) {
		return fmt.Errorf("Tasks() = %q, want %q", got, h.tasks)
	}
	for _, n := range h.names {
		s, ok := h.q.Status(n)
		if s != h.state[n] || ok != h.isTask(n) {
			return fmt.Errorf("Status(%q) = %q, %v; the events say %s", n, s, ok, orNone(h.state[n]))
		}
	}
	for _, t := range h.tasks {
		if got := h.q.depsOf(t); !slices.Equal(got, h.deps[t]) {
			return fmt.Errorf("Deps(%q) = %q, want %q", t, got, h.deps[t])
		}
		l, ok := h.q.Lease(t)
		cur, running := h.current[t]
		if ok != running || l != cur {
			return fmt.Errorf("Lease(%q) = %+v, %v, want %+v, %v", t, l, ok, cur, running)
		}
	}
	if got := h.q.ReadyTasks(); !slices.Equal(got, h.fifo) {
		return fmt.Errorf("invariant 4: ReadyTasks() = %q, want %q, the order tasks became READY", got, h.fifo)
	}
	if got := briefLetters(h.q.DeadLetters()); !slices.Equal(got, h.dlq) {
		return fmt.Errorf("DeadLetters() = %+v, want %+v, in the order the events put them there", got, h.dlq)
	}
	for _, n := range h.names {
		if got, want := h.q.attemptsOf(n), h.attempts[n]; got != want {
			return fmt.Errorf("Attempts(%q) = %d, want %d", n, got, want)
		}
	}
	if err := h.compareTime(); err != nil {
		return err
	}
	if err := h.compareDLQ(); err != nil {
		return err
	}
	if got := h.q.Len(); got != len(h.tasks) {
		return fmt.Errorf("Len() = %d, want %d", got, len(h.tasks))
	}
	if got := h.q.Config().Strategy; got != h.strat {
		return fmt.Errorf("Strategy() = %q, want %q", got, h.strat)
	}
	if d := h.snapshot().diff(h.view(h.quiet)); d != "" {
		return fmt.Errorf("a queue without OnEvent differs after the same operations: %s", d)
	}
	return nil
}

// briefLetters keeps of each entry what the model folds from the events:
// Task, Reason, State, Root, Entered, Error and Poisoned (checkDeadLetters
// checks the rest).
func briefLetters(dl []DeadLetter) []DeadLetter {
	out := make([]DeadLetter, len(dl))
	for i, d := range dl {
		out[i] = DeadLetter{Task: d.Task, Reason: d.Reason, State: d.State, Root: d.Root, Entered: d.Entered,
			Error: d.Error, Poisoned: d.Poisoned}
	}
	return out
}

// snapshot is the queue's public view, to check that refused operations
// change nothing.
type snapshot struct {
	tasks, ready []string
	dlq          []DeadLetter
	names        []nameView // per name any operation used
	now          time.Duration
	next         time.Duration // NextTimer, -1 if none
}

// nameView is what the queue says about one name.
type nameView struct {
	name     string
	state    State
	known    bool
	deps     []string
	lease    Lease
	leaseOK  bool
	attempts int
	timer    time.Duration // Timer, -1 if none
}

func (v nameView) equal(w nameView) bool {
	return v.name == w.name && v.state == w.state && v.known == w.known &&
		slices.Equal(v.deps, w.deps) && v.lease == w.lease && v.leaseOK == w.leaseOK &&
		v.attempts == w.attempts && v.timer == w.timer
}

func (h *harness) snapshot() snapshot { return h.view(h.q) }

func (h *harness) view(q *Queue) snapshot {
	s := snapshot{tasks: q.Tasks(), ready: q.ReadyTasks(), dlq: q.DeadLetters(),
		names: make([]nameView, len(h.names)), now: q.Now(), next: -1}
	if at, ok := q.NextTimer(); ok {
		s.next = at
	}
	for i, n := range h.names {
		v := nameView{name: n, deps: q.depsOf(n), attempts: q.attemptsOf(n), timer: -1}
		if at, ok := q.timerAt(n); ok {
			v.timer = at
		}
		v.state, v.known = q.Status(n)
		v.lease, v.leaseOK = q.Lease(n)
		s.names[i] = v
	}
	return s
}

// diff describes how b differs from a, or returns "".
func (a snapshot) diff(b snapshot) string {
	var d []string
	if !slices.Equal(a.tasks, b.tasks) {
		d = append(d, fmt.Sprintf("Tasks %q → %q", a.tasks, b.tasks))
	}
	if !slices.Equal(a.ready, b.ready) {
		d = append(d, fmt.Sprintf("ReadyTasks %q → %q", a.ready, b.ready))
	}
	if !slices.Equal(a.dlq, b.dlq) {
		d = append(d, fmt.Sprintf("DeadLetters %+v → %+v", a.dlq, b.dlq))
	}
	if a.now != b.now || a.next != b.next {
		d = append(d, fmt.Sprintf("Now, NextTimer %v, %v → %v, %v", a.now, a.next, b.now, b.next))
	}
	for i := range min(len(a.names), len(b.names)) {
		if !a.names[i].equal(b.names[i]) {
			d = append(d, fmt.Sprintf("%+v → %+v", a.names[i], b.names[i]))
		}
	}
	return strings.Join(d, "; ")
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func dedup(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// sameSet reports whether got and want hold the same names, each once.
func sameSet(what string, got, want []string) error {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		return fmt.Errorf("%s: %q, want %q", what, got, want)
	}
	return nil
}
