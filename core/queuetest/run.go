package queuetest

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

var (
	seedFlag = flag.Uint64("queuetest.seed", 0,
		"run only the random operation sequence with this seed, as a failing RandomSequences prints it (or set "+seedEnv+")")
	sequencesFlag = flag.Int("queuetest.sequences", 0,
		"how many random operation sequences RandomSequences runs (default 30, 8 with -short)")
)

// seedEnv replays one sequence, as -queuetest.seed does, where flags cannot
// be passed.
const seedEnv = "DAGQ_QUEUETEST_SEED"

// runner is what the suite needs of a *testing.T: a testing.TB that runs
// subtests. The suite's own tests pass a recorder instead, to see that it
// fails a wrong queue.
type runner interface {
	testing.TB
	sub(name string, f func(r runner)) bool
}

// tRunner is a *testing.T as a runner.
type tRunner struct{ *testing.T }

func (t tRunner) sub(name string, f func(r runner)) bool {
	return t.T.Run(name, func(t *testing.T) { f(tRunner{t}) })
}

// Run runs the whole suite against open, each part a subtest:
//
//   - StateTable, Cycles and TimeTable: the rules of DESIGN.md as table
//     cases, each on a queue of its own — every transition of the state
//     machine, FIFO and retries at the back, blocking waves nearest first
//     with their root, redrive releasing and rerooting, cycles refused with
//     their path, leases expiring once at their deadline, heartbeats, stale
//     and expired leases fenced, backoff with seeded jitter, permanent
//     errors, and every refusal changing nothing;
//   - RandomSequences: seeded random operation sequences (30 of 200
//     operations; 8 of 60 with -short; -queuetest.sequences sets how many)
//     run on a queue from open and on core.New side by side;
//   - ManyTimers: one long sequence that keeps dozens of leases and due
//     times live at once;
//   - LongLine: one long sequence that keeps the READY line long and the
//     dead-letter queue busy.
//
// Every operation, in every part, is checked on the queue under test by
// itself: its result and events against what a model folded from its
// earlier events predicts, and its reads against the invariants of
// DESIGN.md (see the package documentation). In the sequences the two
// queues are compared besides, after every operation.
//
// A failing sequence is shrunk (within a budget of replays) and reported
// with its seed, its configuration and its operations as a scenario;
// -queuetest.seed=N, or DAGQ_QUEUETEST_SEED=N, runs that sequence alone.
func Run(t *testing.T, open Open) {
	t.Helper()
	run(tRunner{t}, open)
}

// run is Run on any runner.
func run(r runner, open Open) {
	r.sub("StateTable", func(r runner) { runTable(r, open, stateCases) })
	r.sub("Cycles", func(r runner) { runTable(r, open, cycleCases) })
	r.sub("TimeTable", func(r runner) { runTable(r, open, timeCases) })
	r.sub("RandomSequences", func(r runner) { runSequences(r, open) })
	r.sub("ManyTimers", func(r runner) { runManyTimers(r, open) })
	r.sub("LongLine", func(r runner) { runLongLine(r, open) })
}

// replaySeed returns the seed to replay, from the flag or the environment;
// 0 if none.
func replaySeed() (uint64, error) {
	if *seedFlag != 0 {
		return *seedFlag, nil
	}
	if v := os.Getenv(seedEnv); v != "" {
		s, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("%s=%q: %v", seedEnv, v, err)
		}
		return s, nil
	}
	return 0, nil
}

func runSequences(r runner, open Open) {
	r.Helper()
	n, length := 30, 200
	if testing.Short() {
		n, length = 8, 60
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	seed, err := replaySeed()
	if err != nil {
		r.Fatal(err)
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = sequenceSeed(i)
	}
	if seed != 0 {
		seeds = []uint64{seed}
		r.Logf("replaying the sequence of seed %d", seed)
	}
	start := time.Now()
	ops := 0
	for _, s := range seeds {
		seq, err := runSequence(r, open, s, length)
		ops += len(seq.ops)
		if err != nil {
			r.Fatal(report(r, open, seq, err))
		}
	}
	plural := "s"
	if len(seeds) == 1 {
		plural = ""
	}
	r.Logf("%d sequence%s, %d operations, in %v", len(seeds), plural, ops, time.Since(start).Round(time.Millisecond))
}

// report shrinks a failing sequence and describes it, with how to run it
// again.
func report(r runner, open Open, seq sequence, err error) string {
	small := shrink(r, open, seq.cfg, seq.ops, 300)
	smallErr := replay(r, open, seq.cfg, small)
	return fmt.Sprintf("sequence of seed %d: %v\n"+
		"a shorter sequence, %d operations, fails with: %v\n%s"+
		"rerun it: go test -run '%s' -queuetest.seed=%d (or %s=%d)",
		seq.seed, err, len(small), orNil(smallErr), script(seq.cfg, small), r.Name(), seq.seed, seedEnv, seq.seed)
}

// runManyTimers keeps many timers live at once, which the random
// sequences' small pools cannot: forty tasks (some waiting on others, so
// that expiries at the last attempt block and redrives release), most of
// them RUNNING or DELAYED, heartbeated, expiring and falling due in every
// order, ties included, under leases and a fully jittered backoff.
func runManyTimers(r runner, open Open) {
	r.Helper()
	rng := rand.New(rand.NewPCG(baseSeed, 0x71_3e55))
	cfg := core.Config{MaxAttempts: 3, LeaseTimeout: 10 * time.Second,
		Backoff: core.Backoff{Base: time.Second, Factor: 2, Max: 8 * time.Second, Jitter: core.JitterFull, Seed: 5}}
	p, err := openPair(r, open, cfg)
	if err != nil {
		r.Fatal(err)
	}
	var ops []op
	step := func(o op) {
		r.Helper()
		ops = append(ops, o)
		if err := p.step(o); err != nil {
			r.Fatalf("operation %d (%s): %v\nthe sequence:\n%s", len(ops), o, err, script(cfg, ops))
		}
	}
	names := make([]string, 40)
	for i := range names {
		names[i] = fmt.Sprintf("t%02d", i)
		var deps []string
		if i%4 == 3 {
			deps = []string{names[i-1], names[i-3]}
		}
		step(op{kind: opSubmit, task: names[i], deps: deps})
	}
	rounds := 600
	if testing.Short() {
		rounds = 200
	}
	maxTimers := 0
	m := p.ref.m
	for range rounds {
		maxTimers = max(maxTimers, len(m.timers))
		running := m.inState(core.Running)
		switch k := rng.IntN(100); {
		case k < 40:
			step(op{kind: opNext})
		case k < 52 && len(running) > 0:
			step(op{kind: opHeartbeat, task: running[rng.IntN(len(running))]})
		case k < 56 && len(running) > 0:
			step(op{kind: opComplete, task: running[rng.IntN(len(running))]})
		case k < 61 && len(running) > 0:
			step(op{kind: opFail, task: running[rng.IntN(len(running))], msg: "HTTP 503", permanent: rng.IntN(5) == 0})
		case k < 65:
			kind := []leaseKind{leaseNth, leaseExpired}[rng.IntN(2)]
			step(op{kind: opComplete, task: names[rng.IntN(len(names))], lease: leaseRef{kind: kind, n: rng.IntN(3)}})
		case k < 70:
			if dead := m.inState(core.Dead); len(dead) > 0 {
				step(op{kind: opRedrive, task: dead[rng.IntN(len(dead))]})
			}
		case k < 78:
			if at, ok := p.refQ.NextTimer(); ok {
				step(op{kind: opAdvance, dur: at - m.now})
			}
		default:
			step(op{kind: opAdvance, dur: time.Duration(rng.IntN(2000)) * time.Millisecond})
		}
	}
	r.Logf("%d operations, at most %d timers live at once", len(ops), maxTimers)
	if maxTimers < 20 {
		r.Errorf("at most %d timers were live at once, want many", maxTimers)
	}
}

// runLongLine keeps the READY line long and the dead-letter queue busy for
// a long sequence: eight tasks, each with two tasks waiting on it, handed
// out and failed over and over (one failure in four permanent), dead ones
// redriven. The line never empties, so the queue must keep its order over
// many hundred hand-outs, and hundreds of tasks enter and leave the
// dead-letter queue, blocking and releasing their waiters.
func runLongLine(r runner, open Open) {
	r.Helper()
	rng := rand.New(rand.NewPCG(baseSeed, 0x10_6c1e))
	cfg := core.Config{MaxAttempts: 2}
	p, err := openPair(r, open, cfg)
	if err != nil {
		r.Fatal(err)
	}
	var ops []op
	step := func(o op) {
		r.Helper()
		ops = append(ops, o)
		if err := p.step(o); err != nil {
			r.Fatalf("operation %d (%s): %v\nthe sequence:\n%s", len(ops), o, err, script(cfg, ops))
		}
	}
	for _, x := range poolNames(8) {
		step(op{kind: opSubmit, task: x + ".waiter1", deps: []string{x}})
		step(op{kind: opSubmit, task: x})
		step(op{kind: opSubmit, task: x + ".waiter2", deps: []string{x + ".waiter1", x}})
	}
	rounds := 600
	if testing.Short() {
		rounds = 200
	}
	m := p.ref.m
	entered := 0
	for range rounds {
		if len(m.fifo) < 4 {
			r.Fatalf("the READY line is down to %q", m.fifo)
		}
		running := m.fifo[0]
		step(op{kind: opNext})
		before := len(m.dlq)
		step(op{kind: opFail, task: running, permanent: rng.IntN(4) == 0, msg: "boom"})
		entered += max(0, len(m.dlq)-before)
		if dead := m.inState(core.Dead); len(dead) > 2 || (len(dead) > 0 && rng.IntN(2) == 0) {
			step(op{kind: opRedrive, task: dead[rng.IntN(len(dead))]})
		}
	}
	r.Logf("%d operations, %d entries into the dead-letter queue", len(ops), entered)
	if entered < rounds/4 {
		r.Errorf("only %d entries into the dead-letter queue in %d rounds, want many", entered, rounds)
	}
}
