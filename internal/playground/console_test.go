package playground_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/playground"
)

// TestConsoleGroupsTheOutage: in the outage, after the failures, the
// console shows the 503s as one group holding 400 renders, the other
// failures as their own groups, the alert raised, and commands that
// preview and redrive a group; at the preview, the drawing marks exactly
// what the redrive then does.
func TestConsoleGroupsTheOutage(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=outage", "")
	s := p.Session()
	k := stepOf(t, s, "dlq", 1)
	s.Seek(k)
	c := p.Console()
	if len(c.Groups) < 2 {
		t.Fatalf("%d groups, want the 503s and the other failures apart", len(c.Groups))
	}
	g := c.Groups[0]
	if g.Number != 1 || g.Count != 40 || g.BlastRadius != 400 || g.Bar != 1 || len(g.Blocked) != 400 || !strings.Contains(g.Fingerprint, "503") {
		t.Errorf("group 1: number %d, %d tasks blocking %d (%d listed), bar %v, fingerprint %q", g.Number, g.Count, g.BlastRadius, len(g.Blocked), g.Bar, g.Fingerprint)
	}
	if g.Preview != "preview redrive group 1" || g.Redrive != "redrive group 1" || g.RedriveAtRate != "redrive group 1 at 2/1s" || g.RateLabel != "Redrive at 2/s" {
		t.Errorf("group 1's commands: %q, %q, %q, labelled %q", g.Preview, g.Redrive, g.RedriveAtRate, g.RateLabel)
	}
	for _, other := range c.Groups[1:] {
		if other.Bar >= 1 || other.Count == 0 {
			t.Errorf("group %d: %d tasks, bar %v", other.Number, other.Count, other.Bar)
		}
	}

	// The alert rose during the outage and clears when it is over.
	raised := false
	for k := 1; k <= s.Len(); k++ {
		s.Seek(k)
		if alert := p.Console().Alert; alert != "" {
			raised = true
			// Its count of entries is the DEAD badge's and the BLOCKED
			// one's: it once said "444 in it now" beside "DEAD 43".
			want := fmt.Sprintf("; %d in it now (%d DEAD, %d BLOCKED).", s.Count(core.Dead)+s.Count(core.Blocked), s.Count(core.Dead), s.Count(core.Blocked))
			if !strings.Contains(alert, want) {
				t.Errorf("step %d: the alert says %q; want %q", k, alert, want)
			}
			break
		}
	}
	s.Seek(s.Len())
	if !raised || p.Console().Alert != "" {
		t.Errorf("the alert was raised: %v; at the end it reads %q", raised, p.Console().Alert)
	}

	// The preview marks what the redrive that follows it redrives.
	pk := stepOf(t, s, "preview redrive group 1", 1)
	s.Seek(pk)
	redrive, release := p.PreviewMarks()
	if len(redrive) != 40 || len(release) != 400 {
		t.Errorf("the preview marks %d to redrive and %d to release, want 40 and 400", len(redrive), len(release))
	}
	s.Seek(pk + 1)
	if r, _ := p.PreviewMarks(); r != nil {
		t.Errorf("marks at a step that is not a preview: %v", r)
	}
}

// TestConsoleSetsThePoisonPillApart: a task past the poison cap is listed
// as needing a person until it is forced.
func TestConsoleSetsThePoisonPillApart(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=poison-pill", "")
	s := p.Session()
	s.Seek(stepOf(t, s, "dlq", 1))
	if got := p.Console(); !slices.Equal(got.Poisoned, []string{"decode"}) || !slices.Equal(got.Force, []string{"redrive! decode"}) {
		t.Errorf("poisoned %v, forced by %q, want decode, by redrive! decode", got.Poisoned, got.Force)
	}
	s.Seek(stepOf(t, s, "redrive! decode", 1))
	if got := p.Console().Poisoned; got != nil {
		t.Errorf("after the forced redrive, poisoned %v", got)
	}
}

// TestCaptionsOfTheConsole: a preview and a bulk redrive say what they do.
func TestCaptionsOfTheConsole(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=outage", "")
	s := p.Session()
	k := stepOf(t, s, "preview redrive group 1", 1)
	if got, want := playground.Explain(s, k), "Preview, nothing changed: redrive group 1 would redrive 40 tasks and release 400 blocked tasks."; got != want {
		t.Errorf("preview:\n got %q\nwant %q", got, want)
	}
	if got := playground.Explain(s, k+1); !strings.HasPrefix(got, `redrive group "HTTP 503 Service Unavailable from <addr>`) || !strings.Contains(got, "started: 40 tasks at 10/10s. Released: render-01-01") {
		t.Errorf("the bulk redrive's caption is %q", got)
	}
}

// TestConsolePreviewChangesNothing: the console's Preview at an earlier
// step marks what the redrive would move and says so, and changes neither
// the script nor its later steps; moving on takes the marks away.
func TestConsolePreviewChangesNothing(t *testing.T) {
	t.Parallel()
	p := playground.New()
	if _, _, err := p.Open("?scenario=diamond-redrive&step=14", ""); err != nil {
		t.Fatal(err)
	}
	s := p.Session()
	n, text := s.Len(), s.Text()
	if err := p.Preview("preview redrive group 1"); err != nil {
		t.Fatal(err)
	}
	if p.Session() != s || s.Len() != n || s.Text() != text || s.Cursor() != 14 {
		t.Fatalf("the preview changed the script: %d steps (was %d), at step %d", p.Session().Len(), n, p.Session().Cursor())
	}
	redrive, release := p.PreviewMarks()
	if !slices.Equal(redrive, []string{"a"}) || !slices.Equal(release, []string{"b", "c", "d"}) {
		t.Errorf("marks: redrive %v, release %v; want [a] and [b c d]", redrive, release)
	}
	if c := p.Caption(); !strings.HasPrefix(c.Text, "Preview, nothing changed: redrive group 1 would redrive 1 task") {
		t.Errorf("caption %q", c.Text)
	}
	p.Seek(15)
	if r, _ := p.PreviewMarks(); r != nil {
		t.Errorf("the marks stay at another step: %v", r)
	}
	if err := p.Preview("redrive group 1"); err == nil {
		t.Error("a redrive taken for a preview")
	}
}

// TestConsoleShowsAPacedRedrive: in the outage, after "redrive group 1 at
// 10/10s", the console says how far the redrive got and when its next
// batch is due, offers the advance that reaches it and Cancel, and marks
// the groups' Redrive refused with the reason; once its last batch is
// in, none of it.
func TestConsoleShowsAPacedRedrive(t *testing.T) {
	t.Parallel()
	p := open(t, "scenario=outage&step=546", "")
	c := p.Console()
	if c.Paced == nil {
		t.Fatal("no paced redrive at step 546")
	}
	if c.Paced.Label != "10/40 redriven, next batch in 10s" || c.Paced.Next != "advance 10s" || c.Paced.Cancel != "redrive cancel" {
		t.Errorf("paced redrive %+v", *c.Paced)
	}
	for _, g := range c.Groups {
		if g.Refused == "" {
			t.Errorf("group %d's Redrive is not refused while the redrive runs", g.Number)
		}
	}
	if _, err := p.Act(c.Paced.Next); err != nil {
		t.Fatal(err)
	}
	if got := p.Console().Paced; got == nil || got.Label != "20/40 redriven, next batch in 10s" {
		t.Errorf("after the next batch: %+v", got)
	}
	end := open(t, "scenario=outage&step=end", "")
	if c := end.Console(); c.Paced != nil {
		t.Errorf("at the end: %+v", *c.Paced)
	}
}
