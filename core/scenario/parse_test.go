package scenario

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

func TestParseCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want Command
	}{
		{"SubmitWithoutDeps", "submit a", Command{Op: OpSubmit, Task: "a"}},
		{"SubmitWithDeps", "submit parse fetch lex", Command{Op: OpSubmit, Task: "parse", Deps: []string{"fetch", "lex"}}},
		{"SubmitKeepsDuplicateDeps", "submit a b b", Command{Op: OpSubmit, Task: "a", Deps: []string{"b", "b"}}},
		{"SubmitSelfDependency", "submit a a", Command{Op: OpSubmit, Task: "a", Deps: []string{"a"}}},
		{"NamesUseEveryAllowedCharacter", "submit Az_09.:/- x", Command{Op: OpSubmit, Task: "Az_09.:/-", Deps: []string{"x"}}},
		{"Next", "next", Command{Op: OpNext}},
		{"Complete", "complete a", Command{Op: OpComplete, Task: "a"}},
		{"FailWithoutError", "fail a", Command{Op: OpFail, Task: "a"}},
		{"FailKeepsInnerSpacing", "fail fetch  HTTP   503 ", Command{Op: OpFail, Task: "fetch", Err: "HTTP   503"}},
		{"FailErrorMayHoldAnyCharacter", "fail a x$y \"quoted\" é", Command{Op: OpFail, Task: "a", Err: "x$y \"quoted\" é"}},
		{"FailErrorEndsAtComment", "fail a timed out # after 30s", Command{Op: OpFail, Task: "a", Err: "timed out"}},
		{"Redrive", "redrive a", Command{Op: OpRedrive, Task: "a"}},
		{"Expect", "expect a BLOCKED", Command{Op: OpExpect, Task: "a", Want: core.Blocked}},
		{"Attempts", "attempts 5", Command{Op: OpAttempts, N: 5}},
		{"AttemptsLeadingZero", "attempts 05", Command{Op: OpAttempts, N: 5}},
		{"Strategy", "strategy " + incremental.Default, Command{Op: OpStrategy, Strategy: incremental.Default}},
		{"TabsAndComment", "\tsubmit\ta\tb\t# c", Command{Op: OpSubmit, Task: "a", Deps: []string{"b"}}},
		{"CommentRightAfterName", "submit a#b", Command{Op: OpSubmit, Task: "a"}},
		{"CarriageReturn", "submit a b\r", Command{Op: OpSubmit, Task: "a", Deps: []string{"b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			if len(s.Commands) != 1 {
				t.Fatalf("Parse(%q): %d commands, want 1", tt.src, len(s.Commands))
			}
			got := s.Commands[0]
			if got.Line != 1 {
				t.Errorf("Line = %d, want 1", got.Line)
			}
			wantCol := 1 + len(tt.src) - len(strings.TrimLeft(tt.src, " \t"))
			if got.Col != wantCol {
				t.Errorf("Col = %d, want %d", got.Col, wantCol)
			}
			if want := strings.TrimSpace(strings.SplitN(tt.src, "#", 2)[0]); got.Text != want {
				t.Errorf("Text = %q, want %q", got.Text, want)
			}
			got.Line, got.Col, got.Text = 0, 0, ""
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) =\n\t%+v\nwant\n\t%+v", tt.src, got, tt.want)
			}
		})
	}
}

func TestParseScript(t *testing.T) {
	t.Parallel()
	src := `# a comment line

attempts 2   # header
strategy ` + incremental.Default + `
next
  submit b a
	expect b PENDING
`
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if s.Attempts != 2 || s.Strategy != incremental.Default {
		t.Errorf("header = attempts %d, strategy %q; want 2, %q", s.Attempts, s.Strategy, incremental.Default)
	}
	var got []string
	for _, c := range s.Commands {
		got = append(got, strings.Join([]string{itoa(c.Line), itoa(c.Col), c.Op.String(), c.Text}, "|"))
	}
	want := []string{
		"3|1|attempts|attempts 2",
		"4|1|strategy|strategy " + incremental.Default,
		"5|1|next|next",
		"6|3|submit|submit b a",
		"7|2|expect|expect b PENDING",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestParseEmptyScripts(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"", "\n\n", "# only a comment", "   \t  \n#\n  # x"} {
		s, err := Parse(src)
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if len(s.Commands) != 0 || s.Attempts != 0 || s.Strategy != "" {
			t.Errorf("Parse(%q) = %+v, want an empty script", src, s)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	states := "(want PENDING, READY, RUNNING, DELAYED, SUCCEEDED, DEAD or BLOCKED)"
	strategies := "(want " + orList(incremental.Names()) + ")"
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"UnknownCommand", "sumbit a", 1, 1,
			`unknown command "sumbit" (want attempts, strategy, submit, next, complete, fail, redrive, expect, lease, backoff, jitter, advance, heartbeat, poison, alert, preview or dlq)`},
		{"CommandsAreLowerCase", "  Submit a", 1, 3,
			`unknown command "Submit" (want attempts, strategy, submit, next, complete, fail, redrive, expect, lease, backoff, jitter, advance, heartbeat, poison, alert, preview or dlq)`},
		{"ErrorOnLaterLine", "submit a\n\n# c\nnxet", 4, 1,
			`unknown command "nxet" (want attempts, strategy, submit, next, complete, fail, redrive, expect, lease, backoff, jitter, advance, heartbeat, poison, alert, preview or dlq)`},
		{"SubmitNeedsATask", "submit", 1, 7, "submit needs a task"},
		{"SubmitNeedsATaskBeforeComment", "submit   # a", 1, 7, "submit needs a task"},
		{"BadTaskName", "submit a$b", 1, 9, `bad task name "a$b": '$' is not allowed (names use letters, digits and _ . : / -)`},
		{"NameTooLong", "submit a " + strings.Repeat("n", MaxName+1), 1, 10,
			`task name "` + strings.Repeat("n", 40) + `…" is 257 bytes long, longer than the 256 a name may be`},
		{"LeasedNameTooLong", "submit a\ncomplete " + strings.Repeat("n", MaxName+1) + "@1", 2, 10,
			`task name "` + strings.Repeat("n", 40) + `…" is 257 bytes long, longer than the 256 a name may be`},
		{"BadDependencyName", "submit a b c,d", 1, 13, `bad task name "c,d": ',' is not allowed (names use letters, digits and _ . : / -)`},
		{"ColumnsCountCharactersNotBytes", "submit éé", 1, 8, `bad task name "éé": 'é' is not allowed (names use letters, digits and _ . : / -)`},
		{"ColumnsAfterWideSpace", "submit\u00a0a$", 1, 9, `bad task name "a$": '$' is not allowed (names use letters, digits and _ . : / -)`},
		{"TabIsOneColumn", "\t\tsubmit\ta\t$", 1, 12, `bad task name "$": '$' is not allowed (names use letters, digits and _ . : / -)`},
		{"NextTakesNoArguments", "next a", 1, 6, `next takes no arguments, got "a"`},
		{"CompleteNeedsATask", "complete", 1, 9, "complete needs a task"},
		{"CompleteTakesOneTask", "complete a b", 1, 12, `complete takes one task, got extra "b"`},
		{"CompleteBadName", "complete a+", 1, 11, `bad task name "a+": '+' is not allowed (names use letters, digits and _ . : / -)`},
		{"RedriveNeedsATask", "  redrive  ", 1, 10, "redrive needs a task"},
		{"RedriveTakesOneTask", "redrive a b", 1, 11, `redrive takes one task, got extra "b"`},
		{"FailNeedsATask", "fail", 1, 5, "fail needs a task"},
		{"FailBadName", "fail a=b oops", 1, 7, `bad task name "a=b": '=' is not allowed (names use letters, digits and _ . : / -)`},
		{"ExpectNeedsBoth", "expect", 1, 7, "expect needs a task and a state"},
		{"ExpectNeedsAState", "expect a", 1, 9, "expect needs a task and a state"},
		{"ExpectNeedsAStateBeforeComment", "expect a # BLOCKED", 1, 9, "expect needs a task and a state"},
		{"ExpectBadNameBeforeMissingState", "expect a?", 1, 9, `bad task name "a?": '?' is not allowed (names use letters, digits and _ . : / -)`},
		{"ExpectUnknownState", "expect a DONE", 1, 10, `unknown state "DONE" ` + states},
		{"ExpectStateLowerCase", "expect a blocked", 1, 10, `unknown state "blocked" (states are upper-case: BLOCKED)`},
		{"ExpectTakesTwo", "expect a READY now", 1, 16, `expect takes a task and a state, got extra "now"`},
		{"AttemptsNeedsANumber", "attempts", 1, 9, "attempts needs a number"},
		{"AttemptsNotANumber", "attempts three", 1, 10, `attempts must be a whole number, got "three"`},
		{"AttemptsNoSign", "attempts -1", 1, 10, `attempts must be a whole number, got "-1"`},
		{"AttemptsZero", "attempts 0", 1, 10, "attempts must be at least 1, got 0"},
		{"AttemptsTooLarge", "attempts 99999999999999999999", 1, 10, "attempts 99999999999999999999 is too large (at most 1073741824)"},
		{"AttemptsOneArgument", "attempts 3 4", 1, 12, `attempts takes one argument, got extra "4"`},
		{"AttemptsFirstErrorWins", "attempts x 4", 1, 10, `attempts must be a whole number, got "x"`},
		{"StrategyOneArgument", "strategy " + incremental.Default + " x", 1, 11 + len(incremental.Default), `strategy takes one argument, got extra "x"`},
		{"AttemptsTwice", "attempts 3\nattempts 3", 2, 1, "attempts given twice (first on line 1)"},
		{"AttemptsAfterSubmit", "submit a\n  attempts 3", 2, 3, "attempts must come before the first submit (on line 1)"},
		{"StrategyNeedsAName", "strategy", 1, 9, "strategy needs a name " + strategies},
		{"StrategyUnknown", "strategy bogus", 1, 10, `unknown strategy "bogus" ` + strategies},
		{"StrategyTwice", "strategy " + incremental.Default + "\n\nstrategy " + incremental.Default, 3, 1, "strategy given twice (first on line 1)"},
		{"StrategyAfterSubmit", "next\nsubmit a\nstrategy " + incremental.Default, 3, 1, "strategy must come before the first submit (on line 2)"},
		{"LeaseNeedsADuration", "lease", 1, 6, "lease needs a duration"},
		{"LeaseNotADuration", "lease soon", 1, 7, `lease must be a duration such as 250ms, 30s or 2m, got "soon"`},
		{"LeaseZero", "lease 0s", 1, 7, `lease must be more than 0, got "0s"`},
		{"LeaseTooLong", "lease 1000000h", 1, 7, `lease must be at most 876000h, got "1000000h"`},
		{"LeaseOneArgument", "lease 1s 2s", 1, 10, `lease takes a duration, got extra "2s"`},
		{"LeaseAfterSubmit", "submit a\nlease 30s", 2, 1, "lease must come before the first submit (on line 1)"},
		{"BackoffNeedsThree", "backoff 1s 2", 1, 13, "backoff needs a base, a factor and a most delay, as backoff 1s 2 1m"},
		{"BackoffBaseZero", "backoff 0s 2 1m", 1, 9, `the base must be more than 0, got "0s"`},
		{"BackoffFactorBelowOne", "backoff 1s 0.5 1m", 1, 12, `the factor must be a number from 1 to 1000, got "0.5"`},
		{"BackoffFactorNotANumber", "backoff 1s two 1m", 1, 12, `the factor must be a number from 1 to 1000, got "two"`},
		{"BackoffMostBelowBase", "backoff 2s 2 1s", 1, 14, "the most delay 1s is less than the base 2s"},
		{"BackoffTwice", "backoff 1s 2 1m\nbackoff 1s 2 1m", 2, 1, "backoff given twice (first on line 1)"},
		{"JitterNeedsAKind", "jitter", 1, 7, "jitter needs none, full or equal, and a seed"},
		{"JitterUnknown", "jitter some 1", 1, 8, `unknown jitter "some" (want none, full or equal)`},
		{"JitterBadSeed", "jitter full -1", 1, 13, `the seed must be a whole number from 0 to 18446744073709551615, got "-1"`},
		{"JitterTakesTwo", "jitter full 1 2", 1, 15, `jitter takes a kind and a seed, got extra "2"`},
		{"AdvanceNeedsADuration", "advance", 1, 8, "advance needs a duration"},
		{"AdvanceNegative", "advance -1s", 1, 9, `advance cannot be negative, got "-1s"`},
		{"HeartbeatNeedsATask", "heartbeat", 1, 10, "heartbeat needs a task"},
		{"HeartbeatTakesOneTask", "heartbeat a b", 1, 13, `heartbeat takes one task, got extra "b"`},
		{"AttemptAfterAt", "complete a@0", 1, 12, `the attempt after @ must be a whole number from 1 to 1073741824, got "0"`},
		{"AttemptNotANumber", "fail a@x oops", 1, 8, `the attempt after @ must be a whole number from 1 to 1073741824, got "x"`},
		{"NothingBeforeAt", "complete @1", 1, 10, "complete needs a task before @"},
		{"BadNameBeforeAt", "heartbeat a+@1", 1, 12, `bad task name "a+": '+' is not allowed (names use letters, digits and _ . : / -)`},
		{"FailBangNeedsATask", "fail!", 1, 6, "fail! needs a task"},
		{"FirstErrorWins", "submit a$ b%", 1, 9, `bad task name "a$": '$' is not allowed (names use letters, digits and _ . : / -)`},
		{"ControlCharacter", "submit a\x00", 1, 9, `bad task name "a\x00": '\x00' is not allowed (names use letters, digits and _ . : / -)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse(tt.src)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, %v; want a *SyntaxError", tt.src, s, err)
			}
			if s != nil {
				t.Errorf("Parse(%q) returned a script with its error", tt.src)
			}
			want := &SyntaxError{Line: tt.line, Col: tt.col, Msg: tt.msg}
			if *se != *want {
				t.Errorf("Parse(%q) error\n\t%s\nwant\n\t%s", tt.src, se, want)
			}
			if got, wantText := se.Error(), itoa(tt.line)+":"+itoa(tt.col)+": "+tt.msg; got != wantText {
				t.Errorf("Error() = %q, want %q", got, wantText)
			}
		})
	}
}

func TestOpString(t *testing.T) {
	t.Parallel()
	want := []string{"attempts", "strategy", "submit", "next", "complete", "fail", "redrive", "expect",
		"lease", "backoff", "jitter", "advance", "heartbeat", "poison", "alert", "redrive matching",
		"redrive group", "preview redrive", "redrive cancel", "dlq"}
	for i, w := range want {
		if got := (OpAttempts + Op(i)).String(); got != w {
			t.Errorf("Op(%d).String() = %q, want %q", OpAttempts+Op(i), got, w)
		}
	}
	if got := Op(0).String(); got != "Op(0)" {
		t.Errorf("Op(0).String() = %q, want %q", got, "Op(0)")
	}
	if got := (OpDLQ + 1).String(); got != "Op(21)" {
		t.Errorf("Op(21).String() = %q, want %q", got, "Op(21)")
	}
}

func TestScriptString(t *testing.T) {
	t.Parallel()
	t.Run("Canonical", func(t *testing.T) {
		src := "# x\nattempts  2\n\tsubmit b   a # c\nfail b  HTTP 503 \nfail b\nexpect b READY\nnext\n"
		s, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		want := "attempts 2\nsubmit b a\nfail b HTTP 503\nfail b\nexpect b READY\nnext\n"
		if got := s.String(); got != want {
			t.Errorf("String() =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("TimeCommands", func(t *testing.T) {
		src := "lease  1m0s\nbackoff 1s 2.5 1h30m0s\njitter equal   42\nsubmit a\nnext\nheartbeat a@1\nadvance 250ms\ncomplete a@1\nfail! a@2 bad input\nfail a@3\nadvance 0s\n"
		s, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		want := "lease 1m\nbackoff 1s 2.5 1h30m\njitter equal 42\nsubmit a\nnext\nheartbeat a@1\nadvance 250ms\ncomplete a@1\nfail! a@2 bad input\nfail a@3\nadvance 0s\n"
		if got := s.String(); got != want {
			t.Errorf("String() =\n%s\nwant\n%s", got, want)
		}
		b := s.Backoff
		if s.Lease != time.Minute || b.Base != time.Second || b.Factor != 2.5 || b.Max != 90*time.Minute || b.Jitter != core.JitterEqual || b.Seed != 42 {
			t.Errorf("header: lease %v, backoff %+v", s.Lease, b)
		}
		if c := s.Commands[8]; c.Op != OpFail || !c.Permanent || c.Task != "a" || c.Attempt != 2 || c.Err != "bad input" {
			t.Errorf("fail! a@2 bad input parsed as %+v", c)
		}
		if c := s.Commands[5]; c.Op != OpHeartbeat || c.Task != "a" || c.Attempt != 1 {
			t.Errorf("heartbeat a@1 parsed as %+v", c)
		}
	})
	t.Run("HeaderOfAHandBuiltScript", func(t *testing.T) {
		s := &Script{Attempts: 4, Strategy: incremental.Default, Commands: []Command{{Op: OpNext}}}
		want := "attempts 4\nstrategy " + incremental.Default + "\nnext\n"
		if got := s.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
		back, err := Parse(s.String())
		if err != nil {
			t.Fatal(err)
		}
		if back.Attempts != 4 || back.Strategy != incremental.Default || len(back.Commands) != 3 {
			t.Errorf("Parse(String()) = %+v", back)
		}
	})
	t.Run("AppendedCommandParsesWithTheRest", func(t *testing.T) {
		s, err := Parse("submit a\n\n\nnext\n")
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Parse(s.String() + "complete a\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := s2.Commands[2]; got.Line != 3 || got.Op != OpComplete || got.Task != "a" {
			t.Errorf("appended command = %+v, want complete a on line 3", got)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
