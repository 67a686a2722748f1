package scenario

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRun(t *testing.T) {
	t.Parallel()
	t.Run("RefusedOperationsDoNotStopTheRun", func(t *testing.T) {
		s := mustParse(t, `submit a b
submit b a
submit a
submit c c
complete a
fail nobody oops
redrive a
complete a
expect a PENDING
`)
		tr, err := Run(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			ok  bool
			err string
		}{
			{true, ""},
			{false, "cycle: b -> a -> b"},
			{false, "a: duplicate task"},
			{false, "cycle: c -> c"},
			{false, "a: not running"},
			{false, "nobody: unknown task"},
			{false, "a: not dead"},
			{false, "a: not running"},
			{true, ""},
		}
		if len(tr.Steps) != len(want) {
			t.Fatalf("%d steps, want %d", len(tr.Steps), len(want))
		}
		for i, w := range want {
			st := tr.Steps[i]
			if st.OK != w.ok || st.Err != w.err {
				t.Errorf("line %d %q: ok %v, error %q; want %v, %q", st.Command.Line, st.Command.Text, st.OK, st.Err, w.ok, w.err)
			}
		}
		// A refused submit has its Rejected event and nothing else.
		if ev := tr.Steps[1].Events; len(ev) != 1 || ev[0].Kind != core.EventRejected {
			t.Errorf("refused submit events = %v, want one rejected", ev)
		}
		for _, i := range []int{4, 5, 6, 7} {
			if ev := tr.Steps[i].Events; len(ev) != 0 {
				t.Errorf("line %d: refused operation has events %v", i+1, ev)
			}
		}
	})
	t.Run("StepsSayWhatHappened", func(t *testing.T) {
		s := mustParse(t, `attempts 2
submit a
next
next
fail a HTTP 503
next
fail a HTTP 503
redrive a
next
complete a
submit b a
`)
		tr, err := Run(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			task  string
			state core.State
		}{
			{"", ""},              // attempts
			{"a", core.Ready},     // submit
			{"a", core.Running},   // next hands out a
			{"", ""},              // next with nothing READY
			{"a", core.Ready},     // fail: retried
			{"a", core.Running},   // next
			{"a", core.Dead},      // fail: out of attempts
			{"a", core.Ready},     // redrive
			{"a", core.Running},   // next
			{"a", core.Succeeded}, // complete
			{"b", core.Ready},     // submit on a succeeded task
		}
		for i, w := range want {
			st := tr.Steps[i]
			if !st.OK || st.Task != w.task || st.State != w.state {
				t.Errorf("line %d %q: ok %v, task %q, state %q; want ok, %q, %q",
					st.Command.Line, st.Command.Text, st.OK, st.Task, st.State, w.task, w.state)
			}
		}
		if tr.Attempts != 2 || tr.Strategy != incremental.Default {
			t.Errorf("trace header = %d, %q; want 2, %q", tr.Attempts, tr.Strategy, incremental.Default)
		}
		if got := tr.Steps[6].Events[0].Reason; got != "failed after 2 attempts: HTTP 503" {
			t.Errorf("dead reason = %q", got)
		}
	})
	t.Run("EventsOfAStepShareOneOperation", func(t *testing.T) {
		e, _ := Lookup("diamond-redrive")
		tr, err := Run(mustParse(t, e.Text), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var last uint64
		for _, st := range tr.Steps {
			for _, ev := range st.Events {
				if ev.Op != st.Events[0].Op || ev.Op <= last {
					t.Fatalf("line %d: events not of one new operation (after op %d): %v", st.Command.Line, last, st.Events)
				}
			}
			if len(st.Events) > 0 {
				last = st.Events[0].Op
			}
		}
		if last == 0 {
			t.Fatal("no events")
		}
	})
	t.Run("DefaultAttemptsIsThree", func(t *testing.T) {
		tr, err := Run(mustParse(t, "submit a\n"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Attempts != DefaultAttempts || DefaultAttempts != 3 {
			t.Errorf("attempts = %d, want 3", tr.Attempts)
		}
	})
	t.Run("OptionsStrategyOverridesTheScript", func(t *testing.T) {
		for _, name := range incremental.Names() {
			other := incremental.Names()[0]
			tr, err := Run(mustParse(t, "strategy "+other+"\nsubmit a\n"), Options{Strategy: name})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Strategy != name || !tr.Steps[0].OK {
				t.Errorf("strategy %s over %s: trace strategy %q, step ok %v", name, other, tr.Strategy, tr.Steps[0].OK)
			}
		}
	})
	t.Run("UnknownStrategyIsAnError", func(t *testing.T) {
		_, err := Run(mustParse(t, "submit a\n"), Options{Strategy: "bogus"})
		want := `scenario: unknown strategy "bogus" (want ` + orList(incremental.Names()) + ")"
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %s", err, want)
		}
	})
	t.Run("HandBuiltAttemptsOutOfRange", func(t *testing.T) {
		_, err := NewRunner(&Script{Attempts: -1}, Options{})
		if err == nil || !strings.Contains(err.Error(), "attempts -1 is out of range") {
			t.Errorf("error = %v, want attempts out of range", err)
		}
	})
}

func TestExpect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      ExpectError
		msg       string
	}{
		{"WrongState", "submit a\n  expect a BLOCKED\nnext\n",
			ExpectError{Line: 2, Col: 3, Task: "a", Want: core.Blocked, Got: core.Ready},
			"2:3: expect a BLOCKED: got READY"},
		{"NeverSubmitted", "submit a b\nexpect b PENDING\nnext\n",
			ExpectError{Line: 2, Col: 1, Task: "b", Want: core.Pending},
			"2:1: expect b PENDING: b was never submitted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Run(mustParse(t, tt.src), Options{})
			var ee *ExpectError
			if !errors.As(err, &ee) {
				t.Fatalf("error = %v, want an *ExpectError", err)
			}
			if *ee != tt.want {
				t.Errorf("error = %+v, want %+v", *ee, tt.want)
			}
			if err.Error() != tt.msg {
				t.Errorf("message = %q, want %q", err.Error(), tt.msg)
			}
			// The run stops at the failed expect, which is its last step.
			if tr == nil || len(tr.Steps) != 2 {
				t.Fatalf("trace = %+v, want the 2 steps up to the expect", tr)
			}
			last := tr.Steps[1]
			if last.OK || last.Err != strings.SplitN(tt.msg, ": ", 2)[1] || last.State != tt.want.Got {
				t.Errorf("expect step = ok %v, error %q, state %q", last.OK, last.Err, last.State)
			}
		})
	}
}

func TestRunner(t *testing.T) {
	t.Parallel()
	t.Run("StepsAndTypedCommands", func(t *testing.T) {
		// As the playground does: step a script, then run lines typed after it.
		s := mustParse(t, "attempts 1\nsubmit a\n")
		r, err := NewRunner(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Commands {
			if st := r.Exec(c); !st.OK {
				t.Fatalf("%s: %s", c.Text, st.Err)
			}
		}
		s2 := mustParse(t, s.String()+"next\nfail a disk full\n")
		for _, c := range s2.Commands[len(s.Commands):] {
			r.Exec(c)
		}
		if got, _ := r.Queue().Status("a"); got != core.Dead {
			t.Errorf("a is %s, want DEAD", got)
		}
		if dl := r.Queue().DeadLetters(); len(dl) != 1 || dl[0].Reason != "failed after 1 attempt: disk full" {
			t.Errorf("dead letters = %v", dl)
		}
	})
	t.Run("StepsKeepTheirOwnEvents", func(t *testing.T) {
		// The steps' events share the runner's arena: appending to one
		// step's events must not write over the next step's.
		s := mustParse(t, "submit a\nsubmit b a\nnext\ncomplete a\n")
		r, err := NewRunner(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var steps []Step
		for _, c := range s.Commands {
			steps = append(steps, r.Exec(c))
		}
		for i := range steps {
			want := fmt.Sprint(steps)
			_ = append(steps[i].Events, core.Event{Kind: core.EventDead, Task: "x"})
			if got := fmt.Sprint(steps); got != want {
				t.Fatalf("appending to step %d's events changed the steps:\n%s\nwant\n%s", i+1, got, want)
			}
		}
		if n := len(steps[3].Events); n != 2 {
			t.Errorf("complete a has %d events, want 2 (a SUCCEEDED, b READY): %v", n, steps[3].Events)
		}
	})
	t.Run("CompleteUsesTheCurrentLease", func(t *testing.T) {
		r, err := NewRunner(&Script{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []Command{
			{Op: OpSubmit, Task: "a"}, {Op: OpNext}, {Op: OpFail, Task: "a"}, {Op: OpNext},
		} {
			if st := r.Exec(c); !st.OK {
				t.Fatalf("%v: %s", c, st.Err)
			}
		}
		st := r.Exec(Command{Op: OpComplete, Task: "a"})
		if !st.OK || st.State != core.Succeeded {
			t.Errorf("complete after a retry: ok %v, state %s, error %q", st.OK, st.State, st.Err)
		}
	})
	t.Run("HeaderCommandsConfirmTheQueue", func(t *testing.T) {
		r, err := NewRunner(&Script{Attempts: 2}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if st := r.Exec(Command{Op: OpAttempts, N: 2}); !st.OK {
			t.Errorf("attempts 2 on a queue of 2: %s", st.Err)
		}
		st := r.Exec(Command{Op: OpAttempts, N: 5})
		if want := "attempts 5 comes too late: the queue was made with attempts 2"; st.OK || st.Err != want {
			t.Errorf("attempts 5 on a queue of 2: ok %v, error %q; want %q", st.OK, st.Err, want)
		}
		if st := r.Exec(Command{Op: OpStrategy, Strategy: r.Queue().Config().Strategy}); !st.OK {
			t.Errorf("the queue's own strategy: %s", st.Err)
		}
	})
	t.Run("NoCommandIsRefused", func(t *testing.T) {
		r, err := NewRunner(&Script{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if st := r.Exec(Command{}); st.OK || st.Err != "unknown command Op(0)" {
			t.Errorf("zero command: ok %v, error %q", st.OK, st.Err)
		}
	})
}
