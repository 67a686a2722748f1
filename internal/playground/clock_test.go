package playground_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dagq/dagq/internal/playground"
)

// TestClockShowsLeasesAndDelays: worker-crash at the steps that matter —
// a lease counting down, its expiry flashed with what followed, the task
// marked where it joined the READY line, and buttons that move the clock.
func TestClockShowsLeasesAndDelays(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=worker-crash", "")
	s := p.Session()
	handedOut := stepOf(t, s, "next", 1)
	s.Seek(handedOut)
	c := p.Clock()
	if !c.Shown || c.Now != 0 || c.Label != "clock 0s" {
		t.Fatalf("at step %d: %+v", handedOut, c)
	}
	if len(c.Timers) != 1 || c.Timers[0] != (playground.TaskTimer{Task: "fetch", Kind: "lease", At: 30 * time.Second, Left: 30 * time.Second, Fraction: 1, Text: "lease ends in 30s"}) {
		t.Errorf("timers %+v, want fetch's lease ending in 30s", c.Timers)
	}
	want := []playground.Advance{{"+1s", "advance 1s"}, {"+10s", "advance 10s"}, {"next deadline (30s)", "advance 30s"}}
	if !slices.Equal(c.Advances, want) {
		t.Errorf("advances %v, want %v", c.Advances, want)
	}

	twenty := stepOf(t, s, "advance 20s", 1)
	s.Seek(twenty)
	if c := p.Clock(); c.Now != 20*time.Second || len(c.Timers) != 1 || c.Timers[0].Left != 10*time.Second || c.Timers[0].Fraction != 1.0/3 {
		t.Errorf("at 20s: %+v", c)
	}
	if got := p.Expiries(); got != nil {
		t.Errorf("an expiry at 20s: %v", got)
	}

	expiry := stepOf(t, s, "advance 10s", 1)
	s.Seek(expiry)
	got := p.Expiries()
	if len(got) != 1 || got[0].Task != "fetch" || got[0].At != 30*time.Second ||
		got[0].Reason != "fetch lease of attempt 1 expired at 30s: READY again at the back of the line" {
		t.Errorf("expiries at 30s: %+v", got)
	}
	if got := p.JoinedReady(); !slices.Equal(got, []string{"fetch"}) {
		t.Errorf("joined the READY line: %v, want fetch", got)
	}
	if c := p.Clock(); len(c.Timers) != 0 || len(c.Advances) != 2 {
		t.Errorf("with nothing timed, the clock shows %+v", c)
	}
}

func TestClockCountsDownADelay(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=retry-storm", "")
	s := p.Session()
	s.Seek(stepOf(t, s, "fail f HTTP 503", 1))
	c := p.Clock()
	if len(c.Timers) != 6 {
		t.Fatalf("timers %+v, want the six DELAYED tasks", c.Timers)
	}
	for i, tm := range c.Timers {
		if tm.Kind != "due" || tm.At != time.Second || tm.Text != "due in 1s" || tm.Task != string(rune('a'+i)) {
			t.Errorf("timer %d: %+v", i, tm)
		}
	}
	s.Seek(stepOf(t, s, "advance 1ms", 1))
	if got := p.JoinedReady(); !slices.Equal(got, []string{"a", "b", "c", "d", "e", "f"}) {
		t.Errorf("joined the READY line at 1s: %v", got)
	}
}

func TestNoClockWithoutTime(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=diamond-redrive", "")
	p.Session().Seek(5)
	if c := p.Clock(); c.Shown {
		t.Errorf("a script without time shows a clock: %+v", c)
	}
}

// TestCaptionsTellTime: the steps of time say what happened, in words.
func TestCaptionsTellTime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scenario, cmd string
		nth           int
		want          string
	}{
		{"worker-crash", "advance 20s", 1, "The clock moves to 20s: nothing falls due."},
		{"worker-crash", "advance 10s", 1, "The clock moves to 30s: fetch's lease expires at 30s, fetch is READY again at the back of the line."},
		{"worker-crash", "lease 30s", 1, "A lease expires 30s after hand-out or heartbeat: a worker that goes silent loses its task."},
		{"heartbeat", "heartbeat report", 1, "report sends a heartbeat: its lease now ends at 18s."},
		{"retry-storm", "fail a HTTP 503", 1, "a failed attempt 1 of 3 (HTTP 503): DELAYED until 1s, when it joins the back of the READY line."},
		{"retry-storm", "advance 1ms", 1, "The clock moves to 1s: a falls due and joins the back of the READY line, b falls due and joins the back of the READY line, c falls due and joins the back of the READY line, d falls due and joins the back of the READY line, e falls due and joins the back of the READY line, f falls due and joins the back of the READY line."},
	}
	for _, tt := range tests {
		p := open(t, "?scenario="+tt.scenario, "")
		s := p.Session()
		k := stepOf(t, s, tt.cmd, tt.nth)
		if got := playground.Explain(s, k); got != tt.want {
			t.Errorf("%s, %q:\n got %q\nwant %q", tt.scenario, tt.cmd, got, tt.want)
		}
	}
}
