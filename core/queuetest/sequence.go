package queuetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// baseSeed is the fixed seed every sequence's seed derives from.
const baseSeed = 0x7175_6575_6574_6573 // "queuetes"

// sequenceSeed derives the seed of the i-th sequence from the base seed.
func sequenceSeed(i int) uint64 {
	s := rand.New(rand.NewPCG(baseSeed, uint64(i))).Uint64()
	if s == 0 { // 0 means "no seed given"
		s = 1
	}
	return s
}

// sequence is one random operation sequence: the configuration its queues
// are opened with and the operations, generated as it runs.
type sequence struct {
	seed uint64
	cfg  core.Config
	ops  []op
}

// randomConfig picks a configuration: 1 to 3 attempts, any strategy, and a
// quarter each with neither leases nor backoff, leases only, backoff only,
// and both (the backoff with a random base, factor, cap, jitter and seed);
// a third of them with a poison-pill cap.
func randomConfig(r *rand.Rand) core.Config {
	strategies := incremental.Names()
	cfg := core.Config{MaxAttempts: 1 + r.IntN(3), Strategy: strategies[r.IntN(len(strategies))]}
	mode := r.IntN(4)
	if mode&1 != 0 {
		cfg.LeaseTimeout = []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}[r.IntN(4)]
	}
	if mode&2 != 0 {
		b := &cfg.Backoff
		b.Base = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}[r.IntN(3)]
		b.Factor = []float64{0, 1, 1.5, 2, 3}[r.IntN(5)]
		b.Max = []time.Duration{0, b.Base, 4 * b.Base, 20 * time.Second}[r.IntN(4)]
		b.Jitter = core.Jitter(r.IntN(3))
		b.Seed = r.Uint64()
	}
	if r.IntN(3) == 0 {
		cfg.PoisonAfter = 1 + r.IntN(2)
	}
	return cfg
}

// runSequence generates and runs the sequence of one seed, length
// operations long, on an implementation and the reference side by side.
// On failure it returns the sequence so far and the error.
func runSequence(t testing.TB, open Open, seed uint64, length int) (sequence, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	seq := sequence{seed: seed, cfg: randomConfig(r)}
	p, err := openPair(t, open, seq.cfg)
	if err != nil {
		return seq, err
	}
	g := &generator{r: r, m: p.ref.m, nextTimer: p.refQ.NextTimer, pool: poolNames(4 + r.IntN(9))}
	for range length {
		o := g.next()
		seq.ops = append(seq.ops, o)
		if err := p.step(o); err != nil {
			return seq, fmt.Errorf("operation %d (%s): %v", len(seq.ops), o, err)
		}
	}
	return seq, nil
}

// replay runs ops on a fresh pair and returns the first failure.
func replay(t testing.TB, open Open, cfg core.Config, ops []op) error {
	p, err := openPair(t, open, cfg)
	if err != nil {
		return err
	}
	return runOps(ops, p.step)
}

// runOps runs ops with step and returns the first failure, naming the
// operation.
func runOps(ops []op, step func(op) error) error {
	for i, o := range ops {
		if err := step(o); err != nil {
			return fmt.Errorf("operation %d (%s): %v", i+1, o, err)
		}
	}
	return nil
}

// shrink removes operations as long as the sequence still fails (see
// shrinkOps). It stops improving after budget replays (each opens two
// queues) or a minute, whichever comes first.
func shrink(t testing.TB, open Open, cfg core.Config, ops []op, budget int) []op {
	deadline := time.Now().Add(time.Minute)
	return shrinkOps(ops, func(cand []op) bool {
		if budget <= 0 || time.Now().After(deadline) {
			return false
		}
		budget--
		return replay(t, open, cfg, cand) != nil
	})
}

// shrinkOps removes operations as long as fails says the sequence still
// fails: halves, quarters, … of it, then single operations, then
// dependencies of submits, then tasks of batches and their dependencies.
func shrinkOps(ops []op, fails func([]op) bool) []op {
	for chunk := len(ops) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(ops); {
			if cand := slices.Delete(slices.Clone(ops), i, i+chunk); fails(cand) {
				ops = cand
			} else {
				i += chunk
			}
		}
	}
	for i := range ops {
		for j := 0; j < len(ops[i].deps); j++ {
			cand := slices.Clone(ops)
			cand[i].deps = slices.Delete(slices.Clone(ops[i].deps), j, j+1)
			if fails(cand) {
				ops = cand
				j--
			}
		}
		for j := 0; j < len(ops[i].batch); j++ {
			cand := slices.Clone(ops)
			cand[i].batch = slices.Delete(slices.Clone(ops[i].batch), j, j+1)
			if fails(cand) {
				ops = cand
				j--
				continue
			}
			for k := 0; k < len(ops[i].batch[j].Deps); k++ {
				cand := slices.Clone(ops)
				cand[i].batch = slices.Clone(ops[i].batch)
				cand[i].batch[j].Deps = slices.Delete(slices.Clone(ops[i].batch[j].Deps), k, k+1)
				if fails(cand) {
					ops = cand
					k--
				}
			}
		}
	}
	return ops
}

// script writes a sequence as a scenario: its configuration, then one
// operation a line.
func script(cfg core.Config, ops []op) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tattempts %d\n", cfg.MaxAttempts)
	if cfg.Strategy != "" {
		fmt.Fprintf(&b, "\tstrategy %s\n", cfg.Strategy)
	}
	if cfg.LeaseTimeout > 0 {
		fmt.Fprintf(&b, "\tlease %v\n", cfg.LeaseTimeout)
	}
	if bo := cfg.Backoff; bo.Base > 0 {
		fmt.Fprintf(&b, "\tbackoff %v %v %v\n\tjitter %s %d\n", bo.Base, bo.Factor, bo.Max, bo.Jitter, bo.Seed)
	}
	if cfg.PoisonAfter > 0 {
		fmt.Fprintf(&b, "\tpoison %d\n", cfg.PoisonAfter)
	}
	if a := cfg.Alert; a.Entries > 0 {
		fmt.Fprintf(&b, "\talert %d %v\n", a.Entries, a.Window)
	}
	for _, o := range ops {
		fmt.Fprintf(&b, "\t%s\n", o)
	}
	return b.String()
}

func poolNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	return names
}

// generator makes random operations, looking at the reference's model to
// make the interesting ones likely: leases of running tasks, redrives of
// dead tasks, submits that close cycles and then the same submits without
// the closing edges, advances of the clock exactly to a timer or just
// short of it.
type generator struct {
	r         *rand.Rand
	m         *model                       // the reference's
	nextTimer func() (time.Duration, bool) // the reference's NextTimer
	pool      []string
	lastCycle *op // the last submit that closed a cycle, until fixed
}

// maxPool is the most names a sequence uses: each costs a Status per
// operation.
const maxPool = 16

var failMessages = []string{"boom", "HTTP 503", "timeout: 30s"}

func (g *generator) next() op {
	r, m := g.r, g.m
	if g.lastCycle != nil && r.IntN(2) == 0 {
		o := *g.lastCycle
		g.lastCycle = nil
		o.deps = slices.DeleteFunc(slices.Clone(o.deps), func(d string) bool {
			return d == o.task || d == "" || m.reaches(d, o.task, nil)
		})
		return o
	}
	// Weights in percent: submit 35, next 25, complete 15, fail 15, redrive
	// 10; besides, one in six an advance of the clock or a heartbeat.
	if r.IntN(6) == 0 {
		if r.IntN(3) == 0 {
			return op{kind: opHeartbeat, task: g.leaseTask(), lease: g.leaseRef()}
		}
		return g.advance()
	}
	n := r.IntN(100)
	if n < 35 && len(g.pool) == maxPool && len(m.tasks) == maxPool && r.IntN(4) != 0 {
		n = 35 + r.IntN(65) // every name is a task: anything but a submit, mostly
	}
	if n >= 60 && n < 90 && len(m.inState(core.Running)) == 0 && r.IntN(4) != 0 {
		n = 40 // nothing is RUNNING: a hand-out, mostly, rather than a refusal
	}
	switch {
	case n < 35:
		return g.submit()
	case n < 60:
		return op{kind: opNext}
	case n < 75:
		return op{kind: opComplete, task: g.leaseTask(), lease: g.leaseRef()}
	case n < 90:
		return op{kind: opFail, task: g.leaseTask(), lease: g.leaseRef(),
			permanent: r.IntN(4) == 0, msg: failMessages[r.IntN(len(failMessages))]}
	default:
		task := g.any()
		if dead := m.inState(core.Dead); len(dead) > 0 && r.IntN(10) < 7 {
			task = dead[r.IntN(len(dead))]
		}
		return op{kind: opRedrive, task: task}
	}
}

func (g *generator) any() string { return g.pool[g.r.IntN(len(g.pool))] }

// advance moves the clock: often exactly to the next timer or just short of
// it (where ties and boundaries are), else by a random step, now and then
// backwards (refused) or not at all.
func (g *generator) advance() op {
	r, now := g.r, g.m.now
	at, ok := g.nextTimer()
	switch n := r.IntN(100); {
	case n < 30:
		if ok {
			return op{kind: opAdvance, dur: at - now}
		}
	case n < 40:
		if ok {
			return op{kind: opAdvance, dur: at - now - 1}
		}
	case n < 44:
		return op{kind: opAdvance, dur: -time.Second}
	case n < 50:
		return op{kind: opAdvance, dur: 0}
	}
	steps := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}
	return op{kind: opAdvance, dur: steps[r.IntN(len(steps))]}
}

// submit makes a submit of a new name mostly, waiting on up to three
// names: a task already waiting on it (closing a cycle), itself, the empty
// name (refused), a duplicate, or any name.
func (g *generator) submit() op {
	r, m := g.r, g.m
	t := g.any()
	fresh := slices.DeleteFunc(slices.Clone(g.pool), m.isTask)
	if len(fresh) == 0 && len(g.pool) < maxPool {
		// Every name is a task: a new name, so that a long sequence keeps
		// submitting rather than being refused as a duplicate.
		g.pool = poolNames(len(g.pool) + 1)
		fresh = g.pool[len(g.pool)-1:]
	}
	if len(fresh) > 0 && r.IntN(4) != 0 {
		t = fresh[r.IntN(len(fresh))]
	}
	if r.IntN(100) == 0 {
		t = ""
	}
	waiters := m.waitersOf(t)
	var deps []string
	for range r.IntN(4) {
		switch n := r.IntN(100); {
		case n < 5:
			deps = append(deps, t)
		case n < 25 && len(waiters) > 0:
			deps = append(deps, waiters[r.IntN(len(waiters))])
		case n < 26:
			deps = append(deps, "")
		case n < 35 && len(deps) > 0:
			deps = append(deps, deps[r.IntN(len(deps))])
		default:
			deps = append(deps, g.any())
		}
	}
	o := op{kind: opSubmit, task: t, deps: deps}
	if t != "" && !m.isTask(t) && slices.ContainsFunc(deps, func(d string) bool { return m.reaches(d, t, nil) }) {
		g.lastCycle = &o
	}
	return o
}

// leaseTask is a RUNNING task three times in four, else any name.
func (g *generator) leaseTask() string {
	if running := g.m.inState(core.Running); len(running) > 0 && g.r.IntN(4) != 0 {
		return running[g.r.IntN(len(running))]
	}
	return g.any()
}

// leaseRef is the current lease mostly, else a stale, forged, borrowed,
// tampered or expired one.
func (g *generator) leaseRef() leaseRef {
	r := g.r
	switch n := r.IntN(100); {
	case n < 80:
		return leaseRef{kind: leaseCurrent}
	case n < 88:
		return leaseRef{kind: leaseNth, n: 1 + r.IntN(4)}
	case n < 91:
		return leaseRef{kind: leaseForged, n: r.IntN(3)}
	case n < 94:
		return leaseRef{kind: leaseOther, other: g.any()}
	case n < 97:
		return leaseRef{kind: leaseExpired, n: r.IntN(3)}
	}
	return leaseRef{kind: leaseTampered}
}
