package queuetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// RunLevel holds a candidate's queue to the rules of a level, each part a
// subtest of t named after the level:
//
//   - the ladder: the rules of each level up to this one, easiest first,
//     each on a short script (L4/ReadyAtOnce, L4/FirstInFirstOut, …,
//     L5/DeathBlocksDownstream, …); after the first rule the queue breaks,
//     the others are skipped, so the first failure is the one to fix;
//   - RandomSequences: once the ladder passes, random operation sequences
//     of the level (150 of 80 operations; 40 of 60 with -short;
//     -queuetest.sequences sets how many), from fixed seeds.
//
// Every operation runs on the candidate's queue and on dagq's (core.New)
// side by side, and the two are compared after each: accepted or refused
// (any error is a refusal), the lease Next hands out (Task and Attempt;
// from L6 Deadline), the state of every name used, and from L5 the
// dead-letter queue (see [L5Queue], [L6Queue]).
//
// A failure is a [*Failure]: the rule broken, and the smallest script
// that breaks the queue — the failing sequence shrunk, operation by
// operation, while it still fails — written in the scenario language with
// an expect line for each state dagq's queue has, and a link that opens it
// in the playground. -queuetest.seed=N replays one random sequence.
//
// open makes a fresh, empty queue under the settings; at L5 what it
// returns must be an [L5Queue], at L6 an [L6Queue]. A ladder rung costs
// one queue and a few operations; a random sequence one queue, plus at
// most 2,000 more (one per replay) while a failing one is shrunk. Each operation reads the
// state of every name used (at most 8) and, from L5, the dead-letter
// queue.
func RunLevel[Q L4Queue](t *testing.T, level Level, open func(Settings) Q) {
	t.Helper()
	if !slices.Contains(Levels(), level) {
		t.Fatalf("queuetest: level %d: want L4, L5 or L6", int(level))
	}
	var first string
	for _, c := range levelCases {
		if c.level > level {
			continue
		}
		t.Run(c.level.String()+"/"+c.name, func(t *testing.T) {
			t.Helper()
			if first != "" {
				t.Skipf("fix %s first", first)
			}
			if err := checkCase(level, c, open); err != nil {
				first = c.level.String() + "/" + c.name
				t.Fatal(err)
			}
		})
	}
	t.Run(level.String()+"/RandomSequences", func(t *testing.T) {
		t.Helper()
		if first != "" {
			t.Skipf("fix %s first", first)
		}
		seeds, err := levelSeeds(level)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds {
			if err := checkSequence(level, s, sequenceLength(), open); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%d sequences of up to %d operations", len(seeds), sequenceLength())
	})
}

// CheckLevel is RunLevel without a test: the first rule the queue breaks,
// as a [*Failure], or an error if open does not make a queue of the level;
// nil if it passes the ladder and the random sequences.
func CheckLevel[Q L4Queue](level Level, open func(Settings) Q) error {
	if !slices.Contains(Levels(), level) {
		return fmt.Errorf("queuetest: level %d: want L4, L5 or L6", int(level))
	}
	for _, c := range levelCases {
		if c.level <= level {
			if err := checkCase(level, c, open); err != nil {
				return err
			}
		}
	}
	seeds, err := levelSeeds(level)
	if err != nil {
		return err
	}
	for _, s := range seeds {
		if err := checkSequence(level, s, sequenceLength(), open); err != nil {
			return err
		}
	}
	return nil
}

func sequenceLength() int {
	if testing.Testing() && testing.Short() {
		return 60
	}
	return 80
}

// levelSeeds are the seeds of a level's random sequences, or the one
// -queuetest.seed replays.
func levelSeeds(level Level) ([]uint64, error) {
	if s, err := replaySeed(); err != nil || s != 0 {
		return []uint64{s}, err
	}
	n := 150
	if testing.Testing() && testing.Short() {
		n = 40
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = levelSeed(level, i)
	}
	return seeds, nil
}

// checkCase runs one rung of the ladder at level.
func checkCase[Q L4Queue](level Level, c levelCase, open func(Settings) Q) error {
	var ops []levelOp
	for _, line := range strings.Split(c.script, "\n") {
		o, err := parseLevelOp(line)
		if err != nil {
			return err
		}
		ops = append(ops, o)
	}
	at, d, err := replayLevel(level, c.set, ops, open)
	if err != nil || d == nil {
		return err
	}
	f := &Failure{Level: level, Test: c.level.String() + "/" + c.name, Rule: c.rule, Settings: c.set, Original: at + 1}
	return fill(f, level, ops[:at+1], open)
}

// checkSequence generates and runs the random sequence of one seed.
func checkSequence[Q L4Queue](level Level, seed uint64, length int, open func(Settings) Q) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	set := levelSettings(level, r)
	p, err := newLevelPair(level, set, open)
	if err != nil {
		return err
	}
	g := &levelGen{level: level, r: r, p: p, pool: poolNames(4 + r.IntN(5))}
	var ops []levelOp
	for range length {
		o := g.next()
		ops = append(ops, o)
		d, err := p.step(o)
		if err != nil {
			return fmt.Errorf("queuetest: seed %d: %s: %v", seed, o, err)
		}
		if d != nil {
			f := &Failure{Level: level, Test: level.String() + "/RandomSequences", Seed: seed, Settings: set, Original: len(ops)}
			f.Rule = hint(o)
			f.Settings, ops = simplify(level, set, shrinkLevel(level, set, ops, open), open)
			return fill(f, level, ops, open)
		}
	}
	return nil
}

// replayLevel runs ops on a fresh pair and returns the index of the first
// operation after which the two queues differ, and how; a nil diff if they
// never do. An operation naming a lease never handed out is errInvalid.
func replayLevel[Q L4Queue](level Level, set Settings, ops []levelOp, open func(Settings) Q) (int, *levelDiff, error) {
	p, err := newLevelPair(level, set, open)
	if err != nil {
		return 0, nil, err
	}
	for i, o := range ops {
		d, err := p.step(o)
		if err != nil || d != nil {
			return i, d, err
		}
	}
	return len(ops), nil, nil
}

// shrinkLevel removes operations from a failing sequence as long as it
// still fails: halves, quarters, … of it, then single operations, then
// dependencies of submits; at most 2,000 replays. The sequence ends at the
// operation that fails.
func shrinkLevel[Q L4Queue](level Level, set Settings, ops []levelOp, open func(Settings) Q) []levelOp {
	budget := 2000
	fails := func(cand []levelOp) ([]levelOp, bool) {
		if budget <= 0 {
			return nil, false
		}
		budget--
		at, d, err := replayLevel(level, set, cand, open)
		if err != nil || d == nil {
			return nil, false
		}
		return cand[:at+1], true
	}
	if cut, ok := fails(ops); ok {
		ops = cut
	}
	for chunk := len(ops) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(ops); {
			if cut, ok := fails(slices.Delete(slices.Clone(ops), i, i+chunk)); ok {
				ops = cut
			} else {
				i += chunk
			}
		}
	}
	for i := 0; i < len(ops); i++ {
		for j := 0; j < len(ops[i].deps); j++ {
			cand := slices.Clone(ops)
			cand[i].deps = slices.Delete(slices.Clone(ops[i].deps), j, j+1)
			if cut, ok := fails(cand); ok && len(cut) == len(ops) {
				ops = cut
				j--
			}
		}
	}
	return ops
}

// simplify drops what a shrunk sequence does not need of its settings:
// the leases, the backoff, attempts; each change kept if the sequence
// still fails, shrunk again.
func simplify[Q L4Queue](level Level, set Settings, ops []levelOp, open func(Settings) Q) (Settings, []levelOp) {
	var tries []func(Settings) Settings
	tries = append(tries,
		func(s Settings) Settings { s.LeaseTimeout = 0; return s },
		func(s Settings) Settings { s.Backoff = core.Backoff{}; return s })
	for range set.MaxAttempts - 1 {
		tries = append(tries, func(s Settings) Settings { s.MaxAttempts--; return s })
	}
	for _, try := range tries {
		next := try(set)
		if next == set {
			continue
		}
		if _, d, err := replayLevel(level, next, ops, open); err == nil && d != nil {
			set, ops = next, shrinkLevel(level, next, ops, open)
		}
	}
	return set, ops
}

// hint is the rule a random sequence's failing operation is about.
func hint(o levelOp) string {
	switch {
	case o.kind == opSubmit:
		return "A submit is refused when the task exists, waits on itself or closes a loop, and only then; it arrives READY, PENDING or (from L5) BLOCKED."
	case o.kind == opNext:
		return "Next hands out the front of the READY line: first in, first out, a retry at the back."
	case o.kind == opComplete && o.attempt > 0, o.kind == opHeartbeat:
		return "Only the current, unexpired lease of a RUNNING task can heartbeat, complete or fail it."
	case o.kind == opComplete:
		return "Complete releases each task whose last unfinished dependency it was, in the order they were submitted."
	case o.kind == opFail:
		return "A failure with attempts left is retried at the back (DELAYED under a backoff); at the last attempt, or a permanent error, it is DEAD, and from L5 everything downstream is BLOCKED by it."
	case o.kind == opRedrive:
		return "Redrive gives a DEAD task fresh attempts and decides what it held, dependencies first: released, or BLOCKED by another dead root."
	case o.kind == opAdvance:
		return "Advance fires every deadline and due time on the way, in order of time, each at its own time; an expiry is a failure with \"lease expired\"."
	}
	return "A bulk redrive redrives the DEAD tasks whose error contains the text, in the order of the dead-letter queue; matching none, it is refused."
}

// errNoFailure is a failing sequence that no longer fails when replayed: a
// queue that is not a function of its operations (it keeps state between
// queues, or reads the wall clock).
var errNoFailure = errors.New("queuetest: the failing sequence passes when replayed on a fresh queue: does your queue share state between queues, or read the time?")
