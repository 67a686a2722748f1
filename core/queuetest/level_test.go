package queuetest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// coreLevel is core's queue as an L6Queue.
type coreLevel struct{ *core.Queue }

func (q coreLevel) Fail(l core.Lease, err error) error {
	_, err = q.Queue.Fail(l, err)
	return err
}

func (q coreLevel) RedriveMatching(text string) error {
	_, err := q.Queue.RedriveMatching(core.Selector{Contains: text}, core.Rate{})
	return err
}

func openCore(s Settings) coreLevel {
	q, err := core.New(core.Config{MaxAttempts: s.MaxAttempts, LeaseTimeout: s.LeaseTimeout, Backoff: s.Backoff})
	if err != nil {
		panic(err)
	}
	return coreLevel{q}
}

// TestCorePassesEveryLevel: dagq's own queue passes L4, L5 and L6.
func TestCorePassesEveryLevel(t *testing.T) {
	for _, l := range Levels() {
		t.Run(l.String(), func(t *testing.T) { RunLevel(t, l, openCore) })
	}
}

// TestEveryRungRunsAndIsAScenario: every rung's script runs on dagq's
// queue, each operation valid, and says what it claims as the scenario
// language does; and the levels' rungs use only their level's operations.
func TestEveryRungRunsAndIsAScenario(t *testing.T) {
	names := map[string]bool{}
	for _, c := range levelCases {
		key := c.level.String() + "/" + c.name
		if names[key] || c.rule == "" || !strings.HasSuffix(c.rule, ".") {
			t.Errorf("%s: a duplicate name, or a rule that is not a sentence: %q", key, c.rule)
		}
		names[key] = true
		var ops []levelOp
		for _, line := range strings.Split(c.script, "\n") {
			o, err := parseLevelOp(line)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			if o.String() != line {
				t.Errorf("%s: %q prints back as %q", key, line, o.String())
			}
			if o.level() > c.level {
				t.Errorf("%s: %q is an operation of %s", key, line, o.level())
			}
			ops = append(ops, o)
		}
		if _, d, err := replayLevel(L6, c.set, ops, openCore); err != nil || d != nil {
			t.Errorf("%s: %v %+v", key, err, d)
		}
		if _, err := scenario.Parse(header(c.set) + c.script); err != nil {
			t.Errorf("%s: not a scenario: %v", key, err)
		}
	}
}

// stub is what `wq practice init` writes: nothing implemented.
type stub struct{}

func (stub) Submit(string, ...string) error   { return errors.New("not implemented") }
func (stub) Next() (core.Lease, bool)         { return core.Lease{}, false }
func (stub) Complete(core.Lease) error        { return errors.New("not implemented") }
func (stub) Fail(core.Lease, error) error     { return errors.New("not implemented") }
func (stub) Status(string) (core.State, bool) { return "", false }
func (stub) DeadLetters() []core.DeadLetter   { return nil }
func (stub) Redrive(string) error             { return errors.New("not implemented") }
func (stub) Heartbeat(core.Lease) (core.Lease, error) {
	return core.Lease{}, errors.New("not implemented")
}
func (stub) Advance(time.Duration) error  { return errors.New("not implemented") }
func (stub) RedriveMatching(string) error { return errors.New("not implemented") }

// TestAStubFailsTheFirstRung: a queue that implements nothing fails the
// first rung, with the rule, the one-line script, what each queue did and
// a link that opens that script.
func TestAStubFailsTheFirstRung(t *testing.T) {
	for _, l := range Levels() {
		err := CheckLevel(l, func(Settings) stub { return stub{} })
		var f *Failure
		if !errors.As(err, &f) {
			t.Fatalf("%s: %v, want a *Failure", l, err)
		}
		if f.Test != "L4/ReadyAtOnce" || !slices.Equal(f.Ops, []string{"submit a"}) {
			t.Errorf("%s: failed %s with %q, want L4/ReadyAtOnce with submit a", l, f.Test, f.Ops)
		}
		msg := f.Error()
		for _, want := range []string{"A task without dependencies is READY at once.", "\tsubmit a\n", "\texpect a READY\n",
			"your queue: refused: not implemented", "dagq:       accepted", "#script="} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the message lacks %q:\n%s", l, want, msg)
			}
		}
		if l == L4 {
			t.Logf("the stub's failure:\n%s", msg)
		}
		checkLink(t, f)
	}
}

// checkLink checks that a failure's link opens its script, and that the
// script runs on dagq's queue to its end, every expect holding.
func checkLink(t *testing.T, f *Failure) {
	t.Helper()
	_, fragment, _ := strings.Cut(f.Link, "#")
	link, errs := playground.ParseLink("", fragment)
	if len(errs) > 0 || !link.HasScript || link.Script != f.Script {
		t.Errorf("the link %s opens %q (%v), want the script %q", f.Link, link.Script, errs, f.Script)
	}
	s, err := scenario.Parse(f.Script)
	if err != nil {
		t.Fatalf("the script is not a scenario: %v\n%s", err, f.Script)
	}
	if _, err := scenario.Run(s, scenario.Options{}); err != nil {
		t.Errorf("dagq's queue does not run the script to its end: %v\n%s", err, f.Script)
	}
}

// broken is core's queue with one rule broken.
type broken struct {
	coreLevel
	breaks string
}

func (b broken) Status(task string) (core.State, bool) {
	s, ok := b.coreLevel.Status(task)
	if b.breaks == "no blocking" && s == core.Blocked {
		s = core.Pending
	}
	return s, ok
}

func (b broken) Complete(l core.Lease) error {
	if cur, ok := b.Lease(l.Task); ok && b.breaks == "no fencing" {
		l = cur
	}
	return b.coreLevel.Complete(l)
}

func (b broken) Fail(l core.Lease, err error) error {
	if b.breaks == "permanent retried" {
		err = errors.New(err.Error())
	}
	return b.coreLevel.Fail(l, err)
}

func (b broken) DeadLetters() []core.DeadLetter {
	dlq := b.coreLevel.DeadLetters()
	if b.breaks == "root is the parent" {
		for i, d := range dlq {
			if info, ok := b.Info(d.Task); ok && d.State == core.Blocked && len(info.Deps) > 0 {
				dlq[i].Root = info.Deps[0]
			}
		}
	}
	return dlq
}

// TestBrokenQueuesFailWithSmallScripts: a queue that breaks one rule
// fails at the level that has it, on a short script that runs on dagq's
// queue, and the random sequences alone find it too, shrunk.
func TestBrokenQueuesFailWithSmallScripts(t *testing.T) {
	for _, tt := range []struct {
		breaks string
		level  Level
		rung   string
	}{
		{"no blocking", L5, "L4/DeadAtTheLastAttempt"}, // at L5 the L4 rungs read BLOCKED too
		{"root is the parent", L5, "L5/DeathBlocksDownstream"},
		{"no fencing", L6, "L6/StaleLeaseFenced"},
		{"permanent retried", L6, "L6/PermanentErrorIsDead"},
	} {
		t.Run(strings.ReplaceAll(tt.breaks, " ", "_"), func(t *testing.T) {
			open := func(s Settings) broken { return broken{openCore(s), tt.breaks} }
			err := CheckLevel(tt.level, open)
			var f *Failure
			if !errors.As(err, &f) {
				t.Fatalf("%v, want a *Failure", err)
			}
			if f.Test != tt.rung {
				t.Errorf("failed %s, want %s:\n%s", f.Test, tt.rung, f)
			}
			checkLink(t, f)
			if tt.level > L4 {
				// A level below lets it pass: the rule is not its.
				if err := CheckLevel(tt.level-1, open); err != nil {
					t.Errorf("at %s: %v", tt.level-1, err)
				}
			}
			// The random sequences alone, shrunk.
			var found *Failure
			for i := range 60 {
				if err := checkSequence(tt.level, levelSeed(tt.level, i), 80, open); err != nil {
					if !errors.As(err, &found) {
						t.Fatal(err)
					}
					break
				}
			}
			if found == nil {
				t.Fatalf("60 random sequences pass a queue whose %s", tt.breaks)
			}
			checkLink(t, found)
			if len(found.Ops) > 12 || found.Original <= len(found.Ops) && found.Original > 12 {
				t.Errorf("a sequence of %d operations shrank to %d:\n%s", found.Original, len(found.Ops), found)
			}
			t.Logf("%s", found)
		})
	}
}

// TestAWrongTypeIsNamed: a queue without its level's methods is told
// which it lacks, and a nil one is an error, not a panic.
func TestAWrongTypeIsNamed(t *testing.T) {
	type l4only struct{ stub4 }
	err := CheckLevel(L5, func(Settings) l4only { return l4only{} })
	if err == nil || !strings.Contains(err.Error(), "DeadLetters() []core.DeadLetter") {
		t.Errorf("an L4 queue at L5: %v", err)
	}
	err = CheckLevel(L4, func(Settings) *coreLevel { return nil })
	if err == nil || !strings.Contains(err.Error(), "nil queue") {
		t.Errorf("a nil queue: %v", err)
	}
}

// stub4 is an L4Queue only.
type stub4 struct{}

func (stub4) Submit(string, ...string) error   { return nil }
func (stub4) Next() (core.Lease, bool)         { return core.Lease{}, false }
func (stub4) Complete(core.Lease) error        { return nil }
func (stub4) Fail(core.Lease, error) error     { return nil }
func (stub4) Status(string) (core.State, bool) { return "", false }

// toy is an L4 queue written from scratch, as a candidate would, with a
// rule broken on request.
type toy struct {
	max      int
	breaks   string
	state    map[string]core.State
	deps     map[string][]string
	waiters  map[string][]string // in the order they were submitted
	waiting  map[string]int      // dependencies not SUCCEEDED
	attempts map[string]int
	ready    []string
	leases   uint64
}

func newToy(s Settings, breaks string) *toy {
	return &toy{max: s.MaxAttempts, breaks: breaks, state: map[string]core.State{}, deps: map[string][]string{},
		waiters: map[string][]string{}, waiting: map[string]int{}, attempts: map[string]int{}}
}

func (q *toy) reaches(from, to string) bool {
	if from == to {
		return true
	}
	return slices.ContainsFunc(q.deps[from], func(d string) bool { return q.reaches(d, to) })
}

func (q *toy) Submit(task string, deps ...string) error {
	if _, ok := q.state[task]; ok {
		return errors.New("duplicate")
	}
	for _, d := range deps {
		if d == task || q.breaks != "no loop check" && q.reaches(d, task) {
			return errors.New("cycle")
		}
	}
	for _, d := range deps {
		if !slices.Contains(q.deps[task], d) {
			q.deps[task] = append(q.deps[task], d)
			q.waiters[d] = append(q.waiters[d], task)
			if q.state[d] != core.Succeeded {
				q.waiting[task]++
			}
		}
	}
	q.state[task] = core.Pending
	if q.waiting[task] == 0 {
		q.state[task] = core.Ready
		q.ready = append(q.ready, task)
	}
	return nil
}

func (q *toy) Next() (core.Lease, bool) {
	if len(q.ready) == 0 {
		return core.Lease{}, false
	}
	i := 0
	if q.breaks == "lifo" {
		i = len(q.ready) - 1
	}
	t := q.ready[i]
	q.ready = slices.Delete(q.ready, i, i+1)
	q.state[t] = core.Running
	q.attempts[t]++
	q.leases++
	return core.Lease{Task: t, ID: q.leases, Attempt: q.attempts[t]}, true
}

func (q *toy) Complete(l core.Lease) error {
	if q.state[l.Task] != core.Running {
		return errors.New("not running")
	}
	q.state[l.Task] = core.Succeeded
	for _, w := range q.waiters[l.Task] {
		if q.waiting[w]--; q.waiting[w] == 0 && q.state[w] == core.Pending {
			q.state[w] = core.Ready
			q.ready = append(q.ready, w)
		}
	}
	return nil
}

func (q *toy) Fail(l core.Lease, err error) error {
	if q.state[l.Task] != core.Running {
		return errors.New("not running")
	}
	switch {
	case q.attempts[l.Task] >= q.max:
		q.state[l.Task] = core.Dead
	case q.breaks == "retry at the front":
		q.state[l.Task] = core.Ready
		q.ready = append([]string{l.Task}, q.ready...)
	default:
		q.state[l.Task] = core.Ready
		q.ready = append(q.ready, l.Task)
	}
	return nil
}

func (q *toy) Status(task string) (core.State, bool) {
	s, ok := q.state[task]
	return s, ok
}

// TestAToyQueuePassesL4 and fails where it breaks a rule: a queue written
// from scratch, which leaves the tasks behind a dead one PENDING, passes
// L4; one that breaks a rule fails its rung, and the random sequences
// find it too, shrunk.
func TestAToyQueuePassesL4(t *testing.T) {
	if err := CheckLevel(L4, func(s Settings) *toy { return newToy(s, "") }); err != nil {
		t.Fatalf("a correct L4 queue fails: %v", err)
	}
	for _, tt := range []struct{ breaks, rung string }{
		{"lifo", "L4/FirstInFirstOut"},
		{"retry at the front", "L4/RetryAtTheBack"},
		{"no loop check", "L4/LoopRefused"},
	} {
		t.Run(strings.ReplaceAll(tt.breaks, " ", "_"), func(t *testing.T) {
			open := func(s Settings) *toy { return newToy(s, tt.breaks) }
			var f *Failure
			if err := CheckLevel(L4, open); !errors.As(err, &f) || f.Test != tt.rung {
				t.Fatalf("%v, want a failure of %s", err, tt.rung)
			}
			checkLink(t, f)
			for i := range 60 {
				if err := checkSequence(L4, levelSeed(L4, i), 80, open); err != nil {
					if !errors.As(err, &f) {
						t.Fatal(err)
					}
					checkLink(t, f)
					if len(f.Ops) > 10 {
						t.Errorf("shrunk to %d operations, want a few:\n%s", len(f.Ops), f)
					}
					t.Logf("%s", f)
					return
				}
			}
			t.Errorf("60 random sequences pass a queue whose %s", tt.breaks)
		})
	}
}
