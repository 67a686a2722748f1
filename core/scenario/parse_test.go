package scenario

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

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
	states := "(want PENDING, READY, RUNNING, SUCCEEDED, DEAD or BLOCKED)"
	strategies := "(want " + orList(incremental.Names()) + ")"
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"UnknownCommand", "sumbit a", 1, 1,
			`unknown command "sumbit" (want attempts, strategy, submit, next, complete, fail, redrive or expect)`},
		{"CommandsAreLowerCase", "  Submit a", 1, 3,
			`unknown command "Submit" (want attempts, strategy, submit, next, complete, fail, redrive or expect)`},
		{"ErrorOnLaterLine", "submit a\n\n# c\nnxet", 4, 1,
			`unknown command "nxet" (want attempts, strategy, submit, next, complete, fail, redrive or expect)`},
		{"SubmitNeedsATask", "submit", 1, 7, "submit needs a task"},
		{"SubmitNeedsATaskBeforeComment", "submit   # a", 1, 7, "submit needs a task"},
		{"BadTaskName", "submit a$b", 1, 9, `bad task name "a$b": '$' is not allowed (names use letters, digits and _ . : / -)`},
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
	want := []string{"attempts", "strategy", "submit", "next", "complete", "fail", "redrive", "expect"}
	for i, w := range want {
		if got := (OpAttempts + Op(i)).String(); got != w {
			t.Errorf("Op(%d).String() = %q, want %q", OpAttempts+Op(i), got, w)
		}
	}
	if got := Op(0).String(); got != "Op(0)" {
		t.Errorf("Op(0).String() = %q, want %q", got, "Op(0)")
	}
	if got := (OpExpect + 1).String(); got != "Op(9)" {
		t.Errorf("Op(9).String() = %q, want %q", got, "Op(9)")
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
