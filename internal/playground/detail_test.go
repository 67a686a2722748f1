package playground_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/playground"
)

// TestTaskDetailOfTheDiamond follows a, which fails three times, dies,
// blocks its diamond and is redriven: the detail at each step holds the
// attempts so far with their errors, the reason and root, and the tasks
// on either side with their states.
func TestTaskDetailOfTheDiamond(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=diamond-redrive", "")
	s := p.Session()

	t.Run("BeforeItArrives", func(t *testing.T) {
		s.Seek(0)
		d := p.TaskDetail("a")
		if d.State != "" || len(d.Attempts) != 0 || len(d.WaitsOn) != 0 || len(d.WaitedOnBy) != 0 {
			t.Errorf("at step 0: %+v", d)
		}
	})

	t.Run("DeadItBlocksThree", func(t *testing.T) {
		s.Seek(stepOf(t, s, "expect a DEAD", 1))
		d := p.TaskDetail("a")
		if d.State != core.Dead || d.Reason != "failed after 3 attempts: connection reset" || d.Root != "" || d.MaxAttempts != 3 {
			t.Errorf("a: %s, %q, root %q, max %d", d.State, d.Reason, d.Root, d.MaxAttempts)
		}
		if len(d.Attempts) != 3 {
			t.Fatalf("a has %d attempts, want 3: %+v", len(d.Attempts), d.Attempts)
		}
		if d.Timed {
			t.Error("diamond-redrive never uses the clock, yet its times are shown")
		}
		if got, want := d.Attempts[0].Summary(d.Now, d.Timed), "lease 1 · failed: connection reset"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
		for i, at := range d.Attempts {
			want := playground.OutcomeFailed
			if i == 2 {
				want = playground.OutcomeDead
			}
			if at.N != i+1 || at.Round != 0 || at.Lease == 0 || at.Outcome != want || at.Error != "connection reset" {
				t.Errorf("attempt %d: %+v", i+1, at)
			}
		}
		if want := []playground.Neighbour{{"b", core.Blocked}, {"c", core.Blocked}}; !reflect.DeepEqual(d.WaitedOnBy, want) {
			t.Errorf("waited on by %v, want %v", d.WaitedOnBy, want)
		}
		b := p.TaskDetail("b")
		if b.State != core.Blocked || b.Root != "a" || b.Reason != "blocked by a" || len(b.Attempts) != 0 {
			t.Errorf("b: %+v", b)
		}
		if want := []playground.Neighbour{{"a", core.Dead}}; !reflect.DeepEqual(b.WaitsOn, want) {
			t.Errorf("b waits on %v, want %v", b.WaitsOn, want)
		}
		dd := p.TaskDetail("d")
		if want := []playground.Neighbour{{"b", core.Blocked}, {"c", core.Blocked}}; !reflect.DeepEqual(dd.WaitsOn, want) || len(dd.WaitedOnBy) != 0 {
			t.Errorf("d waits on %v, waited on by %v", dd.WaitsOn, dd.WaitedOnBy)
		}
	})

	t.Run("RedrivenItStartsAgain", func(t *testing.T) {
		s.Seek(s.Len())
		d := p.TaskDetail("a")
		if d.State != core.Succeeded || d.Reason != "" || d.Redrives != 1 || len(d.Attempts) != 4 {
			t.Fatalf("a at the end: %s %q, %d redrives, %d attempts", d.State, d.Reason, d.Redrives, len(d.Attempts))
		}
		last := d.Attempts[3]
		if last.N != 1 || last.Round != 1 || last.Outcome != playground.OutcomeSucceeded || last.Error != "" || last.Label() != "attempt 1 after redrive 1" {
			t.Errorf("the attempt after the redrive: %+v, %q", last, last.Label())
		}
		if b := p.TaskDetail("b"); b.State != core.Succeeded || b.Reason != "" || b.Root != "" {
			t.Errorf("b at the end: %+v", b)
		}
	})

	t.Run("RunningHasNoEnd", func(t *testing.T) {
		s.Seek(stepOf(t, s, "next", 1))
		d := p.TaskDetail("a")
		if d.State != core.Running || len(d.Attempts) != 1 || d.Attempts[0].Outcome != playground.OutcomeRunning {
			t.Errorf("a handed out: %+v", d)
		}
	})
}

// TestTaskDetailKeepsTime reads the heartbeat scenario: the attempts'
// times are the virtual clock's, each heartbeat moves the lease's
// deadline, and an expired lease is an attempt failed with "lease
// expired" at its deadline.
func TestTaskDetailKeepsTime(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=heartbeat", "")
	s := p.Session()
	s.Seek(stepOf(t, s, "expect report RUNNING", 1))
	r := p.TaskDetail("report")
	if len(r.Attempts) != 1 || !r.Timed {
		t.Fatalf("report: %+v", r)
	}
	a := r.Attempts[0]
	if a.Heartbeats != 3 || a.Deadline.Clock != 34*time.Second || a.Started.Clock != 0 || r.Now.Clock != 24*time.Second {
		t.Errorf("report running: %+v, now %v", a, r.Now)
	}
	if got, want := a.Summary(r.Now, r.Timed), "lease 1 · since 0s (24s so far) · lease ends at 34s · 3 heartbeats"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}

	s.Seek(stepOf(t, s, "expect index READY", 1))
	x := p.TaskDetail("index")
	if len(x.Attempts) != 1 {
		t.Fatalf("index: %+v", x)
	}
	a = x.Attempts[0]
	if a.Outcome != playground.OutcomeFailed || a.Error != "lease expired" || a.Started.Clock != 25*time.Second || a.Ended.Clock != 35*time.Second {
		t.Errorf("index's expired attempt: %+v", a)
	}
	if got, want := a.Summary(x.Now, x.Timed), "lease 2 · 25s → 35s (10s) · failed: lease expired"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestTaskDetailDelayedIsDue: a task waiting out its backoff says when it
// is due, and says nothing of it once it is READY again.
func TestTaskDetailDelayedIsDue(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=retry-storm-jitter", "")
	s := p.Session()
	delayed := 0
	for k := 1; k <= s.Len(); k++ {
		s.Seek(k)
		for task, st := range s.States() {
			d := p.TaskDetail(task)
			if st == core.Delayed {
				delayed++
			}
			if (st == core.Delayed) != (d.Due != playground.When{}) {
				t.Fatalf("step %d: %s is %s, due %v", k, task, st, d.Due)
			}
			if st == core.Delayed && d.Due.Clock <= d.Now.Clock {
				t.Fatalf("step %d: %s is due at %v, not after now (%v)", k, task, d.Due, d.Now)
			}
		}
	}
	if delayed == 0 {
		t.Error("no task was ever DELAYED: the scenario tests nothing here")
	}
}

// TestTaskDetailFromJSON fills a detail from JSON, as a live queue's page
// does, and reads its times on the wall clock.
func TestTaskDetailFromJSON(t *testing.T) {
	t.Parallel()
	const doc = `{"task":"fetch","state":"RUNNING","max_attempts":3,"timed":true,
		"submitted":{"wall":"2026-01-02T03:04:05Z"},"now":{"wall":"2026-01-02T03:05:00Z"},
		"attempts":[{"n":1,"lease":7,"worker":"w-1","started":{"wall":"2026-01-02T03:04:10Z"},"ended":{"wall":"2026-01-02T03:04:40Z"},"outcome":"failed","error":"HTTP 503"},
		            {"n":2,"lease":9,"worker":"w-2","started":{"wall":"2026-01-02T03:04:50Z"},"outcome":"running"}],
		"waits_on":[{"task":"dns","state":"SUCCEEDED"}],"waited_on_by":[],"args":"{\"url\":\"x\"}"}`
	var d playground.TaskDetail
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	if got, want := d.Attempts[0].Summary(d.Now, d.Timed), "w-1 · lease 7 · 03:04:10 → 03:04:40 (30s) · failed: HTTP 503"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if got, want := d.Attempts[1].Summary(d.Now, d.Timed), "w-2 · lease 9 · since 03:04:50 (10s so far)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if d.Args != `{"url":"x"}` || d.WaitsOn[0] != (playground.Neighbour{"dns", core.Succeeded}) {
		t.Errorf("decoded %+v", d)
	}
	back, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var again playground.TaskDetail
	if err := json.Unmarshal(back, &again); err != nil || !reflect.DeepEqual(again, d) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, again, d)
	}
}

// TestTaskDetailFacts: the panel's lines of a task in the dead-letter
// queue and of one waiting out its backoff.
func TestTaskDetailFacts(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=diamond-redrive", "")
	s := p.Session()
	s.Seek(stepOf(t, s, "expect a DEAD", 1))
	want := []playground.Fact{{"Attempts", "3 of 3"}, {"Reason", "failed after 3 attempts: connection reset"}}
	if got := p.TaskDetail("a").Facts(); !reflect.DeepEqual(got, want) {
		t.Errorf("a dead: %q, want %q", got, want)
	}
	s.Seek(s.Len())
	want = []playground.Fact{{"Attempts", "1 of 3"}, {"Redriven", "1 time"}}
	if got := p.TaskDetail("a").Facts(); !reflect.DeepEqual(got, want) {
		t.Errorf("a at the end: %q, want %q", got, want)
	}
	if got := p.TaskDetail("zz").Facts(); got != nil {
		t.Errorf("a task never submitted: %q", got)
	}
	d := playground.TaskDetail{Task: "x", State: core.Delayed, Timed: true, Now: playground.When{Clock: time.Second}, Due: playground.When{Clock: 3 * time.Second}}
	if got := d.Facts(); len(got) != 3 || got[2] != (playground.Fact{"Due", "at 3s (in 2s)"}) {
		t.Errorf("delayed: %q", got)
	}
}
