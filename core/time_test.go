package core_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// leaseBook keeps every lease Next handed out, per queue and task, so that
// a script can act with the lease of an earlier attempt ("complete a@1").
var leaseBook sync.Map // *core.Queue → map[string][]core.Lease

func handedOut(q *core.Queue) map[string][]core.Lease {
	m, _ := leaseBook.LoadOrStore(q, map[string][]core.Lease{})
	return m.(map[string][]core.Lease)
}

// timeOps drives a queue as ops does, with the commands of time besides:
// "advance D", "advanceto T", "heartbeat t[@N]", "complete t@N",
// "fail t@N ERR", "fail! t ERR" (a permanent error). t@N is the lease of
// attempt N since the task was submitted or last redriven, as handed out,
// and t#K the K-th lease the task was ever handed out; without @N or #K,
// the task's current lease. Every line must be accepted; the
// last one may be refused, and its error is returned.
func timeOps(t *testing.T, q *core.Queue, script string) error {
	t.Helper()
	book := handedOut(q)
	lines := strings.Split(strings.TrimSpace(script), "\n")
	var last error
	lease := func(arg string) core.Lease {
		if task, k, ok := strings.Cut(arg, "#"); ok {
			i, err := strconv.Atoi(k)
			if err != nil || i < 1 || i > len(book[task]) {
				t.Fatalf("bad lease %q", arg)
			}
			return book[task][i-1]
		}
		task, n, at := strings.Cut(arg, "@")
		if !at {
			if l, ok := q.Lease(task); ok {
				return l
			}
			return core.Lease{Task: task}
		}
		i, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("bad lease %q", arg)
		}
		hist := book[task]
		for j := len(hist) - 1; j >= 0; j-- { // the latest hand-out of attempt i
			if hist[j].Attempt == i {
				return hist[j]
			}
		}
		t.Fatalf("%s was never handed out at attempt %d", task, i)
		return core.Lease{}
	}
	for i, line := range lines {
		f := strings.Fields(line)
		var err error
		switch f[0] {
		case "submit":
			err = q.Submit(f[1], f[2:]...)
		case "next":
			l, ok := q.Next()
			if !ok {
				err = errors.New("nothing ready")
			}
			book[l.Task] = append(book[l.Task], l)
		case "complete":
			err = q.Complete(lease(f[1]))
		case "fail", "fail!":
			e := errors.New(strings.Join(f[2:], " "))
			if f[0] == "fail!" {
				e = core.Permanent(e)
			}
			_, err = q.Fail(lease(f[1]), e)
		case "heartbeat":
			_, err = q.Heartbeat(lease(f[1]))
		case "redrive":
			err = q.Redrive(f[1])
		case "advance", "advanceto":
			d, perr := time.ParseDuration(f[1])
			if perr != nil {
				t.Fatalf("%q: %v", line, perr)
			}
			if f[0] == "advance" {
				err = q.Advance(d)
			} else {
				err = q.AdvanceTo(d)
			}
		default:
			t.Fatalf("bad op %q", line)
		}
		if err != nil && i < len(lines)-1 {
			t.Fatalf("%q: %v", line, err)
		}
		if cerr := core.CheckInvariants(q); cerr != nil {
			t.Fatalf("after %q: %v", line, cerr)
		}
		last = err
	}
	return last
}

// timeView is view with the clock and the timers: "… | now 10s | timers a@12s".
func timeView(q *core.Queue) string {
	var b strings.Builder
	b.WriteString(view(q))
	fmt.Fprintf(&b, " | now %v | timers", q.Now())
	for _, task := range q.Tasks() {
		if at, ok := q.Timer(task); ok {
			fmt.Fprintf(&b, " %s@%v", task, at)
		}
	}
	return b.String()
}

// TestTimeTable covers the rows of the state table that need the clock:
// heartbeat, expiry in each outcome, DELAYED → READY, permanent failure,
// and every refusal of a stale or expired lease.
func TestTimeTable(t *testing.T) {
	t.Parallel()
	const lease = 10 * time.Second
	backoff := core.Backoff{Base: 2 * time.Second, Factor: 2}
	tests := []struct {
		name     string
		attempts int
		lease    time.Duration
		backoff  core.Backoff
		script   string
		err      error // of the last line
		want     string
		events   string // if set, the events of the last line
	}{
		// heartbeat
		{"HeartbeatRenewsTheLease", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 8s\nheartbeat a\nadvance 8s", nil,
			"a:RUNNING | dlq | ready | now 16s | timers a@18s", ""},
		{"HeartbeatEmitsItsDeadline", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 8s\nheartbeat a", nil,
			"a:RUNNING | dlq | ready | now 8s | timers a@18s", "a heartbeat: lease renewed to 18s @8s"},
		{"HeartbeatWithoutLeaseTimeoutChangesNothing", 3, 0, core.Backoff{},
			"submit a\nnext\nadvance 1h\nheartbeat a", nil,
			"a:RUNNING | dlq | ready | now 1h0m0s | timers", "a heartbeat: the lease never expires @1h0m0s"},
		{"HeartbeatOfAStaleLeaseIsRefused", 3, lease, core.Backoff{},
			"submit a\nnext\nfail a x\nnext\nheartbeat a@1", core.ErrStaleLease,
			"a:RUNNING | dlq | ready | now 0s | timers a@10s", ""},
		{"HeartbeatOfAnExpiredLeaseIsRefused", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\nheartbeat a@1", core.ErrLeaseExpired,
			"a:READY | dlq | ready a | now 10s | timers", ""},
		{"HeartbeatOfATaskNotRunningIsRefused", 3, lease, core.Backoff{},
			"submit a\nheartbeat a", core.ErrNotRunning,
			"a:READY | dlq | ready a | now 0s | timers", ""},
		{"HeartbeatOfAnUnknownTaskIsRefused", 3, lease, core.Backoff{},
			"heartbeat a", core.ErrUnknown,
			"| dlq | ready | now 0s | timers", ""},
		// expiry
		{"ALeaseDoesNotExpireBeforeItsDeadline", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 9999ms", nil,
			"a:RUNNING | dlq | ready | now 9.999s | timers a@10s", ""},
		{"ExpiryRetriesAtTheBackOfTheLine", 3, lease, core.Backoff{},
			"submit a\nsubmit b\nnext\nadvance 15s", nil,
			"a:READY b:READY | dlq | ready b a | now 15s | timers",
			"a lease of attempt 1 expired at 10s @10s; a RUNNING → READY: attempt 1 failed: lease expired, back of the line @10s"},
		{"ExpiryUnderBackoffIsDelayed", 3, lease, backoff,
			"submit a\nnext\nadvance 11s", nil,
			"a:DELAYED | dlq | ready | now 11s | timers a@12s",
			"a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s"},
		{"ExpiryAtTheLastAttemptIsDeadAndBlocksDownstream", 2, lease, backoff,
			"submit a\nsubmit b a\nsubmit c b\nnext\nadvance 10s\nadvance 2s\nnext\nadvance 30s", nil,
			"a:DEAD b:BLOCKED c:BLOCKED | dlq [a failed after 2 attempts: lease expired] [b blocked by a] [c blocked by a] | ready | now 42s | timers",
			"a lease of attempt 2 expired at 22s @22s; a RUNNING → DEAD: failed after 2 attempts: lease expired @22s; " +
				"b PENDING → BLOCKED: blocked by a @22s; c PENDING → BLOCKED: blocked by a @22s"},
		// DELAYED → READY
		{"FailUnderBackoffIsDelayedOutOfTheLine", 3, 0, backoff,
			"submit a\nsubmit b\nnext\nfail a HTTP 503", nil,
			"a:DELAYED b:READY | dlq | ready b | now 0s | timers a@2s",
			"a RUNNING → DELAYED: attempt 1 failed: HTTP 503, due at 2s @0s"},
		{"ADelayedTaskJoinsTheBackOfTheLineWhenDue", 3, 0, backoff,
			"submit a\nsubmit b\nnext\nfail a x\nsubmit c\nadvance 2s", nil,
			"a:READY b:READY c:READY | dlq | ready b c a | now 2s | timers",
			"a DELAYED → READY: due, back of the line @2s"},
		{"TheDelayGrowsByTheFactor", 3, 0, backoff,
			"submit a\nnext\nfail a x\nadvance 2s\nnext\nfail a y", nil,
			"a:DELAYED | dlq | ready | now 2s | timers a@6s", ""},
		{"TheLastAttemptIsDeadNotDelayed", 2, 0, backoff,
			"submit a\nnext\nfail a x\nadvance 2s\nnext\nfail a y", nil,
			"a:DEAD | dlq [a failed after 2 attempts: y] | ready | now 2s | timers", ""},
		// permanent failure
		{"APermanentFailureSkipsItsRetries", 3, lease, backoff,
			"submit a\nsubmit b a\nnext\nfail! a bad input", nil,
			"a:DEAD b:BLOCKED | dlq [a permanent failure after 1 attempt: bad input] [b blocked by a] | ready | now 0s | timers",
			"a RUNNING → DEAD: permanent failure after 1 attempt: bad input @0s; b PENDING → BLOCKED: blocked by a @0s"},
		{"APermanentFailureAtTheLastAttemptSaysPermanent", 2, 0, core.Backoff{},
			"submit a\nnext\nfail a x\nnext\nfail! a bad input", nil,
			"a:DEAD | dlq [a permanent failure after 2 attempts: bad input] | ready | now 0s | timers", ""},
		// refusals of stale and expired leases
		{"CompleteWithAnExpiredLeaseIsRefused", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\ncomplete a@1", core.ErrLeaseExpired,
			"a:READY | dlq | ready a | now 10s | timers", ""},
		{"CompleteWithAnExpiredLeaseWhileTheTaskRunsAgainIsRefused", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\nnext\ncomplete a@1", core.ErrLeaseExpired,
			"a:RUNNING | dlq | ready | now 10s | timers a@20s", ""},
		{"FailWithAnExpiredLeaseIsRefused", 3, lease, backoff,
			"submit a\nnext\nadvance 10s\nfail a@1 x", core.ErrLeaseExpired,
			"a:DELAYED | dlq | ready | now 10s | timers a@12s", ""},
		{"AnExpiredLeaseOfADeadTaskIsRefusedAsExpired", 1, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\ncomplete a@1", core.ErrLeaseExpired,
			"a:DEAD | dlq [a failed after 1 attempt: lease expired] | ready | now 10s | timers", ""},
		{"AnExpiredLeaseStaysExpiredAfterARedrive", 1, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\nredrive a\nnext\nadvance 1s\ncomplete a#1", core.ErrLeaseExpired,
			"a:RUNNING | dlq | ready | now 11s | timers a@20s", ""},
		{"TheNewLeaseAfterARedriveIsNotExpired", 1, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\nredrive a\nnext\nadvance 1s\ncomplete a#2", nil,
			"a:SUCCEEDED | dlq | ready | now 11s | timers", ""},
		{"BothExpiredAttemptsAreRefusedAsExpired", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 10s\nnext\nadvance 10s\nnext\ncomplete a@1", core.ErrLeaseExpired,
			"a:RUNNING | dlq | ready | now 20s | timers a@30s", ""},
		{"CompleteWithAFailedLeaseIsStaleNotExpired", 3, lease, core.Backoff{},
			"submit a\nnext\nfail a x\nnext\nadvance 10s\nnext\ncomplete a@1", core.ErrStaleLease,
			"a:RUNNING | dlq | ready | now 10s | timers a@20s", ""},
		{"ALeaseCompletedBeforeItsDeadlineIsNotExpiredLater", 3, lease, core.Backoff{},
			"submit a\nnext\ncomplete a\nadvance 1m\ncomplete a@1", core.ErrNotRunning,
			"a:SUCCEEDED | dlq | ready | now 1m0s | timers", ""},
		{"ALeaseRenewedByAHeartbeatIsAcceptedWithItsOldDeadline", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 5s\nheartbeat a\nadvance 9s\ncomplete a@1", nil,
			"a:SUCCEEDED | dlq | ready | now 14s | timers", ""},
		// the clock
		{"TiesFireInTheOrderSet", 3, lease, core.Backoff{},
			"submit a\nsubmit b\nnext\nnext\nadvance 10s", nil,
			"a:READY b:READY | dlq | ready a b | now 10s | timers", ""},
		{"AHeartbeatCountsAsSetWhenItRenews", 3, lease, core.Backoff{},
			"submit a\nsubmit b\nnext\nnext\nheartbeat a\nadvance 10s", nil,
			"a:READY b:READY | dlq | ready b a | now 10s | timers", ""},
		{"TimersFireInOrderOfTimeEachAtItsOwnTime", 3, lease, backoff,
			"submit a\nsubmit b\nnext\nadvance 4s\nnext\nadvanceto 15s", nil,
			"a:READY b:DELAYED | dlq | ready a | now 15s | timers b@16s",
			"a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s; " +
				"a DELAYED → READY: due, back of the line @12s; " +
				"b lease of attempt 1 expired at 14s @14s; b RUNNING → DELAYED: attempt 1 failed: lease expired, due at 16s @14s"},
		{"ATimerSetWhileFiringWithinTheAdvanceFiresToo", 3, lease, backoff,
			"submit a\nnext\nadvance 12s", nil,
			"a:READY | dlq | ready a | now 12s | timers",
			"a lease of attempt 1 expired at 10s @10s; a RUNNING → DELAYED: attempt 1 failed: lease expired, due at 12s @10s; " +
				"a DELAYED → READY: due, back of the line @12s"},
		{"TheClockDoesNotGoBack", 3, lease, core.Backoff{},
			"submit a\nnext\nadvance 5s\nadvanceto 4s", core.ErrClockBackwards,
			"a:RUNNING | dlq | ready | now 5s | timers a@10s", ""},
		{"ANegativeAdvanceIsRefused", 3, lease, core.Backoff{},
			"submit a\nadvance -1s", core.ErrClockBackwards,
			"a:READY | dlq | ready a | now 0s | timers", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var events []string
			q, err := core.New(core.Config{MaxAttempts: tt.attempts, LeaseTimeout: tt.lease, Backoff: tt.backoff,
				OnEvent: func(e core.Event) { events = append(events, fmt.Sprintf("%v @%v", e, e.At)) }})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(tt.script), "\n")
			if len(lines) > 1 {
				timeOps(t, q, strings.Join(lines[:len(lines)-1], "\n"))
			}
			events = events[:0]
			err = timeOps(t, q, lines[len(lines)-1])
			switch {
			case tt.err == nil && err != nil:
				t.Fatalf("last op: %v", err)
			case tt.err != nil && !errors.Is(err, tt.err):
				t.Fatalf("last op: %v, want %v", err, tt.err)
			}
			if tt.err != nil && len(events) > 0 {
				t.Errorf("the refused op emitted %q", events)
			}
			var te *core.TaskError
			if tt.err != nil && tt.err != core.ErrClockBackwards && !errors.As(err, &te) {
				t.Errorf("error %v (%T) is not a *TaskError", err, err)
			}
			if got := timeView(q); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if got := strings.Join(events, "; "); tt.events != "" && got != tt.events {
				t.Errorf("events\n got %s\nwant %s", got, tt.events)
			}
		})
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

// TestTheClockSaturates: at the largest time, an advance stops there, a
// lease handed out then has that deadline, and the next advance to it
// fires it.
func TestTheClockSaturates(t *testing.T) {
	t.Parallel()
	q, _ := core.New(core.Config{MaxAttempts: 2, LeaseTimeout: time.Hour})
	q.Submit("a")
	if err := q.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := q.Advance(math.MaxInt64); err != nil || q.Now() != math.MaxInt64 {
		t.Fatalf("Advance past the end: %v, now %v", err, q.Now())
	}
	l, _ := q.Next()
	if l.Deadline != math.MaxInt64 {
		t.Fatalf("deadline %v, want the largest time", l.Deadline)
	}
	if err := core.CheckInvariants(q); err != nil {
		t.Fatal(err)
	}
	if err := q.AdvanceTo(math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	if s, _ := q.Status("a"); s != core.Ready {
		t.Fatalf("a is %s after the advance to its deadline, want READY", s)
	}
	if err := q.Complete(l); !errors.Is(err, core.ErrLeaseExpired) {
		t.Fatalf("Complete: %v, want ErrLeaseExpired", err)
	}
}
