package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// ops drives a queue from a compact text, one operation a line:
// "submit t d1 d2", "next", "complete t", "fail t ERR", "redrive t".
// Every line must be accepted; the last line of want may be refused.
func ops(t *testing.T, q *core.Queue, script string) error {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(script), "\n")
	var last error
	for i, line := range lines {
		f := strings.Fields(line)
		var err error
		switch f[0] {
		case "submit":
			err = q.Submit(f[1], f[2:]...)
		case "next":
			if _, ok := q.Next(); !ok {
				err = errors.New("nothing ready")
			}
		case "complete":
			l, ok := q.Lease(f[1])
			if !ok {
				l = core.Lease{Task: f[1]}
			}
			err = q.Complete(l)
		case "fail":
			l, ok := q.Lease(f[1])
			if !ok {
				l = core.Lease{Task: f[1]}
			}
			_, err = q.Fail(l, errors.New(strings.Join(f[2:], " ")))
		case "redrive":
			err = q.Redrive(f[1])
		default:
			t.Fatalf("bad op %q", line)
		}
		if err != nil && i < len(lines)-1 {
			t.Fatalf("%q: %v", line, err)
		}
		last = err
	}
	return last
}

// view is what a test asserts of a queue: states, the DLQ and the READY line.
func view(q *core.Queue) string {
	var b strings.Builder
	for _, task := range q.Tasks() {
		s, _ := q.Status(task)
		fmt.Fprintf(&b, "%s:%s ", task, s)
	}
	b.WriteString("| dlq")
	for _, d := range q.DeadLetters() {
		fmt.Fprintf(&b, " [%s %s]", d.Task, d.Reason)
	}
	b.WriteString(" | ready")
	for _, r := range q.ReadyTasks() {
		b.WriteString(" " + r)
	}
	return b.String()
}

// TestStateTable covers every row of the state table in DESIGN.md.
func TestStateTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		attempts int
		script   string
		err      error // of the last line
		want     string
	}{
		// submit
		{"SubmitWithoutDepsIsReady", 3, "submit a", nil,
			"a:READY | dlq | ready a"},
		{"SubmitWithUnknownDepIsPending", 3, "submit b a", nil,
			"b:PENDING | dlq | ready"},
		{"SubmitDropsDuplicateDeps", 3, "submit a\nsubmit b a a a", nil,
			"a:READY b:PENDING | dlq | ready a"},
		{"SubmitAfterDepsSucceededIsReady", 3, "submit a\nnext\ncomplete a\nsubmit b a", nil,
			"a:SUCCEEDED b:READY | dlq | ready b"},
		{"SubmitDuplicateIsRefused", 3, "submit a\nsubmit a", core.ErrDuplicate,
			"a:READY | dlq | ready a"},
		{"SubmitSelfDependencyIsACycle", 3, "submit a a", core.ErrCycle,
			"| dlq | ready"},
		{"SubmitClosingACycleIsRefused", 3, "submit a b\nsubmit b c\nsubmit c a", core.ErrCycle,
			"a:PENDING b:PENDING | dlq | ready"},
		{"SubmitOnDeadDepIsBlocked", 1, "submit a\nnext\nfail a x\nsubmit b a", nil,
			"a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready"},
		{"SubmitOnBlockedDepTakesItsRoot", 1, "submit a\nnext\nfail a x\nsubmit b a\nsubmit c b", nil,
			"a:DEAD b:BLOCKED c:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] [c blocked by a] | ready"},
		{"SubmitBlockedBlocksItsWaitersTransitively", 1,
			"submit a\nnext\nfail a x\nsubmit c b\nsubmit d c\nsubmit e\nsubmit b a", nil,
			"a:DEAD c:BLOCKED d:BLOCKED e:READY b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] [c blocked by a] [d blocked by a] | ready e"},
		// next
		{"NextHandsOutTheFront", 3, "submit a\nsubmit b\nnext", nil,
			"a:RUNNING b:READY | dlq | ready b"},
		{"NextOnEmptyLineHandsOutNothing", 3, "submit b a\nnext", errors.New("nothing ready"),
			"b:PENDING | dlq | ready"},
		// complete
		{"CompleteReleasesDependentsInArrivalOrder", 3, "submit c a\nsubmit b a\nsubmit a\nnext\ncomplete a", nil,
			"c:READY b:READY a:SUCCEEDED | dlq | ready c b"},
		{"CompleteWaitsForEveryDep", 3, "submit c a b\nsubmit a\nsubmit b\nnext\ncomplete a", nil,
			"c:PENDING a:SUCCEEDED b:READY | dlq | ready b"},
		{"CompleteNotRunningIsRefused", 3, "submit a\ncomplete a", core.ErrNotRunning,
			"a:READY | dlq | ready a"},
		{"CompleteUnknownIsRefused", 3, "complete a", core.ErrUnknown,
			"| dlq | ready"},
		// fail
		{"FailWithAttemptsLeftGoesToTheBack", 3, "submit a\nsubmit b\nnext\nfail a x", nil,
			"a:READY b:READY | dlq | ready b a"},
		{"FailAtMaxAttemptsIsDead", 2, "submit a\nnext\nfail a x\nnext\nfail a HTTP 503", nil,
			"a:DEAD | dlq [a failed after 2 attempts: HTTP 503] | ready"},
		{"FailAtMaxAttemptsBlocksDownstreamNearestFirst", 1,
			"submit d c\nsubmit c b\nsubmit b a\nsubmit e a\nsubmit a\nnext\nfail a x", nil,
			"d:BLOCKED c:BLOCKED b:BLOCKED e:BLOCKED a:DEAD | dlq [a failed after 1 attempt: x] [b blocked by a] [e blocked by a] [c blocked by a] [d blocked by a] | ready"},
		{"FailKeepsTheRootOfTasksAlreadyBlocked", 1,
			"submit a\nsubmit b\nsubmit c a b\nnext\nfail a x\nnext\nfail b y", nil,
			"a:DEAD b:DEAD c:BLOCKED | dlq [a failed after 1 attempt: x] [c blocked by a] [b failed after 1 attempt: y] | ready"},
		{"FailNotRunningIsRefused", 3, "submit a\nfail a x", core.ErrNotRunning,
			"a:READY | dlq | ready a"},
		// redrive
		{"RedriveIsReadyAtTheBackWithFreshAttempts", 1, "submit a\nsubmit b\nnext\nfail a x\nredrive a", nil,
			"a:READY b:READY | dlq | ready b a"},
		{"RedriveReleasesADiamond", 1,
			"submit a\nsubmit b a\nsubmit c a\nsubmit d b c\nnext\nfail a x\nredrive a", nil,
			"a:READY b:PENDING c:PENDING d:PENDING | dlq | ready a"},
		{"RedriveKeepsBlockedWithARootStillDead", 1,
			"submit a\nsubmit b\nsubmit c a b\nsubmit d c\nnext\nfail a x\nnext\nfail b y\nredrive a", nil,
			"a:READY b:DEAD c:BLOCKED d:BLOCKED | dlq [c blocked by b] [d blocked by b] [b failed after 1 attempt: y] | ready a"},
		{"RedriveRenamesDeepReasonsThroughAShortcut", 1,
			// e waits on a directly and, through c and d, on b: when a is
			// redriven e must name b even though it is reached before d.
			"submit a\nsubmit b\nsubmit c a b\nsubmit d c\nsubmit e a d\nnext\nfail a x\nnext\nfail b y\nredrive a", nil,
			"a:READY b:DEAD c:BLOCKED d:BLOCKED e:BLOCKED | dlq [c blocked by b] [e blocked by b] [d blocked by b] [b failed after 1 attempt: y] | ready a"},
		{"RedriveOfABlockedTaskIsRefused", 1, "submit a\nsubmit b a\nnext\nfail a x\nredrive b", core.ErrNotDead,
			"a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready"},
		{"RedriveUnknownIsRefused", 1, "redrive a", core.ErrUnknown,
			"| dlq | ready"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := core.New(core.Config{MaxAttempts: tt.attempts})
			if err != nil {
				t.Fatal(err)
			}
			err = ops(t, q, tt.script)
			switch {
			case tt.err == nil && err != nil:
				t.Fatalf("last op: %v", err)
			case tt.err != nil && err == nil:
				t.Fatalf("last op succeeded, want %v", tt.err)
			case tt.err != nil && !errors.Is(err, tt.err) && err.Error() != tt.err.Error():
				t.Fatalf("last op: %v, want %v", err, tt.err)
			}
			if got := view(q); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCycleErrorNamesThePath(t *testing.T) {
	q, _ := core.New(core.Config{MaxAttempts: 3})
	err := ops(t, q, "submit a b\nsubmit b c\nsubmit x\nsubmit c x a")
	var ce *core.CycleError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *CycleError", err)
	}
	if got, want := ce.Error(), "cycle: c -> a -> b -> c"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if !errors.Is(err, core.ErrCycle) {
		t.Error("a CycleError is not ErrCycle")
	}
	// Refused again, then accepted once fixed.
	if err := q.Submit("c", "x", "a"); !errors.Is(err, core.ErrCycle) {
		t.Errorf("resubmit: %v, want a cycle again", err)
	}
	if err := q.Submit("c", "x"); err != nil {
		t.Errorf("fixed submit: %v", err)
	}
}

func TestStaleLeaseIsRefused(t *testing.T) {
	q, _ := core.New(core.Config{MaxAttempts: 3})
	q.Submit("a")
	first, _ := q.Next()
	q.Fail(first, errors.New("x"))
	second, _ := q.Next()
	if err := q.Complete(first); !errors.Is(err, core.ErrStaleLease) {
		t.Fatalf("completing the first lease: %v, want ErrStaleLease", err)
	}
	if _, err := q.Fail(first, nil); !errors.Is(err, core.ErrStaleLease) {
		t.Fatalf("failing the first lease: %v, want ErrStaleLease", err)
	}
	forged := second
	forged.Attempt = 1
	if err := q.Complete(forged); !errors.Is(err, core.ErrStaleLease) {
		t.Fatalf("completing a lease with the wrong attempt: %v, want ErrStaleLease", err)
	}
	if s, _ := q.Status("a"); s != core.Running || second.Attempt != 2 {
		t.Fatalf("a is %s at attempt %d, want RUNNING at 2", s, second.Attempt)
	}
	if err := q.Complete(second); err != nil {
		t.Fatal(err)
	}
}

func TestPermanentFailureSkipsRetries(t *testing.T) {
	q, _ := core.New(core.Config{MaxAttempts: 5})
	q.Submit("a")
	l, _ := q.Next()
	s, err := q.Fail(l, core.Permanent(errors.New("bad input")))
	if err != nil || s != core.Dead {
		t.Fatalf("Fail = %s, %v; want DEAD", s, err)
	}
	if got := q.DeadLetters(); len(got) != 1 || got[0].Reason != "permanent failure after 1 attempt: bad input" {
		t.Fatalf("DLQ %v", got)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []core.Config{{MaxAttempts: 0}, {MaxAttempts: -1}, {MaxAttempts: 1, Strategy: "nope"}} {
		if _, err := core.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
