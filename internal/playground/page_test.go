package playground_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/practice"
	"github.com/dagq/dagq/internal/session"
)

// open returns a page showing an address, failing the test on a notice.
func open(t *testing.T, query, fragment string) *playground.Page {
	t.Helper()
	p := playground.New()
	if _, notices, err := p.Open(query, fragment); err != nil || notices != nil {
		t.Fatalf("Open(%q, %q): %v %v", query, fragment, notices, err)
	}
	return p
}

// stepOf returns the first step from 1 on whose command reads cmd.
func stepOf(t *testing.T, s *session.Session, cmd string, nth int) int {
	t.Helper()
	for k := 1; k <= s.Len(); k++ {
		if s.Step(k).Command.String() == cmd {
			if nth--; nth == 0 {
				return k
			}
		}
	}
	t.Fatalf("no step %q", cmd)
	return 0
}

func TestOpen(t *testing.T) {
	t.Parallel()
	two, _ := scenario.Lookup("two-roots")
	tests := []struct {
		name, query, fragment string
		scenario              string // the scenario shown; "" for a script
		text                  string // the script shown
		step                  int
		strategy              string
		notices               int
	}{
		{"Default", "", "", "diamond-redrive", "", 0, "", 0},
		{"BadStepKeepsTheScenario", "?scenario=two-roots&step=abc", "", "two-roots", two.Text, 0, "", 1},
		{"BadStepKeepsTheScript", "", "#script=" + b64("submit a\nnext\n") + "&step=x1", "", "submit a\nnext\n", 0, "", 1},
		{"StepLast", "", "#script=" + b64("submit a\nnext\n") + "&step=last", "", "submit a\nnext\n", 2, "", 0},
		{"StrategyInCapitals", "?scenario=two-roots&strategy=DFS&step=2", "", "two-roots", two.Text, 2, "dfs", 0},
		{"UnknownStrategyKeepsTheScript", "", "#script=" + b64("submit a\n") + "&strategy=bfs&step=1", "", "submit a\n", 1, "", 1},
		{"UnknownScenarioShowsTheDefault", "?scenario=nope", "", "diamond-redrive", "", 0, "", 1},
		{"StepPastTheEnd", "?scenario=two-roots&step=99999", "", "two-roots", two.Text, -1, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := playground.New()
			text, notices, err := p.Open(tt.query, tt.fragment)
			if err != nil {
				t.Fatal(err)
			}
			s := p.Session()
			if p.Scenario() != tt.scenario || (tt.text != "" && (text != tt.text || s.Text() != tt.text)) {
				t.Errorf("shows %q %q, want %q %q", p.Scenario(), s.Text(), tt.scenario, tt.text)
			}
			want := tt.step
			if want < 0 {
				want = s.Len()
			}
			if s.Cursor() != want {
				t.Errorf("at step %d, want %d", s.Cursor(), want)
			}
			if tt.strategy != "" && p.Strategy() != tt.strategy {
				t.Errorf("strategy %s, want %s", p.Strategy(), tt.strategy)
			}
			if len(notices) != tt.notices {
				t.Errorf("notices %q, want %d", notices, tt.notices)
			}
			for _, n := range notices {
				if !strings.Contains(n, "left out") {
					t.Errorf("notice %q does not say the parameter was left out", n)
				}
			}
		})
	}
	t.Run("ScriptThatDoesNotParse", func(t *testing.T) {
		p := playground.New()
		text, _, err := p.Open("", "#script="+b64("sumbit a\n"))
		if err == nil || text != "sumbit a\n" || p.Session().Len() != 0 {
			t.Fatalf("Open = %q, %v; session of %d steps", text, err, p.Session().Len())
		}
	})
}

// TestActAtAnEarlierStepBranches: at diamond-redrive's death (a DEAD, b c d
// BLOCKED), redriving a drops the later commands and acts here; Undo brings
// them back.
func TestActAtAnEarlierStepBranches(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=diamond-redrive", "")
	s := p.Session()
	full, n := s.Text(), s.Len()
	death := stepOf(t, s, "expect a DEAD", 1)
	s.Seek(death)
	out, err := p.Act("redrive a")
	if err != nil {
		t.Fatal(err)
	}
	s = p.Session()
	if s.Len() != death+1 || s.Cursor() != death+1 {
		t.Fatalf("after the branch: step %d of %d, want %d of %d", s.Cursor(), s.Len(), death+1, death+1)
	}
	if got := s.State("a"); got != core.Ready {
		t.Errorf("a is %s after the redrive, want READY", got)
	}
	if !strings.HasSuffix(s.Text(), "expect a DEAD\nredrive a\n") && !strings.Contains(s.Text(), "redrive a\n") {
		t.Errorf("script ends %q", s.Text()[max(0, len(s.Text())-40):])
	}
	if out.Dropped != n-death || !strings.Contains(out.Notice, "Undo brings them back") || out.Refused {
		t.Errorf("outcome %+v", out)
	}
	if p.Scenario() != "" {
		t.Errorf("a changed script is still named %q", p.Scenario())
	}
	if !p.Undo() {
		t.Fatal("nothing to undo")
	}
	s = p.Session()
	if s.Text() != full || s.Cursor() != death || p.Scenario() != "diamond-redrive" {
		t.Errorf("after Undo: step %d, scenario %q, text changed: %v", s.Cursor(), p.Scenario(), s.Text() != full)
	}
	if p.Undo() {
		t.Error("a second Undo had something to undo")
	}
}

func TestActRefusals(t *testing.T) {
	t.Parallel()
	t.Run("RefusedCommandIsRecordedAndUndoable", func(t *testing.T) {
		p := open(t, "", "#script="+b64("submit a\nsubmit b a\n")+"&step=end")
		out, err := p.Act("complete b")
		if err != nil {
			t.Fatal(err)
		}
		if !out.Refused || !strings.Contains(out.Notice, "refused") || !strings.Contains(out.Notice, "Undo") {
			t.Errorf("outcome %+v", out)
		}
		if !strings.HasSuffix(p.Session().Text(), "complete b\n") {
			t.Errorf("the refused command is not in the script: %q", p.Session().Text())
		}
		p.Undo()
		if got := p.Session().Text(); got != "submit a\nsubmit b a\n" {
			t.Errorf("after Undo the script is %q", got)
		}
	})
	for _, tt := range []struct{ name, cmd, err string }{
		{"Empty", "  ", "type a command"},
		{"SyntaxError", "sumbit x", "1:1"},
		{"ExpectThatDoesNotHold", "expect a DEAD", "expect a DEAD: it is READY (not added)"},
		{"ExpectNeverSubmitted", "expect z READY", "it is not submitted"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := open(t, "", "#script="+b64("submit a\n")+"&step=end")
			before := p.Session().Text()
			_, err := p.Act(tt.cmd)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Act(%q) = %v, want %q", tt.cmd, err, tt.err)
			}
			if p.Session().Text() != before || p.CanUndo() {
				t.Error("a command not taken changed the page")
			}
		})
	}
}

func TestClickTask(t *testing.T) {
	t.Parallel()
	// a RUNNING, b READY at the front, c READY behind it, d PENDING on
	// a, e DEAD, f BLOCKED by e, g SUCCEEDED.
	script := "attempts 1\nsubmit g\nsubmit e\nsubmit a\nsubmit b\nsubmit c\nsubmit d a\nsubmit f e\n" +
		"next\ncomplete g\nnext\nfail e boom\nnext\n"
	p := open(t, "", "#script="+b64(script)+"&step=end")
	s := p.Session()
	want := map[string]core.State{"a": core.Running, "b": core.Ready, "c": core.Ready, "d": core.Pending,
		"e": core.Dead, "f": core.Blocked, "g": core.Succeeded}
	if got := s.States(); !maps.Equal(got, want) {
		t.Fatalf("states %v, want %v", got, want)
	}
	tests := []struct {
		task string
		do   playground.Do
		what string // the command, the popover's title, or part of the notice
	}{
		{"b", playground.DoCommand, "next"},
		{"c", playground.DoNotice, "next gives b first; c is number 2 in line"},
		{"a", playground.DoPopover, "a is RUNNING"},
		{"e", playground.DoPopover, "e is DEAD"},
		{"d", playground.DoNotice, "d is PENDING: it waits on a."},
		{"f", playground.DoNotice, "f is BLOCKED by e, which is DEAD: redrive e to release it."},
		{"g", playground.DoNotice, "g has SUCCEEDED"},
		{"zz", playground.DoNotice, "zz has not been submitted"},
		{"", playground.DoNothing, ""},
	}
	for _, tt := range tests {
		t.Run(tt.task, func(t *testing.T) {
			a := p.ClickTask(tt.task)
			var got string
			switch a.Do {
			case playground.DoCommand:
				got = a.Command
			case playground.DoPopover:
				got = a.Popover.Title
			case playground.DoNotice:
				got = a.Notice
			}
			if a.Do != tt.do || !strings.Contains(got, tt.what) {
				t.Errorf("ClickTask(%q) = %+v, want %v %q", tt.task, a, tt.do, tt.what)
			}
		})
	}
	if pop := p.ClickTask("e").Popover; pop.Note != "failed after 1 attempt: boom; blocks 1 task." || pop.Buttons[0].Action != "redrive" {
		t.Errorf("DEAD popover %+v", pop)
	}
	if pop := p.ClickTask("a").Popover; !pop.ErrorText || len(pop.Buttons) != 2 || pop.Buttons[1].Action != "fail" {
		t.Errorf("RUNNING popover %+v", pop)
	}
	// Every action a click offers is taken by Act, at every step.
	for k := 0; k <= s.Len(); k++ {
		for task := range want {
			q := open(t, "", "#script="+b64(script)+fmt.Sprintf("&step=%d", k))
			a := q.ClickTask(task)
			var cmds []string
			switch a.Do {
			case playground.DoCommand:
				cmds = []string{a.Command}
			case playground.DoPopover:
				for _, b := range a.Popover.Buttons {
					cmds = append(cmds, playground.PopoverCommand(b.Action, task, "oops"))
				}
			}
			for _, cmd := range cmds {
				q := open(t, "", "#script="+b64(script)+fmt.Sprintf("&step=%d", k))
				if out, err := q.Act(cmd); err != nil || out.Refused {
					t.Errorf("step %d: clicking %s offers %q, which is refused: %+v %v", k, task, cmd, out, err)
				}
			}
		}
	}
}

func TestPopoverCommand(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ action, text, want string }{
		{"complete", "ignored", "complete a"},
		{"fail", "", "fail a"},
		{"fail", "  HTTP   503 ", "fail a HTTP 503"},
		{"fail", "bad # not this", "fail a bad"},
		{"redrive", "", "redrive a"},
	} {
		if got := playground.PopoverCommand(tt.action, "a", tt.text); got != tt.want {
			t.Errorf("PopoverCommand(%q, %q) = %q, want %q", tt.action, tt.text, got, tt.want)
		}
	}
}

func TestKeyFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key       string
		ctrl, alt bool
		at        playground.Target
		want      playground.Key
	}{
		{"ArrowRight", false, false, playground.OnPage, playground.KeyForward},
		{"ArrowLeft", false, false, playground.OnPage, playground.KeyBack},
		{"Home", false, false, playground.OnPage, playground.KeyFirst},
		{"End", false, false, playground.OnPage, playground.KeyLast},
		{" ", false, false, playground.OnPage, playground.KeyPlayPause},
		{"Escape", false, false, playground.OnText, playground.KeyClose},
		// After choosing a speed the focus is on its picker: → still steps.
		{"ArrowRight", false, false, playground.OnControl, playground.KeyForward},
		{"ArrowLeft", false, false, playground.OnControl, playground.KeyBack},
		{"ArrowRight", false, false, playground.OnText, playground.KeyNone},
		{" ", false, false, playground.OnText, playground.KeyNone},
		{"Enter", false, false, playground.OnTask, playground.KeyActTask},
		{" ", false, false, playground.OnTask, playground.KeyActTask},
		{"Enter", false, false, playground.OnButton, playground.KeyNone},
		{" ", false, false, playground.OnButton, playground.KeyNone},
		{"ArrowRight", false, false, playground.OnButton, playground.KeyForward},
		{"Enter", false, false, playground.OnPage, playground.KeyNone},
		{"z", true, false, playground.OnPage, playground.KeyUndo},
		{"z", true, false, playground.OnText, playground.KeyNone},
		{"ArrowRight", true, false, playground.OnPage, playground.KeyNone},
		{"ArrowRight", false, true, playground.OnPage, playground.KeyNone},
		{"x", false, false, playground.OnPage, playground.KeyNone},
		{"+", false, false, playground.OnPage, playground.KeyZoomIn},
		{"=", false, false, playground.OnControl, playground.KeyZoomIn},
		{"-", false, false, playground.OnPage, playground.KeyZoomOut},
		{"0", false, false, playground.OnTask, playground.KeyZoomFit},
		{"0", false, false, playground.OnText, playground.KeyNone},
		{"1", false, false, playground.OnPage, playground.KeyZoomActual},
		{"1", false, false, playground.OnText, playground.KeyNone},
	}
	for _, tt := range tests {
		if got := playground.KeyFor(tt.key, tt.ctrl, tt.alt, tt.at); got != tt.want {
			t.Errorf("KeyFor(%q, ctrl %v, alt %v, %v) = %v, want %v", tt.key, tt.ctrl, tt.alt, tt.at, got, tt.want)
		}
	}
}

func TestShareAndAddress(t *testing.T) {
	t.Parallel()
	t.Run("UnchangedLibraryScenarioLinksByName", func(t *testing.T) {
		p := open(t, "?scenario=two-roots&step=5", "")
		sh := p.Share("https://x.example/")
		if sh.Link != "https://x.example/?scenario=two-roots&step=5" {
			t.Errorf("link %q", sh.Link)
		}
		if !strings.Contains(sh.Embed, `src="https://x.example/?scenario=two-roots&amp;step=5&amp;embed=1"`) {
			t.Errorf("embed %q", sh.Embed)
		}
		if !strings.Contains(sh.Status, "the two-roots scenario at step 5") {
			t.Errorf("status %q", sh.Status)
		}
		if got := p.Address(); got != "?scenario=two-roots&step=5" {
			t.Errorf("address %q", got)
		}
	})
	t.Run("ChangedScriptLinksByScriptCompressed", func(t *testing.T) {
		p := open(t, "?scenario=wide-1000&step=end", "")
		if _, err := p.Act("next"); err != nil {
			t.Fatal(err)
		}
		sh := p.Share("https://x.example/")
		if !strings.HasPrefix(sh.Link, "https://x.example/#script=") || !strings.Contains(sh.Link, "&enc=deflate&") || len(sh.Link) > 20000 {
			t.Errorf("link of %d bytes: %.100q", len(sh.Link), sh.Link)
		}
		q := open(t, "", strings.TrimPrefix(sh.Link, "https://x.example/"))
		if q.Session().Text() != p.Session().Text() || q.Session().Cursor() != p.Session().Cursor() {
			t.Error("the shared link does not open the same script at the same step")
		}
		if p.Address() != strings.TrimPrefix(sh.Link, "https://x.example/") {
			t.Errorf("address %.80q differs from the link", p.Address())
		}
	})
	t.Run("AnOpenedScriptKeepsItsLinkEncoding", func(t *testing.T) {
		e, _ := scenario.Lookup("wide-1000")
		frag := playground.Link{Script: e.Text + "next\n", HasScript: true, Step: 7, HasStep: true}.Fragment()
		p := open(t, "", frag)
		if got := p.Address(); got != frag {
			t.Errorf("address %.60q…, want the link opened %.60q…", got, frag)
		}
	})
	t.Run("AddressFollowsStepAndStrategy", func(t *testing.T) {
		p := open(t, "?scenario=tricky-cycle&embed=1", "")
		p.Seek(3)
		if err := p.SetStrategy("pk"); err != nil {
			t.Fatal(err)
		}
		if got := p.Address(); got != "?scenario=tricky-cycle&step=3&strategy=pk&embed=1" {
			t.Errorf("address %q", got)
		}
		if got := p.FullAddress(); got != "?scenario=tricky-cycle&step=3&strategy=pk" {
			t.Errorf("full address %q", got)
		}
		if !p.Embedded() {
			t.Error("FullAddress changed the embed mode")
		}
	})
}

func TestViews(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=diamond-redrive", "")
	s := p.Session()
	death := stepOf(t, s, "expect a DEAD", 1)
	p.Seek(death)
	counts, all := p.Counts()
	if fmt.Sprint(counts) != "[{DEAD 1} {BLOCKED 3}]" || all != 4 {
		t.Errorf("counts %v of %d", counts, all)
	}
	rows, toggle := p.DLQ(false)
	if toggle != "" {
		t.Errorf("a DLQ of 4 has the toggle %q", toggle)
	}
	if len(rows) != 4 || rows[0].BlocksText != "blocks 3 tasks" || rows[0].Button == nil || rows[1].Button != nil || rows[1].Badge == "" {
		t.Errorf("DLQ rows %+v", rows)
	}
	if v := p.Task("b", p.Reasons()["b"]); v.Label != "⛔ BLOCKED by a" && !strings.Contains(v.Label, "by a") {
		t.Errorf("b drawn as %+v", v)
	}
	if v := p.Task("a", p.Reasons()["a"]); !strings.Contains(v.Aria, "press Enter to redrive") {
		t.Errorf("a's label %q", v.Aria)
	}
	if v := p.Task("zz", ""); v.State != "" || v.Label != playground.GhostLabel {
		t.Errorf("unknown task drawn as %+v", v)
	}
	fail := stepOf(t, s, "fail a connection reset", 3)
	if b := p.Banner(fail, true); b.Kind != "dead" || b.Text != "blocked by a: b, c, d — nearest first" {
		t.Errorf("banner %+v", b)
	}
	if b := p.Banner(fail, false); b.Kind != "" {
		t.Errorf("banner without a wave %+v", b)
	}
	if got := p.Focus(fail); fmt.Sprint(got) != "[a b c d]" {
		t.Errorf("Focus = %v", got)
	}
	q := open(t, "", "#script="+b64("attempts 2\nsubmit a\nnext\ncomplete a\nnext\nnext\n")+"&step=end")
	for k, want := range map[int]string{0: "[]", 1: "[]", 2: "[a]", 4: "[a]", 6: "[a]"} {
		if got := fmt.Sprint(q.Focus(k)); got != want {
			t.Errorf("Focus(%d) = %s, want %s", k, got, want)
		}
	}
	if c := p.Caption(); c.Where == "" || !strings.Contains(c.Text, "expect holds") {
		t.Errorf("caption %+v", c)
	}
	if tl := p.Timeline(); tl.SliderValue != fmt.Sprint(death) || !tl.CanBack || !tl.CanForward {
		t.Errorf("timeline %+v", tl)
	}
	// The room kept for the label is its length at the last step.
	widest := p.Timeline().LabelWidth
	p.Seek(scenario.StepEnd)
	if tl := p.Timeline(); tl.LabelWidth != widest || len(tl.Label) != widest {
		t.Errorf("at the last step the label %q is %d long; %d was kept for it", tl.Label, len(tl.Label), widest)
	}
	p.Seek(death)

	w := open(t, "?scenario=wide-1000&step=end", "")
	for k := w.Session().Len(); k > 0; k-- {
		w.Seek(k)
		if len(w.Session().Ready()) > 100 {
			break
		}
	}
	n := len(w.Session().Ready())
	chips, toggle := w.ReadyLine(false)
	if len(chips) != playground.ReadyCollapsed || !chips[0].Front || chips[1].Front || toggle != fmt.Sprintf("+%d more", n-playground.ReadyCollapsed) {
		t.Errorf("collapsed: %d chips, toggle %q", len(chips), toggle)
	}
	chips, toggle = w.ReadyLine(true)
	if len(chips) != min(n, playground.ReadyOpen) || !strings.HasPrefix(toggle, "show fewer") {
		t.Errorf("open: %d chips, toggle %q", len(chips), toggle)
	}
	short := open(t, "", "#script="+b64("submit a\nsubmit b\n")+"&step=end")
	if chips, toggle := short.ReadyLine(false); len(chips) != 2 || toggle != "" {
		t.Errorf("a short line: %d chips, toggle %q", len(chips), toggle)
	}
	if _, toggle := short.ReadyLine(true); toggle != "" {
		t.Errorf("a short line, open: toggle %q", toggle)
	}
	if v := w.Visits(); v.Count == "" || !strings.Contains(v.Note, "in all so far") {
		t.Errorf("visits %+v", v)
	}
	// The count drawn over the note agrees with it in number.
	cyc := open(t, "scenario=tricky-cycle", "")
	seen := map[string]bool{}
	for k := 1; k <= cyc.Session().Len(); k++ {
		cyc.Seek(k)
		v := cyc.Visits()
		if v.Count == "—" {
			continue
		}
		want := "edges examined"
		if v.Count == "1" {
			want = "edge examined"
		}
		seen[want] = true
		if !strings.HasPrefix(v.Note, want) {
			t.Errorf("step %d: %s over %q, want it to begin %q", k, v.Count, v.Note, want)
		}
	}
	if !seen["edge examined"] || !seen["edges examined"] {
		t.Errorf("tricky-cycle's submits examined one edge, and more, on %v: the test needs both", seen)
	}
}

// TestChangedRestylesLikeAFullDraw is a property test: drawing the board at
// step a, then restyling only the tasks Changed(a, b) names as at step b,
// gives the drawing of step b, for random scripts and steps.
func TestChangedRestylesLikeAFullDraw(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 2))
	names := []string{"a", "b", "c", "d", "e", "f"}
	for i := range 60 {
		var b strings.Builder
		b.WriteString("attempts 2\n")
		for range 40 {
			t := names[rng.IntN(len(names))]
			switch rng.IntN(6) {
			case 0, 1:
				fmt.Fprintf(&b, "submit %s %s\n", t, names[rng.IntN(len(names))])
			case 2:
				b.WriteString("next\n")
			case 3:
				fmt.Fprintf(&b, "complete %s\n", t)
			case 4:
				fmt.Fprintf(&b, "fail %s x\n", t)
			case 5:
				fmt.Fprintf(&b, "redrive %s\n", t)
			}
		}
		p := open(t, "", "#script="+b64(b.String()))
		s := p.Session()
		for range 20 {
			from, to := rng.IntN(s.Len()+1), rng.IntN(s.Len()+1)
			p.Seek(from)
			drawn := map[string]string{}
			for _, n := range s.GraphAt(playground.StepEnd) {
				drawn[n.Task] = p.Task(n.Task, p.Reasons()[n.Task]).Label
			}
			p.Seek(to)
			reasons := p.Reasons()
			for _, task := range p.Changed(from, to) {
				drawn[task] = p.Task(task, reasons[task]).Label
			}
			for task, label := range drawn {
				if want := p.Task(task, reasons[task]).Label; label != want {
					t.Fatalf("case %d (seed %d): from step %d to %d, %s is drawn %q, want %q", i, seed, from, to, task, label, want)
				}
			}
		}
	}
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	ev := func(n int) []core.Event {
		out := make([]core.Event, n)
		for i := range out {
			out[i] = core.Event{Kind: core.EventBlocked, Task: fmt.Sprint(i)}
		}
		return out
	}
	batches, done := playground.Schedule(ev(3))
	if len(batches) != 3 || batches[1].At != playground.Stagger || done != 3*playground.Stagger+playground.Frame {
		t.Errorf("3 events: %+v, done %v", batches, done)
	}
	batches, done = playground.Schedule(ev(1000))
	n := 0
	for i, b := range batches {
		n += len(b.Events)
		if i > 0 && b.At-batches[i-1].At < playground.Frame {
			t.Fatalf("batches %d and %d are less than a frame apart", i-1, i)
		}
	}
	if n != 1000 || done > playground.WaveMax+playground.Frame || len(batches) > int(playground.WaveMax/playground.Frame)+1 {
		t.Errorf("1000 events: %d batches holding %d, done %v", len(batches), n, done)
	}
	if b, _ := playground.Schedule([]core.Event{{Kind: core.EventRejected}}); len(b) != 0 {
		t.Errorf("a rejected submit draws %v", b)
	}
	if !playground.Pulses(make([]core.Event, playground.PulseMost)) || playground.Pulses(make([]core.Event, playground.PulseMost+1)) {
		t.Errorf("Pulses: a step of %d changes flashes them, a step of more does not", playground.PulseMost)
	}
	if playground.Pulse(core.Event{Kind: core.EventDead}) != "die" || playground.Pulse(core.Event{Kind: core.EventStarted}) != "pulse" {
		t.Error("pulse classes")
	}
}

func TestGraphNodes(t *testing.T) {
	t.Parallel()
	nodes, key := playground.GraphNodes([]scenario.Node{{Task: "b", Deps: []string{"a"}}, {Task: "c", Deps: []string{"a", "b"}}})
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) || key != "a\nb a\nc a b\n" {
		t.Errorf("nodes %v, key %q", names, key)
	}
}

func TestGuardRecoversAndReports(t *testing.T) {
	t.Parallel()
	var got playground.Crash
	ran := false
	playground.Guard("click", func() { panic("boom") }, func(c playground.Crash) { got = c })
	playground.Guard("key", func() { ran = true }, func(playground.Crash) { t.Error("reported without a panic") })
	if !ran {
		t.Error("Guard did not run f")
	}
	if !strings.Contains(got.Message, "click: boom") || !strings.Contains(got.Detail, "panic in click: boom") ||
		!strings.Contains(got.Detail, "TestGuardRecoversAndReports") {
		t.Errorf("crash %+v", got)
	}
}

// TestLogSinceExtendsTheLog is a property test: the log of step j < k
// with the lines of steps j+1 to k added, and the earliest dropped to keep
// LogLimit, is the log of step k.
func TestLogSinceExtendsTheLog(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=wide-1000", "")
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 4))
	for i := range 40 {
		k := 1 + rng.IntN(p.Session().Len())
		if i == 0 {
			k = releaseStep(p) // the step of a thousand lines
		}
		j := k - 1
		if i%2 == 1 {
			j = max(0, k-1-rng.IntN(8)) // play that skipped steps
		}
		p.Seek(j)
		before, _ := p.Log()
		p.Seek(k)
		add, more := p.LogSince(j)
		if len(add) > playground.LogLimit {
			t.Fatalf("seed %d, steps %d to %d: LogSince gives %d lines, more than the %d the log lists", seed, j, k, len(add), playground.LogLimit)
		}
		got := append(slices.Clone(before), add...)
		got = got[max(0, len(got)-playground.LogLimit):]
		want, wantMore := p.Log()
		if !slices.Equal(got, want) || more != wantMore {
			t.Fatalf("seed %d, steps %d to %d: the log grown by LogSince differs (%d lines, %q; want %d, %q)", seed, j, k, len(got), more, len(want), wantMore)
		}
	}
}

// releaseStep is the step of p's session with the most events.
func releaseStep(p *playground.Page) int {
	s := p.Session()
	best, at := 0, 1
	for k := 1; k <= s.Len(); k++ {
		if n := len(s.Step(k).Events); n > best {
			best, at = n, k
		}
	}
	return at
}

func TestSeekToAndPlay(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=two-roots", "")
	if !p.SeekTo("3") || p.Session().Cursor() != 3 {
		t.Error("SeekTo(3)")
	}
	if p.SeekTo("3.5") || p.Session().Cursor() != 3 {
		t.Error("SeekTo(3.5) moved")
	}
	p.SeekTo("end")
	if !p.StartPlay() || p.Session().Cursor() != 0 {
		t.Error("play from the end does not start at step 0")
	}
	if p.StartPlay() {
		t.Error("play from step 0 moved")
	}
}

// TestOpeningALongScriptRunsItsHeadOnly: what the page asks for its first
// drawing of a shared script, at step 0, runs no command after the
// script's last submit (session.New leaves those for later), and
// the page answers the same once they have run.
func TestOpeningALongScriptRunsItsHeadOnly(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "submit t%d", i)
		if i > 0 {
			fmt.Fprintf(&b, " t%d", i/2)
		}
		b.WriteString("\n")
	}
	for i := range 300 {
		fmt.Fprintf(&b, "next\ncomplete t%d\n", i)
	}
	p := open(t, "", (playground.Link{Script: b.String(), HasScript: true}).Fragment())
	s := p.Session()
	view := func() string {
		reasons := p.Reasons()
		var out []string
		for _, n := range s.GraphAt(playground.StepEnd) {
			out = append(out, fmt.Sprint(p.Task(n.Task, reasons[n.Task])))
		}
		chips, toggle := p.ReadyLine(false)
		dlq, dlqToggle := p.DLQ(false)
		lines, more := p.Log()
		counts, all := p.Counts()
		return fmt.Sprint(out, p.Timeline(), p.Visits(), counts, all, p.Caption(), p.Clock(), p.Expiries(), p.JoinedReady(),
			p.Console(), chips, toggle, dlq, dlqToggle, lines, more, p.Banner(0, false), p.Visited(0), p.Focus(0), p.Changed(0, 0),
			p.Address(), p.FullAddress(), p.Title(), p.Stopped(), p.TaskNames())
	}
	first := view()
	if left := s.RunAhead(0); left != 600 {
		t.Fatalf("the first drawing ran %d of the 600 commands after the last submit", 600-left)
	}
	s.RunAhead(1 << 30)
	if again := view(); again != first {
		t.Errorf("the page says otherwise once every command has run:\n%s\nwant\n%s", again, first)
	}
}

// TestALongDLQCollapses: outage's dead-letter queue holds 444 entries at
// its dlq step; listed whole, they pushed the cycle check and the event
// log 29,000 pixels down the page.
func TestALongDLQCollapses(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=outage", "")
	p.Seek(stepOf(t, p.Session(), "dlq", 1))
	n := len(p.Session().DLQ())
	if n != 444 {
		t.Fatalf("outage's DLQ holds %d entries at its dlq step, want 444", n)
	}
	rows, toggle := p.DLQ(false)
	if len(rows) != playground.DLQCollapsed || toggle != fmt.Sprintf("+%d more", n-playground.DLQCollapsed) {
		t.Errorf("collapsed: %d rows, toggle %q", len(rows), toggle)
	}
	if rows[0].Task != p.Session().DLQ()[0].Task || rows[0].Button == nil {
		t.Errorf("collapsed, the first row is %+v", rows[0])
	}
	rows, toggle = p.DLQ(true)
	if len(rows) != n || toggle != "show fewer" {
		t.Errorf("open: %d rows, toggle %q", len(rows), toggle)
	}
}

// TestWatchComesBackFromPractice: Watch, after practice, shows what was
// shown before it, at its step, with its Undo; a script of one's own was
// once lost for the default scenario.
func TestWatchComesBackFromPractice(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=two-roots&step=end", "")
	if _, err := p.Act("submit zz"); err != nil {
		t.Fatal(err)
	}
	mine, at := p.Session().Text(), 2
	p.Seek(at)
	for _, ex := range []string{"1", "2"} { // a second exercise keeps what the first kept
		tr, err := practice.NewTrainer(playground.PracticeLink{Level: playground.L4, Set: playground.SetBook, Exercise: ex}, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		p.ShowPractice(tr.Practice().Session())
	}
	if p.Session().Text() == mine {
		t.Fatal("practice shows the script watched")
	}
	if text := p.Watch(); text != mine || p.Session().Text() != mine {
		t.Errorf("back from practice, the script is %q, want %q", text, mine)
	}
	if got := p.Session().Cursor(); got != at {
		t.Errorf("back from practice at step %d, want %d", got, at)
	}
	if p.Scenario() != "" || !p.CanUndo() {
		t.Errorf("back from practice: scenario %q, can undo %v", p.Scenario(), p.CanUndo())
	}
	if !p.Undo() || p.Scenario() != "two-roots" {
		t.Errorf("Undo after practice shows %q", p.Scenario())
	}

	// A page that opened in practice mode watches the default scenario.
	q := playground.New()
	tr, err := practice.NewTrainer(playground.PracticeLink{Level: playground.L5}, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	q.ShowPractice(tr.Practice().Session())
	q.Watch()
	if q.Scenario() != playground.DefaultScenario || q.Session().Cursor() != 0 {
		t.Errorf("a page opened in practice watches %q at step %d", q.Scenario(), q.Session().Cursor())
	}
}

// TestARedriveOfferedIsNotRefused: at every step of poison-pill, the
// redrive that a DEAD task's popover and its dead-letter queue entry offer
// is taken; a poisoned task once offered a plain redrive, which the queue
// refuses, and clicking it dropped the later steps for a refused one.
func TestARedriveOfferedIsNotRefused(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=poison-pill", "")
	poisoned := 0
	for k := 0; k <= p.Session().Len(); k++ {
		p.Seek(k)
		var offers []playground.Button
		var tasks []string
		rows, _ := p.DLQ(true)
		for _, r := range rows {
			if r.Button != nil {
				offers, tasks = append(offers, *r.Button), append(tasks, r.Task)
				a := p.ClickTask(r.Task)
				offers, tasks = append(offers, a.Popover.Buttons...), append(tasks, r.Task)
				if a.Popover.Buttons[0].Action == "redrive!" {
					poisoned++
					if !strings.Contains(a.Popover.Note, "needs a human") {
						t.Errorf("step %d: a poisoned %s's popover says %q", k, r.Task, a.Popover.Note)
					}
				}
			}
		}
		for i, b := range offers {
			q := open(t, "?scenario=poison-pill", "")
			q.Seek(k)
			cmd := playground.PopoverCommand(b.Action, tasks[i], "")
			if out, err := q.Act(cmd); err != nil || out.Refused {
				t.Errorf("step %d: %s's %q offers %q, which is refused: %+v %v", k, tasks[i], b.Label, cmd, out, err)
			}
		}
	}
	if poisoned == 0 {
		t.Error("no step of poison-pill offers a forced redrive")
	}
}

// TestVisitsTotalFollowsTheStrategy: at chain-200's step 100, switching
// the cycle check to dfs gives the total a fresh page opened with dfs
// gives; the page once kept twoway's running total (99) after the switch,
// where dfs had examined 4,950 edges.
func TestVisitsTotalFollowsTheStrategy(t *testing.T) {
	t.Parallel()
	p := open(t, "scenario=chain-200&step=100", "")
	before := p.Visits().Total
	if err := p.SetStrategy("dfs"); err != nil {
		t.Fatal(err)
	}
	fresh := open(t, "scenario=chain-200&step=100&strategy=dfs", "")
	if got, want := p.Visits(), fresh.Visits(); got != want {
		t.Errorf("after switching to dfs: %+v; opened with dfs: %+v (twoway's total was %d)", got, want, before)
	}
	if got := p.Visits().Total; got == before {
		t.Errorf("dfs's total is twoway's, %d", got)
	}
}

// TestPracticeKeyLocksTheTimeline: while a question waits for its answer
// the timeline keys do nothing; once answered, → is the next question;
// once the exercise is done, the keys step again.
func TestPracticeKeyLocksTheTimeline(t *testing.T) {
	ex, _, ok := practice.FindExercise(playground.L4, "1")
	if !ok {
		t.Fatal("no exercise 1 at L4")
	}
	p, _ := practice.NewPractice(ex, false)
	timeline := []playground.Key{playground.KeyBack, playground.KeyForward, playground.KeyFirst, playground.KeyLast, playground.KeyPlayPause, playground.KeyUndo, playground.KeyActTask}
	for _, k := range timeline {
		if got := practice.PracticeKey(k, p); got != playground.KeyNone {
			t.Errorf("key %d before the answer: %d", k, got)
		}
	}
	if got := practice.PracticeKey(playground.KeyZoomIn, p); got != playground.KeyZoomIn {
		t.Errorf("zoom while practising: %d", got)
	}
	p.Answer(practice.Answer{Task: "\x00"})
	if got := practice.PracticeKey(playground.KeyForward, p); got != playground.KeyNextQuestion {
		t.Errorf("→ after the answer: %d, want the next question", got)
	}
	if got := practice.PracticeKey(playground.KeyLast, p); got != playground.KeyNone {
		t.Errorf("End after the answer: %d", got)
	}
	for !p.Done() {
		p.Answer(practice.Answer{Task: "\x00"})
		p.Next()
	}
	if got := practice.PracticeKey(playground.KeyLast, p); got != playground.KeyLast {
		t.Errorf("End once done: %d", got)
	}
	if got := practice.PracticeKey(playground.KeyLast, nil); got != playground.KeyLast {
		t.Errorf("End when not practising: %d", got)
	}
}

// TestPopoverTop: a popover goes under its task, or over it when the
// timeline stuck to a phone's screen would cover its buttons and there is
// room above.
func TestPopoverTop(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name                      string
		below, above, h, top, lim float64
		want                      float64
	}{
		{"RoomBelow", 300, 250, 150, 0, 700, 300},
		{"CoveredBelowRoomAbove", 600, 550, 150, 0, 700, 400},
		{"NoRoomEitherWay", 600, 100, 150, 0, 700, 600},
	} {
		if got := playground.PopoverTop(tt.below, tt.above, tt.h, tt.top, tt.lim); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPractiseListsTheReadyLineByName: while practising, the READY line
// lists its tasks by name, none marked or titled as the front: a
// question may ask which task next hands out, and the line's order is
// the answer. Watching, it is front first again.
func TestPractiseListsTheReadyLineByName(t *testing.T) {
	t.Parallel()
	s, err := session.New("submit b\nsubmit c\nsubmit a\n", scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Seek(scenario.StepEnd)
	p := playground.New()
	p.ShowPractice(s)
	chips, _ := p.ReadyLine(false)
	var names []string
	for _, c := range chips {
		names = append(names, c.Task)
		if c.Front || strings.Contains(c.Title, "front") || strings.Contains(c.Title, "number") {
			t.Errorf("practising, chip %+v tells its place in line", c)
		}
	}
	if got := strings.Join(names, " "); got != "a b c" {
		t.Errorf("practising, the READY line lists %q; want a b c, by name", got)
	}
	if got := p.ReadyOrder(); got != "by name while you practise" {
		t.Errorf("practising, the READY line's heading says %q", got)
	}

	w := open(t, "", "")
	if _, err := w.Act("submit b"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"submit c", "submit a"} {
		if _, err := w.Act(cmd); err != nil {
			t.Fatal(err)
		}
	}
	chips, _ = w.ReadyLine(false)
	if len(chips) < 3 || chips[0].Task != "b" || !chips[0].Front || w.ReadyOrder() != "front first" {
		t.Errorf("watching, the READY line is %+v, heading %q; want b at its front, front first", chips, w.ReadyOrder())
	}
}

// TestABatchBannerNamesItsBatch: a paced redrive's batch redrives ten
// tasks in one step; its banner named the last of them as the redrive
// that released every render of the ten.
func TestABatchBannerNamesItsBatch(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=outage&step=766", "")
	k := 767
	b := p.Banner(k, true)
	if b.Kind != "release" || !strings.HasPrefix(b.Text, "redrive fetch-11, fetch-12, fetch-13 and 7 more: ") {
		t.Errorf("the banner of step %d (%s) says %q", k, p.Session().Step(k).Command.String(), b.Text)
	}
}
