package queuetest

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
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
//   - StateTable, Cycles and TimeTable: the rules of [core] as table
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
// [core] (see the package documentation). In the sequences the two
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
