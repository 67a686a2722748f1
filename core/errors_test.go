package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// TestNewRefusesBadConfig: negative attempts and an unknown strategy.
func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []core.Config{{MaxAttempts: -1}, {MaxAttempts: 1, Strategy: "nope"}} {
		if _, err := core.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

// TestZeroConfigWorks: core.Config{} makes a queue with the documented
// defaults, which Config reports: three attempts, the default strategy,
// leases that never expire, retries at once; a task failed three times is
// dead, not before.
func TestZeroConfigWorks(t *testing.T) {
	t.Parallel()
	q, err := core.New(core.Config{})
	if err != nil {
		t.Fatalf("New(Config{}): %v", err)
	}
	cfg := q.Config()
	if cfg.MaxAttempts != core.DefaultMaxAttempts || core.DefaultMaxAttempts != 3 {
		t.Errorf("Config().MaxAttempts = %d (DefaultMaxAttempts %d), want 3", cfg.MaxAttempts, core.DefaultMaxAttempts)
	}
	if cfg.Strategy != incremental.Default {
		t.Errorf("Config().Strategy = %q, want %q", cfg.Strategy, incremental.Default)
	}
	if cfg.LeaseTimeout != 0 || cfg.Backoff != (core.Backoff{}) || cfg.PoisonAfter != 0 || cfg.Alert != (core.Alert{}) {
		t.Errorf("Config() = %+v, want no lease timeout, backoff, poison cap or alert", cfg)
	}
	if err := q.Submit("a"); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; attempt <= 3; attempt++ {
		l, ok := q.Next()
		if !ok {
			t.Fatalf("attempt %d: nothing READY", attempt)
		}
		if l.Deadline != 0 {
			t.Errorf("attempt %d: lease deadline %v, want 0 (never)", attempt, l.Deadline)
		}
		s, err := q.Fail(l, errors.New("boom"))
		want := core.Ready
		if attempt == 3 {
			want = core.Dead
		}
		if err != nil || s != want {
			t.Fatalf("attempt %d: Fail = %s, %v, want %s", attempt, s, err, want)
		}
	}
}

// TestRefusalsAreTaskErrors: the conformance suite holds every queue to
// core's sentinels by errors.Is; the in-memory queue also says which task
// a refusal is about, as a *TaskError (a cycle as a *CycleError, a clock
// going back, about no task, as neither).
func TestRefusalsAreTaskErrors(t *testing.T) {
	t.Parallel()
	q, err := core.New(core.Config{MaxAttempts: 1, LeaseTimeout: time.Second, PoisonAfter: 1})
	if err != nil {
		t.Fatal(err)
	}
	q.Submit("a")
	q.Submit("b", "a")
	first, _ := q.Next()
	q.Advance(time.Second) // a's lease expires: a is DEAD
	q.Redrive("a")
	second, _ := q.Next()
	q.Fail(second, errors.New("x")) // a is DEAD again, and poisoned
	for _, tt := range []struct {
		name string
		err  error
		task string
		want error
	}{
		{"Duplicate", q.Submit("a"), "a", core.ErrDuplicate},
		{"InvalidName", q.Submit(""), "", core.ErrInvalidName},
		{"NameTooLong", q.Submit(strings.Repeat("n", core.MaxName+1)), strings.Repeat("n", core.MaxName+1), core.ErrNameTooLong},
		{"DepNameTooLong", q.Submit("e", strings.Repeat("d", core.MaxName+1)), "e", core.ErrInvalidName},
		{"Unknown", q.Complete(core.Lease{Task: "z"}), "z", core.ErrUnknown},
		{"Expired", q.Complete(first), "a", core.ErrLeaseExpired},
		{"NotRunning", q.Complete(second), "a", core.ErrNotRunning},
		{"NotDead", q.Redrive("b"), "b", core.ErrNotDead},
		{"Poisoned", q.Redrive("a"), "a", core.ErrPoisoned},
	} {
		var te *core.TaskError
		if !errors.As(tt.err, &te) || te.Task != tt.task || !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: %v (%T), want a *TaskError about %q that is %v", tt.name, tt.err, tt.err, tt.task, tt.want)
		}
	}
	q.Submit("c")
	l, _ := q.Next()
	q.Fail(l, errors.New("x"))
	q.Redrive("c")
	if _, err := q.Heartbeat(l); !errors.Is(err, core.ErrNotRunning) {
		t.Fatalf("Heartbeat of a READY task's old lease: %v", err)
	}
	q.Next()
	var te *core.TaskError
	if _, err := q.Heartbeat(l); !errors.As(err, &te) || !errors.Is(err, core.ErrStaleLease) {
		t.Errorf("Heartbeat of a stale lease: %v (%T), want a *TaskError that is ErrStaleLease", err, err)
	}
	err = q.Submit("d", "d")
	var ce *core.CycleError
	if !errors.As(err, &ce) || errors.As(err, &te) {
		t.Errorf("a self-dependency: %v (%T), want a *CycleError and no *TaskError", err, err)
	}
	err = q.Advance(-time.Second)
	if !errors.Is(err, core.ErrClockBackwards) || errors.As(err, &te) {
		t.Errorf("Advance(-1s): %v (%T), want ErrClockBackwards, about no task", err, err)
	}
}

func TestIsPermanentFollowsWrapping(t *testing.T) {
	t.Parallel()
	p := core.Permanent(errors.New("bad input"))
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("x"), false},
		{p, true},
		{fmt.Errorf("parse: %w", p), true},
		{errors.Join(errors.New("x"), fmt.Errorf("y: %w", p)), true},
		{errors.Join(errors.New("x"), errors.New("y")), false},
	} {
		if got := core.IsPermanent(tt.err); got != tt.want {
			t.Errorf("IsPermanent(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
	if core.Permanent(nil) != nil {
		t.Error("Permanent(nil) is not nil")
	}
}

// TestCycleErrorCapped: a cycle's message names at most its first ten tasks,
// then "…" and the count, whatever its length; Path keeps the whole cycle.
// The cycle through 10⁵ tasks is made by the queue, as a user meets it.
func TestCycleErrorCapped(t *testing.T) {
	t.Parallel()
	short := &core.CycleError{Path: []string{"c", "a", "b", "c"}}
	if got, want := short.Error(), "cycle: c -> a -> b -> c"; got != want {
		t.Errorf("short cycle: %q, want %q", got, want)
	}
	ten := make([]string, 10)
	for i := range ten {
		ten[i] = fmt.Sprintf("t%d", i)
	}
	if got, want := (&core.CycleError{Path: ten}).Error(), "cycle: "+strings.Join(ten, " -> "); got != want {
		t.Errorf("ten names: %q, want %q, whole", got, want)
	}

	const n = 100_000
	q, err := core.New(core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < n; i++ {
		if err := q.Submit(fmt.Sprintf("t%d", i), fmt.Sprintf("t%d", i-1)); err != nil {
			t.Fatal(err)
		}
	}
	err = q.Submit("t0", fmt.Sprintf("t%d", n-1))
	var ce *core.CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("closing a %d-task chain: %v (%T), want a *CycleError", n, err, err)
	}
	if len(ce.Path) != n+1 {
		t.Errorf("Path has %d names, want the whole cycle, %d", len(ce.Path), n+1)
	}
	want := "cycle: " + strings.Join(ce.Path[:10], " -> ") + " -> … (100000 tasks)"
	if got := ce.Error(); got != want {
		t.Errorf("a %d-task cycle reads %q (%d bytes), want %q", n, truncate(got), len(got), want)
	}
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
