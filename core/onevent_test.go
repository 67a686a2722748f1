package core_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// eventLine is how these tests write an event: "Op kind task".
func eventLine(e core.Event) string { return fmt.Sprintf("%d %s %s", e.Op, e.Kind, e.Task) }

// TestAutoRedriveCallback: an OnEvent that redrives every task that dies,
// at most k times per task, as an operator's automation would. After every
// operation, and whenever an event arrives, the queue keeps every invariant;
// the callback's redrive comes after the operation that killed the task, so
// what the death blocked is released again.
func TestAutoRedriveCallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		attempts int
		k        int // redrives per task
		script   string
		want     string // view after the script
		events   string // events delivered during its last line
	}{
		{"ADeadTaskIsRedrivenAndReleasesItsWaiters", 1, 1,
			"submit a\nsubmit b a\nsubmit c b\nnext\nfail a x",
			"a:READY b:PENDING c:PENDING | dlq | ready a",
			"5 dead a; 5 blocked b; 5 blocked c; 6 redriven a; 6 unblocked b; 6 unblocked c"},
		{"ADiamondIsReleasedWhole", 1, 1,
			"submit a\nsubmit b a\nsubmit c a\nsubmit d b c\nnext\nfail a x",
			"a:READY b:PENDING c:PENDING d:PENDING | dlq | ready a",
			"6 dead a; 6 blocked b; 6 blocked c; 6 blocked d; 7 redriven a; 7 unblocked b; 7 unblocked c; 7 unblocked d"},
		{"ATaskThatDiesAgainAfterKRedrivesStaysDead", 1, 1,
			"submit a\nsubmit b a\nnext\nfail a x\nnext\nfail a y",
			"a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: y] [b blocked by a] | ready",
			"7 dead a; 7 blocked b"},
		{"EveryRedriveGetsFreshAttempts", 2, 2,
			"submit a\nnext\nfail a x\nnext\nfail a x\nnext\nfail a x",
			"a:READY | dlq | ready a",
			"8 retried a"},
		{"ATaskBlockedOnArrivalIsNotRedriven", 1, 1,
			"submit a\nnext\nfail a x\nnext\nfail a y\nsubmit b a",
			"a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: y] [b blocked by a] | ready",
			"7 submitted b"},
		{"ARedriveLeavesTasksBehindAnotherRootBlocked", 1, 1,
			// b has died its k times and holds c; a's death and redrive
			// leave c blocked by b.
			"submit b\nsubmit a\nsubmit c a b\nnext\nfail b x\nnext\nnext\nfail b x\nfail a y",
			"b:DEAD a:READY c:BLOCKED | dlq [b failed after 1 attempt: x] [c blocked by b] | ready a",
			"10 dead a; 11 redriven a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var q *core.Queue
			var delivered []string
			var problems []string
			redriven := map[string]int{}
			q, err := core.New(core.Config{MaxAttempts: tt.attempts, OnEvent: func(e core.Event) {
				delivered = append(delivered, eventLine(e))
				if err := core.CheckInvariants(q); err != nil {
					problems = append(problems, fmt.Sprintf("%q arrived with the queue inconsistent: %v", eventLine(e), err))
				}
				if e.Kind == core.EventDead && redriven[e.Task] < tt.k {
					redriven[e.Task]++
					if err := q.Redrive(e.Task); err != nil {
						problems = append(problems, fmt.Sprintf("Redrive(%q) on %q: %v", e.Task, eventLine(e), err))
					}
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(tt.script, "\n") {
				delivered = delivered[:0]
				ops(t, q, line)
				if err := core.CheckInvariants(q); err != nil {
					t.Fatalf("after %q: %v", line, err)
				}
				if len(problems) > 0 {
					t.Fatalf("during %q: %s", line, strings.Join(problems, "; "))
				}
			}
			if got := view(q); got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if got := strings.Join(delivered, "; "); got != tt.events {
				t.Errorf("events of the last line\n got %s\nwant %s", got, tt.events)
			}
		})
	}
}

// TestOnEventNestedOperations: operations OnEvent calls run in full at once,
// and their events are delivered after the events already waiting, by the
// one delivery loop (OnEvent is never entered again while it runs), each
// with its own operation's Op. By the time the operation that started it
// all returns, every event has been delivered.
func TestOnEventNestedOperations(t *testing.T) {
	t.Parallel()
	var q *core.Queue
	var delivered []string
	depth, deepest := 0, 0
	var seen []string // what the callback saw of b when events about b arrived
	q, err := core.New(core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) {
		depth++
		defer func() { depth-- }()
		deepest = max(deepest, depth)
		delivered = append(delivered, eventLine(e))
		if err := core.CheckInvariants(q); err != nil {
			t.Errorf("%q arrived with the queue inconsistent: %v", eventLine(e), err)
		}
		if e.Task == "b" {
			s, _ := q.Status("b")
			seen = append(seen, string(s))
		}
		switch {
		case e.Kind == core.EventDead && e.Task == "a":
			if err := q.Redrive("a"); err != nil { // op 5
				t.Errorf("Redrive(a): %v", err)
			}
		case e.Kind == core.EventRedriven:
			if err := q.Submit("audit." + e.Task); err != nil { // op 6, called from op 5's events
				t.Errorf("Submit(audit.%s): %v", e.Task, err)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ops(t, q, "submit a\nsubmit b a\nnext")
	delivered, seen = delivered[:0], seen[:0]
	ops(t, q, "fail a x") // op 4
	want := "4 dead a; 4 blocked b; 5 redriven a; 5 unblocked b; 6 submitted audit.a"
	if got := strings.Join(delivered, "; "); got != want {
		t.Errorf("delivered\n got %s\nwant %s", got, want)
	}
	if deepest != 1 {
		t.Errorf("OnEvent was entered %d deep, want never again while it runs", deepest)
	}
	// The callback sees the queue after every operation so far: b was
	// already released when its Blocked event arrived.
	if got := strings.Join(seen, " "); got != "PENDING PENDING" {
		t.Errorf("the callback saw b %s, want PENDING PENDING", got)
	}
	if got, want := view(q), "a:READY b:PENDING audit.a:READY | dlq | ready a audit.a"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// The next operation is numbered after the nested ones.
	delivered = delivered[:0]
	ops(t, q, "next")
	if got, want := strings.Join(delivered, "; "), "7 started a"; got != want {
		t.Errorf("next: %s, want %s", got, want)
	}
}

// TestOnEventPanicLosesNoEvent: a panic in OnEvent reaches the caller of
// the operation; the queue stays consistent, and the events not delivered
// yet arrive, in order, when the next operation ends.
func TestOnEventPanicLosesNoEvent(t *testing.T) {
	t.Parallel()
	var delivered []string
	panicking := true
	q, err := core.New(core.Config{MaxAttempts: 1, OnEvent: func(e core.Event) {
		delivered = append(delivered, eventLine(e))
		if e.Kind == core.EventDead && panicking {
			panic("callback failed")
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	ops(t, q, "submit a\nsubmit b a\nnext")
	delivered = delivered[:0]
	func() {
		defer func() {
			if p := recover(); p != "callback failed" {
				t.Errorf("recovered %v, want the callback's panic", p)
			}
		}()
		ops(t, q, "fail a x")
	}()
	if err := core.CheckInvariants(q); err != nil {
		t.Fatalf("after the panic: %v", err)
	}
	panicking = false
	ops(t, q, "redrive a")
	want := "4 dead a; 4 blocked b; 5 redriven a; 5 unblocked b"
	if got := strings.Join(delivered, "; "); got != want {
		t.Errorf("delivered\n got %s\nwant %s", got, want)
	}
}
