package session_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// mustSession makes a session or stops the test.
func mustSession(t *testing.T, text string, opt scenario.Options) *session.Session {
	t.Helper()
	s, err := session.New(text, opt)
	if err != nil {
		t.Fatalf("session.New: %v", err)
	}
	return s
}

// freshBoard runs text afresh and folds the events of its first k steps.
func freshBoard(t *testing.T, text string, k int) *scenario.Board {
	t.Helper()
	script, err := scenario.Parse(text)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	tr, err := scenario.Run(script, scenario.Options{})
	var ee *scenario.ExpectError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("Run: %v", err)
	}
	var b scenario.Board
	for _, st := range tr.Steps[:k] {
		for _, e := range st.Events {
			b.Apply(e)
		}
	}
	return &b
}

// sameBoard reports how two boards differ; "" if they agree.
func sameBoard(got, want *scenario.Board) string {
	switch {
	case !reflect.DeepEqual(got.States(), want.States()):
		return fmt.Sprintf("states %v, want %v", got.States(), want.States())
	case !slices.Equal(got.Ready(), want.Ready()):
		return fmt.Sprintf("READY line %v, want %v", got.Ready(), want.Ready())
	case !slices.Equal(got.DeadLetters(), want.DeadLetters()):
		return fmt.Sprintf("DLQ %v, want %v", got.DeadLetters(), want.DeadLetters())
	case !slices.Equal(got.Tasks(), want.Tasks()):
		return fmt.Sprintf("tasks %v, want %v", got.Tasks(), want.Tasks())
	}
	return ""
}

func TestSessionSteps(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("diamond-redrive")
	s := mustSession(t, e.Text, scenario.Options{})
	script, _ := scenario.Parse(e.Text)
	if s.Len() != len(script.Commands) || s.Cursor() != 0 {
		t.Fatalf("Len %d Cursor %d, want %d and 0", s.Len(), s.Cursor(), len(script.Commands))
	}
	if len(s.States()) != 0 || len(s.Graph()) != 0 {
		t.Fatalf("step 0 shows %v and graph %v, want nothing", s.States(), s.Graph())
	}
	tests := []struct {
		name string
		move func() int
		want int
	}{
		{"ForwardFromTheStart", func() int { s.Forward(); return s.Cursor() }, 1},
		{"SeekIntoTheMiddle", func() int { return s.Seek(12) }, 12},
		{"BackOneStep", func() int { s.Back(); return s.Cursor() }, 11},
		{"SeekPastTheEndClamps", func() int { return s.Seek(10_000) }, s.Len()},
		{"ForwardAtTheEndStays", func() int { s.Forward(); return s.Cursor() }, s.Len()},
		{"SeekEnd", func() int { s.Seek(3); return s.Seek(scenario.StepEnd) }, s.Len()},
		{"SeekBelowZeroClamps", func() int { return s.Seek(-7) }, 0},
		{"BackAtTheStartStays", func() int { s.Back(); return s.Cursor() }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.move(); got != tt.want {
				t.Fatalf("cursor %d, want %d", got, tt.want)
			}
			if d := sameBoard(s.Board(), freshBoard(t, e.Text, tt.want)); d != "" {
				t.Fatalf("at step %d: %s", tt.want, d)
			}
		})
	}
}

func TestSessionViewAtCursor(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("diamond-redrive")
	s := mustSession(t, e.Text, scenario.Options{})
	// Step to just after the third failure of a: attempts, 4 submits, then
	// next/fail three times and the expect after each.
	k := 0
	for i := 1; i <= s.Len(); i++ {
		if st := s.Step(i); st.State == core.Dead {
			k = i
			break
		}
	}
	if k == 0 {
		t.Fatal("no step sends a task to the DLQ")
	}
	s.Seek(k)

	t.Run("DLQCountsWhatTheDeadTaskBlocks", func(t *testing.T) {
		want := []session.DLQEntry{
			{Task: "a", State: core.Dead, Reason: "failed after 3 attempts: connection reset", Blocks: 3},
			{Task: "b", State: core.Blocked, Reason: "blocked by a", Root: "a"},
			{Task: "c", State: core.Blocked, Reason: "blocked by a", Root: "a"},
			{Task: "d", State: core.Blocked, Reason: "blocked by a", Root: "a"},
		}
		if got := s.DLQ(); !slices.Equal(got, want) {
			t.Fatalf("DLQ\n got %v\nwant %v", got, want)
		}
	})
	t.Run("GraphListsTasksInArrivalOrder", func(t *testing.T) {
		var names []string
		for _, n := range s.Graph() {
			names = append(names, n.Task+"<"+strings.Join(n.Deps, ","))
		}
		if want := []string{"a<", "b<a", "c<a", "d<b,c"}; !slices.Equal(names, want) {
			t.Fatalf("graph %v, want %v", names, want)
		}
	})
	t.Run("LogEndsWithTheBlockingWaveNearestFirst", func(t *testing.T) {
		lines, omitted := s.Log(4)
		if omitted == 0 {
			t.Fatal("Log(4) left nothing out")
		}
		var got []string
		for _, l := range lines {
			got = append(got, l.Kind+" "+l.Text)
			if l.Step != k {
				t.Errorf("line %q is of step %d, want %d", l.Text, l.Step, k)
			}
		}
		want := []string{
			"dead a RUNNING → DEAD: failed after 3 attempts: connection reset",
			"blocked b PENDING → BLOCKED: blocked by a",
			"blocked c PENDING → BLOCKED: blocked by a",
			"blocked d PENDING → BLOCKED: blocked by a",
		}
		if !slices.Equal(got, want) {
			t.Fatalf("log\n got %q\nwant %q", got, want)
		}
		all, none := s.Log(0)
		if none != 0 || len(all) != len(lines)+omitted {
			t.Fatalf("Log(0) gave %d lines, %d omitted; want %d, 0", len(all), none, len(lines)+omitted)
		}
	})
	t.Run("ReadyLineAfterRedrive", func(t *testing.T) {
		s.Seek(k + 5) // expects, then redrive a
		for s.Step(s.Cursor()).Command.Op != scenario.OpRedrive {
			s.Forward()
		}
		if got := s.Ready(); !slices.Equal(got, []string{"a"}) {
			t.Fatalf("READY %v, want [a]", got)
		}
		if got := s.DLQ(); len(got) != 0 {
			t.Fatalf("DLQ %v, want empty", got)
		}
	})
}

func TestSessionCycleAndVisits(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("tricky-cycle")
	for _, strategy := range []string{"dfs", "pk"} {
		t.Run("Strategy="+strategy, func(t *testing.T) {
			s := mustSession(t, e.Text, scenario.Options{Strategy: strategy})
			var cycles [][]string
			submits := 0
			for k := 1; k <= s.Len(); k++ {
				if c := s.Cycle(k); c != nil {
					cycles = append(cycles, c)
				}
				if _, ok := s.Visits(k); ok {
					submits++
				} else if s.Step(k).Command.Op == scenario.OpSubmit {
					t.Errorf("step %d is a submit without visits", k)
				}
			}
			want := [][]string{{"c", "a", "b", "c"}, {"c", "a", "b", "c"}, {"d", "d"}}
			if !reflect.DeepEqual(cycles, want) {
				t.Fatalf("cycles %v, want %v", cycles, want)
			}
			if submits != 6 {
				t.Fatalf("%d steps with visits, want the 6 submits", submits)
			}
			if s.Cycle(0) != nil || s.Cycle(s.Len()+1) != nil {
				t.Fatal("Cycle out of range is not nil")
			}
		})
	}
}

func TestSessionAppend(t *testing.T) {
	t.Parallel()
	const base = "attempts 2\nsubmit b a   # b waits on a\nsubmit a\n"
	tests := []struct {
		name     string
		cmds     []string
		wantErr  string // "" for none
		wantText string // the text after the last command
		wantOK   bool   // the last step's OK, when no error
	}{
		{"RunsAndRecordsCanonicalText", []string{"next", "fail   a   disk full  # oops"}, "",
			base + "next\nfail a disk full\n", true},
		{"RefusedIsRecordedAsARefusedStep", []string{"complete b"}, "",
			base + "complete b\n", false},
		{"CycleIsRecordedAsARefusedStep", []string{"submit c b", "submit x c x"}, "",
			base + "submit c b\nsubmit x c x\n", false},
		{"SyntaxErrorChangesNothing", []string{"submit b!"}, "1:9: bad task name",
			base, false},
		{"UnknownCommand", []string{"  frob a"}, "1:3: unknown command \"frob\"",
			base, false},
		{"EmptyLine", []string{"   # only a comment"}, "1:1: no command",
			base, false},
		{"TwoLines", []string{"next\nnext"}, "1:5: one command at a time",
			base, false},
		{"AttemptsAfterASubmitIsASyntaxError", []string{"  attempts 4"}, "1:3: attempts given twice",
			base, false},
		{"FailingExpectChangesNothing", []string{"expect a DEAD"}, "expect a DEAD: got READY",
			base, false},
		{"HoldingExpectIsRecorded", []string{"expect a READY"}, "",
			base + "expect a READY\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mustSession(t, base, scenario.Options{})
			s.Seek(1)
			var err error
			for _, c := range tt.cmds {
				n := s.Len()
				if err = s.Append(c); err != nil {
					break
				}
				if s.Len() != n+1 || s.Cursor() != s.Len() {
					t.Fatalf("after %q: Len %d Cursor %d, want %d at the end", c, s.Len(), s.Cursor(), n+1)
				}
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Append: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Append error %v, want %q", err, tt.wantErr)
			}
			if s.Text() != tt.wantText {
				t.Fatalf("text\n%s\nwant\n%s", s.Text(), tt.wantText)
			}
			if err == nil {
				if ok := s.Step(s.Len()).OK; ok != tt.wantOK {
					t.Fatalf("last step OK %v, want %v", ok, tt.wantOK)
				}
			}
			// The text is the exact record: a fresh session of it agrees.
			fresh := mustSession(t, s.Text(), scenario.Options{})
			fresh.Seek(scenario.StepEnd)
			if fresh.Len() != s.Len() {
				t.Fatalf("fresh run has %d steps, the session %d", fresh.Len(), s.Len())
			}
			s.Seek(scenario.StepEnd)
			if d := sameBoard(s.Board(), fresh.Board()); d != "" {
				t.Fatalf("fresh run differs: %s", d)
			}
		})
	}

	t.Run("SyntaxErrorIsASyntaxError", func(t *testing.T) {
		s := mustSession(t, base, scenario.Options{})
		var se *scenario.SyntaxError
		if err := s.Append("next now"); !errors.As(err, &se) || se.Line != 1 || se.Col != 6 {
			t.Fatalf("error %#v, want a *scenario.SyntaxError at 1:6", err)
		}
	})
	t.Run("AttemptsBeforeTheFirstSubmitRemakesTheQueue", func(t *testing.T) {
		s := mustSession(t, "", scenario.Options{})
		for _, c := range []string{"attempts 1", "strategy pk", "submit a", "next", "fail a boom"} {
			if err := s.Append(c); err != nil {
				t.Fatalf("Append(%q): %v", c, err)
			}
		}
		if s.Attempts() != 1 || s.Strategy() != "pk" || s.State("a") != core.Dead {
			t.Fatalf("attempts %d strategy %s a %s, want 1, pk, DEAD", s.Attempts(), s.Strategy(), s.State("a"))
		}
		if want := "attempts 1\nstrategy pk\nsubmit a\nnext\nfail a boom\n"; s.Text() != want {
			t.Fatalf("text %q, want %q", s.Text(), want)
		}
	})
	t.Run("TextWithoutFinalNewline", func(t *testing.T) {
		s := mustSession(t, "submit a", scenario.Options{})
		if err := s.Append("next"); err != nil {
			t.Fatal(err)
		}
		if s.Text() != "submit a\nnext\n" {
			t.Fatalf("text %q", s.Text())
		}
	})
	t.Run("NothingAfterAFailedExpect", func(t *testing.T) {
		s := mustSession(t, "submit a\nexpect a DEAD\nnext\n", scenario.Options{})
		var ee *scenario.ExpectError
		if !errors.As(s.Stopped(), &ee) || ee.Line != 2 || s.Len() != 2 {
			t.Fatalf("Stopped %v with %d steps, want the expect of line 2 after 2 steps", s.Stopped(), s.Len())
		}
		if err := s.Append("next"); err == nil || !strings.Contains(err.Error(), "stopped at line 2") {
			t.Fatalf("Append after a failed expect: %v", err)
		}
	})
}

func TestSessionSetStrategyKeepsTheCursor(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("tricky-cycle")
	s := mustSession(t, e.Text, scenario.Options{})
	s.Seek(7)
	before := s.Board()
	if err := s.SetStrategy("pk"); err != nil {
		t.Fatal(err)
	}
	if s.Cursor() != 7 || s.Strategy() != "pk" {
		t.Fatalf("cursor %d strategy %s, want 7 and pk", s.Cursor(), s.Strategy())
	}
	if d := sameBoard(s.Board(), before); d != "" {
		t.Fatal(d)
	}
	if err := s.SetStrategy("nope"); err == nil || s.Strategy() != "pk" {
		t.Fatalf("SetStrategy(nope): %v, strategy now %s", err, s.Strategy())
	}
}

func TestNewSessionErrors(t *testing.T) {
	t.Parallel()
	var se *scenario.SyntaxError
	if _, err := session.New("submit a\nnext x\n", scenario.Options{}); !errors.As(err, &se) || se.Line != 2 || se.Col != 6 {
		t.Fatalf("error %v, want a *scenario.SyntaxError at 2:6", err)
	}
	if _, err := session.New("submit a\n", scenario.Options{Strategy: "nope"}); err == nil || !strings.Contains(err.Error(), "unknown strategy") {
		t.Fatalf("error %v, want an unknown strategy", err)
	}
}

// TestSessionStepsLikeAFreshRun is a property test: on random scripts,
// stepping back and forth at random, and appending commands, always shows
// the board a fresh run of the text shows at that step.
func TestSessionStepsLikeAFreshRun(t *testing.T) {
	t.Parallel()
	const seed = 20240611
	rng := rand.New(rand.NewPCG(seed, 0))
	runs := 300
	if testing.Short() {
		runs = 40
	}
	for run := range runs {
		text := randomSessionScript(rng, 20+rng.IntN(180))
		s, err := session.New(text, scenario.Options{})
		if err != nil {
			t.Fatalf("seed %d run %d: %v\n%s", seed, run, err, text)
		}
		for move := range 40 {
			var what string
			switch r := rng.IntN(11); {
			case r == 10:
				n := rng.IntN(20)
				what = fmt.Sprintf("run ahead %d", n)
				s.RunAhead(n)
			case r < 3:
				what = "forward"
				s.Forward()
			case r < 5:
				what = "back"
				s.Back()
			case r < 9:
				k := rng.IntN(s.Len() + 2)
				what = fmt.Sprintf("seek %d", k)
				s.Seek(k)
			default:
				c := randomCommand(rng)
				what = "append " + c
				if err := s.Append(c); err != nil {
					var ee *scenario.ExpectError
					if !errors.As(err, &ee) {
						t.Fatalf("seed %d run %d move %d: %s: %v", seed, run, move, what, err)
					}
				}
			}
			want := freshBoard(t, s.Text(), s.Cursor())
			if d := sameBoard(s.Board(), want); d != "" {
				t.Fatalf("seed %d run %d move %d (%s), step %d of %d: %s\nscript:\n%s",
					seed, run, move, what, s.Cursor(), s.Len(), d, s.Text())
			}
			if got, wantN := len(s.Graph()), len(want.Tasks()); got != wantN {
				t.Fatalf("seed %d run %d move %d: graph has %d tasks, board %d", seed, run, move, got, wantN)
			}
		}
	}
}

// TestSessionRunsTheTailWhenAskedFor: NewSession runs a script up to its
// last submit and last expect and the rest when asked for; every answer is
// the same as when everything ran at once.
func TestSessionRunsTheTailWhenAskedFor(t *testing.T) {
	t.Parallel()
	const seed = 20261201
	rng := rand.New(rand.NewPCG(seed, 0))
	for run := range 100 {
		text := randomSessionScript(rng, 20+rng.IntN(100)) + "submit z\n" + strings.Repeat("next\n", rng.IntN(30))
		lazy, err := session.New(text, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		eager, _ := session.New(text, scenario.Options{})
		if left := eager.RunAhead(1 << 30); left != 0 {
			t.Fatalf("seed %d run %d: RunAhead left %d commands", seed, run, left)
		}
		nexts := strings.Count(text[strings.LastIndex(text, "submit z"):], "next")
		if left := lazy.RunAhead(0); left != nexts {
			t.Fatalf("seed %d run %d: %d commands left to run after the last submit, want %d", seed, run, left, nexts)
		}
		if lazy.Len() != eager.Len() || lazy.Len() != strings.Count(text, "\n") {
			t.Fatalf("seed %d run %d: Len %d lazily, %d eagerly, %d lines", seed, run, lazy.Len(), eager.Len(), strings.Count(text, "\n"))
		}
		if got, want := len(lazy.GraphAt(scenario.StepEnd)), len(eager.GraphAt(scenario.StepEnd)); got != want {
			t.Fatalf("seed %d run %d: the graph has %d tasks lazily, %d eagerly", seed, run, got, want)
		}
		for range 20 {
			k := rng.IntN(lazy.Len() + 1)
			lazy.Seek(k)
			eager.Seek(k)
			if k > 0 && fmt.Sprint(lazy.Step(k)) != fmt.Sprint(eager.Step(k)) {
				t.Fatalf("seed %d run %d: step %d differs:\n%v\n%v", seed, run, k, lazy.Step(k), eager.Step(k))
			}
			if d := sameBoard(lazy.Board(), eager.Board()); d != "" {
				t.Fatalf("seed %d run %d: board at %d: %s", seed, run, k, d)
			}
			l1, o1 := lazy.Log(0)
			l2, o2 := eager.Log(0)
			if fmt.Sprint(l1, o1) != fmt.Sprint(l2, o2) {
				t.Fatalf("seed %d run %d: log at %d differs", seed, run, k)
			}
			v1, ok1 := lazy.Visits(k)
			v2, ok2 := eager.Visits(k)
			if v1 != v2 || ok1 != ok2 || lazy.Command(max(k, 1)).Text != eager.Command(max(k, 1)).Text {
				t.Fatalf("seed %d run %d: visits or command of step %d differ", seed, run, k)
			}
		}
	}
}

var sessionTasks = []string{"a", "b", "c", "d", "e", "f", "g", "h"}

// randomSessionScript returns a script of n random commands over a few tasks.
func randomSessionScript(rng *rand.Rand, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "attempts %d\n", 1+rng.IntN(3))
	for range n {
		b.WriteString(randomCommand(rng))
		b.WriteByte('\n')
	}
	return b.String()
}

// randomCommand returns one command; an expect only for a state that makes
// no sense for a random task would stop the run, so none is made.
func randomCommand(rng *rand.Rand) string {
	task := func() string { return sessionTasks[rng.IntN(len(sessionTasks))] }
	switch r := rng.IntN(12); {
	case r < 3:
		deps := []string{"submit", task()}
		for range rng.IntN(3) {
			deps = append(deps, task())
		}
		return strings.Join(deps, " ")
	case r < 6:
		return "next"
	case r < 8:
		return "complete " + task()
	case r < 10:
		return "fail " + task() + " boom"
	default:
		return "redrive " + task()
	}
}

// A session steps through a script and grows it: the appended command is
// run, written at the end of the text, and shown.
func ExampleSession() {
	s, err := session.New("attempts 1\nsubmit fetch\nsubmit parse fetch\n", scenario.Options{Strategy: "dfs"})
	if err != nil {
		panic(err)
	}
	s.Seek(scenario.StepEnd)
	fmt.Println("step", s.Cursor(), "of", s.Len(), s.States())
	s.Append("next")
	s.Append("fail fetch HTTP 503")
	for _, d := range s.DLQ() {
		fmt.Printf("%s %s: %s (blocks %d)\n", d.Task, d.State, d.Reason, d.Blocks)
	}
	s.Seek(2)
	fmt.Println("step", s.Cursor(), "of", s.Len(), s.States())
	fmt.Print(s.Text())
	// Output:
	// step 3 of 3 map[fetch:READY parse:PENDING]
	// fetch DEAD: failed after 1 attempt: HTTP 503 (blocks 1)
	// parse BLOCKED: blocked by fetch (blocks 0)
	// step 2 of 5 map[fetch:READY]
	// attempts 1
	// submit fetch
	// submit parse fetch
	// next
	// fail fetch HTTP 503
}

func TestSessionVisitedNamesWhatTheCheckReached(t *testing.T) {
	for _, tt := range []struct {
		strategy string
		want     string
	}{{"dfs", "[c b a]"}, {"twoway", "[c]"}} {
		s, err := session.New("strategy "+tt.strategy+"\nsubmit a\nsubmit b a\nsubmit c b\nsubmit d c\nnext\n", scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(s.Visited(5)); got != tt.want {
			t.Errorf("%s: the submit of d reached %s, want %s", tt.strategy, got, tt.want)
		}
		if got := s.Visited(6); got != nil {
			t.Errorf("%s: next reached %v, want nothing", tt.strategy, got)
		}
	}
}
