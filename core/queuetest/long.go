package queuetest

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

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
