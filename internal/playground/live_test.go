package playground_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	pg "github.com/dagq/dagq/internal/playground"
)

// incident is a script as a live DAG's server exports it: two roots dead
// of one cause, each blocking a task; one of another cause, poisoned.
const incident = `attempts 1
poison 1
submit fetch-a
submit fetch-b
submit parse-a fetch-a
submit parse-b fetch-b
submit disk
next
fail fetch-a HTTP 503
next
fail fetch-b HTTP 503
next
fail disk full
redrive disk
next
fail disk full
`

func TestALiveViewActsOnTheQueueNotTheScript(t *testing.T) {
	p := pg.New()
	if err := p.OpenLive("nightly", incident); err != nil {
		t.Fatal(err)
	}
	s := p.Session()
	if s.Cursor() != s.Len() || p.Live() != "nightly" || p.Title() != "Live: nightly" {
		t.Fatalf("step %d of %d, live %q, title %q: want the last step of the live DAG nightly", s.Cursor(), s.Len(), p.Live(), p.Title())
	}
	if got := p.Address(); got != "?live=nightly" {
		t.Errorf("address %q, want ?live=nightly", got)
	}
	if _, err := p.Act("next"); err == nil || !strings.Contains(err.Error(), "live DAG") {
		t.Errorf("Act in a live view: %v, want a refusal that says it is live", err)
	}
	if err := p.Run("submit x"); err == nil {
		t.Error("Run in a live view was taken")
	}
	if s.Len() != p.Session().Len() {
		t.Error("a refused action changed the script")
	}
	if a := p.ClickTask("parse-a"); a.Do != pg.DoNotice || !strings.Contains(a.Notice, "parse-a is BLOCKED") {
		t.Errorf("a click on a task: %+v, want a notice naming its state", a)
	}

	c := p.Console()
	if len(c.Groups) != 2 || len(c.Poisoned) != 1 {
		t.Fatalf("console %+v: want two groups and one poisoned task", c)
	}
	var http503 int
	for _, g := range c.Groups {
		if strings.Contains(g.Example, "503") {
			http503 = g.Number
		}
	}
	for _, tt := range []struct {
		cmd     string
		route   string
		body    map[string]string
		changes bool
	}{
		{c.Groups[http503-1].Preview, "preview", map[string]string{"fingerprint": c.Groups[http503-1].Fingerprint}, false},
		{c.Groups[http503-1].Redrive, "redrive", map[string]string{"fingerprint": c.Groups[http503-1].Fingerprint}, true},
		{c.Groups[http503-1].RedriveAtRate, "redrive", map[string]string{"fingerprint": c.Groups[http503-1].Fingerprint, "rate": pg.RedriveRate}, true},
		{c.Force[0], "force", map[string]string{"task": "disk"}, true},
		{"redrive fetch-a", "force", map[string]string{"task": "fetch-a"}, true},
		{"redrive cancel", "cancel", map[string]string{}, true},
	} {
		r, err := p.LiveRequest(tt.cmd)
		if err != nil || r.Route != tt.route || r.Changes != tt.changes || len(r.Body) != len(tt.body) {
			t.Errorf("%q: %+v %v, want route %s, body %v", tt.cmd, r, err, tt.route, tt.body)
			continue
		}
		for k, v := range tt.body {
			if r.Body[k] != v {
				t.Errorf("%q: body %v, want %v", tt.cmd, r.Body, tt.body)
			}
		}
	}
	for _, bad := range []string{"next", "redrive group 9", "advance 1s", "complete fetch-a"} {
		if _, err := p.LiveRequest(bad); err == nil {
			t.Errorf("%q was made a live request", bad)
		}
	}

	t.Run("ALinkNamesTheLiveDAG", func(t *testing.T) {
		l, errs := pg.ParseLink("?live=nightly%2F2", "")
		if l.Live != "nightly/2" || len(errs) != 0 {
			t.Errorf("live=nightly%%2F2: %q %v", l.Live, errs)
		}
		if _, errs := pg.ParseLink("?live=", ""); len(errs) != 1 {
			t.Errorf("live= with no DAG: %v, want an error", errs)
		}
	})
	t.Run("ChoosingAScenarioLeavesTheLiveView", func(t *testing.T) {
		if !p.Choose(pg.DefaultScenario) || p.Live() != "" {
			t.Errorf("after Choose, live is %q", p.Live())
		}
	})
}

func TestALiveDAGThatLoadsSlowlyIsLoadedLessOften(t *testing.T) {
	if pg.LiveWait(time.Millisecond) != pg.LivePause || pg.LiveWait(2*time.Second) != 8*time.Second {
		t.Errorf("LiveWait(1ms) = %v, LiveWait(2s) = %v: want LivePause, then four times the load", pg.LiveWait(time.Millisecond), pg.LiveWait(2*time.Second))
	}
}

func TestALiveDetailIsShownOnTheWallClock(t *testing.T) {
	d := pg.LiveDetail{Task: "fetch", State: "RUNNING", SubmittedMs: 1_700_000_000_000, NowMs: 1_700_000_060_000,
		WaitedOnBy: []string{"parse"}, Attempts: []pg.LiveAttempt{
			{N: 1, Worker: "w-1", Outcome: "failed", Error: "HTTP 503", StartedMs: 1_700_000_001_000, EndedMs: 1_700_000_002_000},
			{N: 2, Worker: "w-2", Outcome: "running", StartedMs: 1_700_000_003_000, DeadlineMs: 1_700_000_033_000},
		}}
	td := d.TaskDetail(func(task string) core.State { return map[string]core.State{"parse": core.Pending}[task] })
	if !td.Timed || td.Submitted.Wall.UnixMilli() != d.SubmittedMs || td.Now.Wall.IsZero() {
		t.Errorf("times %+v %+v: want the wall clock", td.Submitted, td.Now)
	}
	if len(td.Attempts) != 2 || td.Attempts[1].Outcome != pg.OutcomeRunning || td.Attempts[0].Worker != "w-1" || td.Attempts[1].Deadline.IsZero() {
		t.Errorf("attempts %+v", td.Attempts)
	}
	if len(td.WaitedOnBy) != 1 || td.WaitedOnBy[0].State != core.Pending {
		t.Errorf("waited on by %+v, want parse PENDING", td.WaitedOnBy)
	}
	if td.Due != (pg.When{}) {
		t.Errorf("a due time of 0 reads %+v, want none", td.Due)
	}
}

// TestALiveAttemptShowsOnlyTheTimesItHas: a live queue keeps no start of
// an attempt that succeeded, and the panel says when it ended, not that it
// started at the clock's zero.
func TestALiveAttemptShowsOnlyTheTimesItHas(t *testing.T) {
	d := pg.LiveDetail{Task: "fetch", State: "SUCCEEDED", SubmittedMs: 1_700_000_000_000, NowMs: 1_700_000_060_000,
		Attempts: []pg.LiveAttempt{
			{N: 1, Outcome: "succeeded", EndedMs: 1_700_000_002_000},
			{N: 1, Round: 1, Outcome: "running", Lease: 4, DeadlineMs: 1_700_000_033_000},
		}}
	td := d.TaskDetail(func(string) core.State { return "" })
	for i, want := range []string{"ended 22:13:22 · succeeded", "lease 4 · running · lease ends at 22:13:53"} {
		if got := td.Attempts[i].Summary(td.Now, td.Timed); got != want {
			t.Errorf("attempt %d reads %q, want %q", i, got, want)
		}
	}
}
