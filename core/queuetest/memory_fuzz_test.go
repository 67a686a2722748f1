package queuetest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// FuzzMemoryOps reads the fuzz input as a sequence of operations over the names
// a–f and runs it, with every strategy, through the checks of
// TestMemoryRandomSequences after every operation.
//
// The input is readable text; spaces are skipped. The first byte is the
// number of attempts and the clock's configuration: '1', '2' or '3'
// attempts with neither leases nor backoff; '4', '5', '6' for 1, 2, 3
// attempts with leases of 10s and a backoff of 1s doubling up to 4s; '7',
// '8', '9' the same with full jitter (seed 7). Any other byte b: 1 + b%3
// attempts and the (b/3%3)-th of those three clocks; an upper-case letter
// also sets a poison-pill cap of 1 and an alert at 2 entries within 5s.
// Then come commands,
// one byte each, most followed by a name byte ('a'–'f'; any other byte b
// names the (b%6)-th):
//
//	d X   add X to the dependencies of the next submit
//	i     add the empty (invalid) name to them
//	s X   submit X with those dependencies, and start a new list
//	n     next
//	c X   complete X's current lease (its latest if it is not running)
//	o X   complete with a stale lease of X
//	w X   complete X with another running task's lease id
//	x X   complete X with a lease id never handed out
//	t X   complete X with its current lease id but another attempt number
//	f X   fail X's current lease with "boom"
//	p X   fail X's current lease permanently
//	q X   fail with a stale lease of X
//	r X   redrive X
//	k     resubmit the last submit refused for a cycle without the
//	      dependencies that close it (it must be accepted)
//	u X   add X, with those dependencies, to the next batch, and start a
//	      new list
//	b     SubmitBatch the batch (perhaps empty), and start a new one; a
//	      batch still open at the end is submitted too
//	h X   heartbeat X's current lease (its latest if it is not running)
//	e X   complete X with a lease of it that expired
//	v     advance the clock by 1s
//	l     advance the clock by 10s
//	m     advance the clock to the next timer (by 0 if none)
//	g     redrive matching "boom", at once (its preview checked)
//	j     redrive the group "boom" at 1 per second
//	y     cancel the redrive in progress
//	z X   force the redrive of X
//
// Any other command byte b means the (b%25)-th command above.
//
// For example "1 sa da sb da sc db dc sd n fa ra" is a diamond, d over b and
// c over a, where a dies at its only attempt, blocking b, c and d, and is
// redriven, releasing them; "1 db ua dc ub da uc b" is a batch whose tasks
// wait on each other in a cycle, refused whole; "6 sa db sb n l ea m n l"
// is a lease that expires, is refused as expired, and whose retry falls
// due and expires again.
func FuzzMemoryOps(f *testing.F) {
	f.Add([]byte("1 sa da sb da sc db dc sd n fa ra n ca n cb n cc n cd"))
	f.Add([]byte("db sa dc sb da sc k"))
	f.Add([]byte("2 db ua dc ub uc b n cc n cb n ca"))
	f.Add([]byte("6 sa db sb n l ea m n l"))
	f.Add([]byte("A sa sb da sc db n fa n fb g n fa n j m v y zb ra za n ca"))
	f.Add([]byte("B sa sb sc n fa n fb n fc j v v v n ca n cb n cc"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 600 {
			data = data[:600]
		}
		for _, strategy := range incremental.Names() {
			if err := runFuzzMemoryOps(data, strategy); err != nil {
				t.Fatalf("input %q, strategy %s: %v", data, strategy, err)
			}
		}
	})
}

// fuzzPool is the names fuzz inputs speak of.
var fuzzPool = poolNames(6)

// fuzzCommands lists the command bytes in the order other bytes map to them.
const fuzzCommands = "disnco" + "wxtfpqrk" + "ub" + "hevlm" + "gjyz"

// runFuzzMemoryOps decodes data and runs it; on failure it shrinks the sequence
// and describes both.
func runFuzzMemoryOps(data []byte, strategy string) error {
	data = slices.DeleteFunc(slices.Clone(data), func(b byte) bool { return b == ' ' || b == '\n' || b == '\t' })
	if len(data) == 0 {
		return nil
	}
	cfg := memConfig{Config: core.Config{MaxAttempts: fuzzAttempts(data[0]), Strategy: strategy}}
	cfg.LeaseTimeout, cfg.Backoff = fuzzClock(data[0])
	if data[0] >= 'A' && data[0] <= 'Z' {
		cfg.PoisonAfter, cfg.Alert = 1, core.Alert{Entries: 2, Window: 5 * time.Second}
	}
	h, err := newMemHarness(cfg)
	if err != nil {
		return err
	}
	var ops []op
	var deps []string
	var batch []core.Task // the tasks 'u' added since the last 'b'
	open := false         // a 'u' came since the last 'b'
	name := func(i int) string {
		if i >= len(data) {
			return fuzzPool[0]
		}
		b := data[i]
		if b >= 'a' && b <= 'z' {
			return fuzzPool[int(b-'a')%len(fuzzPool)]
		}
		return fuzzPool[int(b)%len(fuzzPool)]
	}
	for i := 1; ; i++ {
		var c byte = 'b' // at the end, submit the batch still open
		if i < len(data) {
			c = data[i]
		} else if !open {
			break
		}
		if !strings.ContainsRune(fuzzCommands, rune(c)) {
			c = fuzzCommands[int(c)%len(fuzzCommands)]
		}
		var o op
		switch c {
		case 'u':
			i++
			batch = append(batch, core.Task{Name: name(i), Deps: deps})
			deps, open = nil, true
			continue
		case 'b':
			o = op{kind: opBatch, batch: batch}
			batch, open = nil, false
		case 'd':
			i++
			deps = append(deps, name(i))
			continue
		case 'i':
			deps = append(deps, "")
			continue
		case 's':
			i++
			o = op{kind: opSubmit, task: name(i), deps: deps}
			deps = nil
		case 'n':
			o = op{kind: opNext}
		case 'k':
			if h.lastCycle == nil {
				continue
			}
			o = *h.lastCycle
			h.lastCycle = nil
			o.deps = slices.DeleteFunc(slices.Clone(o.deps), func(d string) bool {
				return d == o.task || d == "" || h.m.reaches(d, o.task, nil)
			})
		case 'v':
			o = op{kind: opAdvance, dur: time.Second}
		case 'l':
			o = op{kind: opAdvance, dur: 10 * time.Second}
		case 'g':
			o = op{kind: opBulk, sel: core.Selector{Contains: "boom"}}
		case 'j':
			o = op{kind: opBulk, sel: core.Selector{Fingerprint: "boom"}, rate: core.Rate{N: 1, Per: time.Second}}
		case 'y':
			o = op{kind: opCancel}
		case 'm':
			o = op{kind: opAdvance}
			if at, ok := h.q.NextTimer(); ok {
				o.dur = at - h.m.now
			}
		default:
			i++
			o = op{task: name(i), msg: "boom"}
			switch c {
			case 'c':
				o.kind = opComplete
			case 'o':
				o.kind, o.lease = opComplete, leaseRef{kind: leaseNth, n: 1}
			case 'w':
				o.kind, o.lease = opComplete, h.otherLease(o.task)
			case 'x':
				o.kind, o.lease = opComplete, leaseRef{kind: leaseForged}
			case 't':
				o.kind, o.lease = opComplete, leaseRef{kind: leaseTampered}
			case 'f':
				o.kind = opFail
			case 'p':
				o.kind, o.permanent = opFail, true
			case 'q':
				o.kind, o.lease = opFail, leaseRef{kind: leaseNth, n: 1}
			case 'r':
				o.kind = opRedrive
			case 'z':
				o.kind = opForce
			case 'h':
				o.kind = opHeartbeat
			case 'e':
				o.kind, o.lease = opComplete, leaseRef{kind: leaseExpired}
			}
		}
		ops = append(ops, o)
		if err := h.safeApply(o); err != nil {
			return memFailure(cfg, ops, err, "the fuzzer saves the input under testdata/fuzz/FuzzMemoryOps and prints the command")
		}
	}
	return nil
}

func fuzzAttempts(b byte) int {
	if b >= '1' && b <= '9' {
		return 1 + int(b-'1')%3
	}
	return 1 + int(b)%3
}

// fuzzClock is the lease timeout and backoff the first byte says.
func fuzzClock(b byte) (time.Duration, core.Backoff) {
	mode := int(b) / 3 % 3
	if b >= '1' && b <= '9' {
		mode = int(b-'1') / 3
	}
	backoff := core.Backoff{Base: time.Second, Factor: 2, Max: 4 * time.Second}
	switch mode {
	case 1:
		return 10 * time.Second, backoff
	case 2:
		backoff.Jitter, backoff.Seed = core.JitterFull, 7
		return 10 * time.Second, backoff
	}
	return 0, core.Backoff{}
}

// otherLease names, as a lease of task, the current lease of the first
// other RUNNING task in arrival order (a forged one if there is none).
func (h *memHarness) otherLease(task string) leaseRef {
	for _, t := range h.m.tasks {
		if _, ok := h.m.current[t]; ok && t != task {
			return leaseRef{kind: leaseOther, other: t}
		}
	}
	return leaseRef{kind: leaseForged}
}
