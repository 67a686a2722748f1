package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// dlqQueue is a queue for the tests of operating the DLQ: it records every
// event and checks the invariants after each step.
type dlqQueue struct {
	*Queue
	t      *testing.T
	events []Event
}

func newDLQQueue(t *testing.T, cfg Config) *dlqQueue {
	t.Helper()
	d := &dlqQueue{t: t}
	cfg.OnEvent = func(e Event) { d.events = append(d.events, e) }
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = 1
	}
	q, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d.Queue = q
	return d
}

func (d *dlqQueue) submit(task string, deps ...string) {
	d.t.Helper()
	if err := d.Submit(task, deps...); err != nil {
		d.t.Fatal(err)
	}
}

// kill runs the front task until it is DEAD with msg; it must be task.
func (d *dlqQueue) kill(task, msg string) {
	d.t.Helper()
	for {
		l, ok := d.Next()
		if !ok || l.Task != task {
			d.t.Fatalf("Next() = %+v, %v, want %s", l, ok, task)
		}
		s, err := d.Fail(l, errors.New(msg))
		if err != nil {
			d.t.Fatal(err)
		}
		if s == Dead {
			break
		}
	}
	d.check()
}

// finish runs the front task to success; it must be task.
func (d *dlqQueue) finish(task string) {
	d.t.Helper()
	l, ok := d.Next()
	if !ok || l.Task != task {
		d.t.Fatalf("Next() = %+v, %v, want %s", l, ok, task)
	}
	if err := d.Complete(l); err != nil {
		d.t.Fatal(err)
	}
}

func (d *dlqQueue) check() {
	d.t.Helper()
	if err := checkInvariants(d.Queue); err != nil {
		d.t.Fatal(err)
	}
}

// take returns the events since the last take.
func (d *dlqQueue) take() []Event {
	evs := d.events
	d.events = nil
	return evs
}

func (d *dlqQueue) blast(task string) int {
	d.t.Helper()
	dl, ok := d.deadLetterOf(task)
	if !ok {
		d.t.Fatalf("%s is not in the DLQ", task)
	}
	return dl.BlastRadius
}

func kinds(evs []Event, k EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func taskNames(evs []Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Task
	}
	return out
}

func TestBlastRadius(t *testing.T) {
	t.Parallel()
	t.Run("DiamondCountsEachTaskOnce", func(t *testing.T) {
		t.Parallel()
		q := newDLQQueue(t, Config{})
		q.submit("a")
		q.submit("b", "a")
		q.submit("c", "a")
		q.submit("d", "b", "c")
		q.kill("a", "disk full")
		if got := q.blast("a"); got != 3 {
			t.Errorf("blast radius of a = %d, want 3 (b, c and d once)", got)
		}
	})
	t.Run("SharedDescendantCountsForItsRootOnly", func(t *testing.T) {
		t.Parallel()
		// a → b → d ← y ← x; a dies first, so d is a's; x dies and holds y.
		q := newDLQQueue(t, Config{})
		q.submit("a")
		q.submit("x")
		q.submit("b", "a")
		q.submit("y", "x")
		q.submit("d", "b", "y")
		q.submit("e", "d")
		q.kill("a", "boom")
		q.kill("x", "boom")
		if a, x := q.blast("a"), q.blast("x"); a != 3 || x != 1 {
			t.Errorf("blast radii a, x = %d, %d, want 3 (b, d, e), 1 (y)", a, x)
		}
		// Redriving a reroots d and e to x: its radius grows by two.
		if err := q.Redrive("a"); err != nil {
			t.Fatal(err)
		}
		q.check()
		if x := q.blast("x"); x != 3 {
			t.Errorf("after redriving a, blast radius of x = %d, want 3 (y, d, e)", x)
		}
		// x redriven: nothing is blocked.
		if err := q.Redrive("x"); err != nil {
			t.Fatal(err)
		}
		q.check()
		if n := len(q.DeadLetters()); n != 0 {
			t.Errorf("DLQ has %d entries, want none", n)
		}
	})
	t.Run("ArrivingBlockedCounts", func(t *testing.T) {
		t.Parallel()
		q := newDLQQueue(t, Config{})
		q.submit("a")
		q.kill("a", "boom")
		q.submit("b", "a")
		q.submit("c", "b")
		if got := q.blast("a"); got != 2 {
			t.Errorf("blast radius of a = %d, want 2", got)
		}
		q.check()
	})
}

func TestDeadLetterFields(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{MaxAttempts: 2})
	q.submit("a")
	q.submit("b", "a")
	if err := q.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	q.kill("a", "HTTP 503 from 10.0.3.7:8080")
	want := []DeadLetter{
		{Task: "a", Reason: "failed after 2 attempts: HTTP 503 from 10.0.3.7:8080", State: Dead, Entered: 5 * time.Second,
			Attempts: 2, Error: "HTTP 503 from 10.0.3.7:8080", Fingerprint: "HTTP 503 from <addr>", BlastRadius: 1},
		{Task: "b", Reason: "blocked by a", State: Blocked, Root: "a", Entered: 5 * time.Second},
	}
	if got := q.DeadLetters(); !reflect.DeepEqual(got, want) {
		t.Errorf("DeadLetters() =\n%+v\nwant\n%+v", got, want)
	}
}

func TestDeadLetterGroups(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{})
	deaths := []struct {
		task, err string
		behind    int
	}{
		{"f1", "HTTP 503 from 10.0.3.7:8080", 2},
		{"db", "dial tcp 10.0.0.5:5432: connection refused", 0},
		{"f2", "HTTP 503 from 10.0.3.9:8080", 3},
		{"f3", "HTTP 503 from 10.0.3.7:8081", 0},
		{"s3", "NoSuchKey: key='a/b/1.csv'", 1},
	}
	for _, d := range deaths {
		q.submit(d.task)
		for i := range d.behind {
			q.submit(fmt.Sprintf("%s.w%d", d.task, i), d.task)
		}
	}
	for _, d := range deaths {
		if err := q.Advance(time.Second); err != nil {
			t.Fatal(err)
		}
		q.kill(d.task, d.err)
	}
	want := []DeadLetterGroup{
		{Fingerprint: "HTTP 503 from <addr>", Example: "HTTP 503 from 10.0.3.7:8080", Count: 3,
			First: 1 * time.Second, Last: 4 * time.Second, Tasks: []string{"f1", "f2", "f3"}, BlastRadius: 5},
		{Fingerprint: "dial tcp <addr>: connection refused", Example: "dial tcp 10.0.0.5:5432: connection refused", Count: 1,
			First: 2 * time.Second, Last: 2 * time.Second, Tasks: []string{"db"}},
		{Fingerprint: "NoSuchKey: key='*'", Example: "NoSuchKey: key='a/b/1.csv'", Count: 1,
			First: 5 * time.Second, Last: 5 * time.Second, Tasks: []string{"s3"}, BlastRadius: 1},
	}
	if got := q.DeadLetterGroups(); !reflect.DeepEqual(got, want) {
		t.Errorf("DeadLetterGroups() =\n%+v\nwant\n%+v", got, want)
	}
	// The same groups from the entries alone, as a queue rebuilt from its
	// events or from a database groups them.
	if got := GroupDeadLetters(q.DeadLetters()); !reflect.DeepEqual(got, want) {
		t.Errorf("GroupDeadLetters(DeadLetters()) =\n%+v\nwant\n%+v", got, want)
	}
	// Selecting a group by its fingerprint picks exactly its tasks.
	p := q.PreviewRedrive(Selector{Fingerprint: "HTTP 503 from <addr>"})
	var roots []string
	for _, r := range p.Roots {
		roots = append(roots, r.Task)
	}
	if !slices.Equal(roots, []string{"f1", "f2", "f3"}) || p.Released != 5 || p.Blocked != 0 {
		t.Errorf("PreviewRedrive(group) = %+v, want f1, f2, f3 releasing 5", p)
	}
}

func TestPoisonCap(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{PoisonAfter: 2})
	q.submit("p")
	q.submit("w", "p")
	for i := range 2 {
		q.kill("p", "boom")
		if dl, _ := q.deadLetterOf("p"); dl.Poisoned {
			t.Fatalf("poisoned after %d redrives, want after 2", i)
		}
		if err := q.Redrive("p"); err != nil {
			t.Fatal(err)
		}
	}
	q.take()
	q.kill("p", "boom")
	dead := kinds(q.take(), EventDead)
	if len(dead) != 1 || !dead[0].Poisoned || !strings.Contains(dead[0].String(), "needs a human") {
		t.Errorf("the third death's event = %+v, want it poisoned", dead)
	}
	if dl, _ := q.deadLetterOf("p"); !dl.Poisoned {
		t.Fatalf("DeadLetter(p) = %+v, want poisoned after 2 redrives", dl)
	}
	if g := q.DeadLetterGroups(); len(g) != 1 || !slices.Equal(g[0].Poisoned, []string{"p"}) {
		t.Errorf("DeadLetterGroups() = %+v, want p listed as poisoned", g)
	}

	before := q.DeadLetters()
	if err := q.Redrive("p"); !errors.Is(err, ErrPoisoned) {
		t.Errorf("Redrive(poisoned) = %v, want ErrPoisoned", err)
	}
	if p := q.PreviewRedrive(Selector{Contains: "boom"}); len(p.Roots) != 0 || !slices.Equal(p.Skipped, []string{"p"}) {
		t.Errorf("PreviewRedrive = %+v, want p skipped, nothing to redrive", p)
	}
	j, err := q.RedriveMatching(Selector{Contains: "boom"}, Rate{})
	if err != nil || j.Done != 0 || !j.Finished || !slices.Equal(j.Skipped, []string{"p"}) {
		t.Errorf("RedriveMatching = %+v, %v, want done at once, p skipped", j, err)
	}
	evs := q.take()
	if st := kinds(evs, EventRedriveStarted); len(st) != 1 || !slices.Equal(st[0].Skipped, []string{"p"}) ||
		!strings.Contains(st[0].String(), "skipping p (poisoned)") {
		t.Errorf("started events %v, want one skipping p", st)
	}
	if got := q.DeadLetters(); !reflect.DeepEqual(got, before) {
		t.Errorf("a redrive that skipped p changed the DLQ: %+v, was %+v", got, before)
	}

	// Forced: it moves, and its count starts over.
	if err := q.ForceRedrive("p"); err != nil {
		t.Fatal(err)
	}
	q.check()
	q.kill("p", "boom")
	if dl, _ := q.deadLetterOf("p"); dl.Poisoned {
		t.Errorf("poisoned again at the first death after ForceRedrive: %+v", dl)
	}
	if err := q.ForceRedrive("w"); !errors.Is(err, ErrNotDead) {
		t.Errorf("ForceRedrive(BLOCKED) = %v, want ErrNotDead", err)
	}
}

func TestPoisonAfterOneAndOff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		after, redrives int
		poisoned        bool
	}{{0, 5, false}, {1, 0, false}, {1, 1, true}, {3, 2, false}, {3, 3, true}} {
		q := newDLQQueue(t, Config{PoisonAfter: c.after})
		q.submit("p")
		for range c.redrives {
			q.kill("p", "boom")
			if err := q.Redrive("p"); err != nil {
				t.Fatal(err)
			}
		}
		q.kill("p", "boom")
		if dl, _ := q.deadLetterOf("p"); dl.Poisoned != c.poisoned {
			t.Errorf("PoisonAfter %d, dead after %d redrives: Poisoned = %v, want %v", c.after, c.redrives, dl.Poisoned, c.poisoned)
		}
	}
	if _, err := New(Config{MaxAttempts: 1, PoisonAfter: -1}); err == nil {
		t.Error("New accepted PoisonAfter -1")
	}
}

func TestAlertHysteresis(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{Alert: Alert{Entries: 3, Window: 10 * time.Second}})
	for i := range 8 {
		q.submit(fmt.Sprintf("t%d", i))
	}
	alerts := func() (raised, cleared []time.Duration) {
		for _, e := range q.take() {
			switch e.Kind {
			case EventAlert:
				raised = append(raised, e.At)
			case EventCleared:
				cleared = append(cleared, e.At)
			}
		}
		return
	}
	step := func(d time.Duration) {
		t.Helper()
		if err := q.Advance(d); err != nil {
			t.Fatal(err)
		}
		q.check()
	}
	// Two entries: no alert.
	q.kill("t0", "boom") // at 0
	step(4 * time.Second)
	q.kill("t1", "boom") // at 4s
	if r, c := alerts(); r != nil || c != nil || q.alerting() {
		t.Fatalf("two entries: alerts %v, clears %v, want none", r, c)
	}
	// The third within 10s raises it, once; more entries raise nothing more.
	step(5 * time.Second)
	q.kill("t2", "boom") // at 9s
	if at, ok := q.NextTimer(); !ok || at != 10*time.Second {
		t.Errorf("NextTimer() = %v, %v, want the clear at 10s, when the entry at 0 leaves", at, ok)
	}
	step(500 * time.Millisecond)
	q.kill("t3", "boom") // at 9.5s
	q.kill("t4", "boom") // at 9.5s
	if r, c := alerts(); !slices.Equal(r, []time.Duration{9 * time.Second}) || c != nil || !q.alerting() {
		t.Fatalf("alerts %v, clears %v, want one alert at 9s", r, c)
	}
	// Entries at 0, 4, 9, 9.5, 9.5: fewer than 3 in (now-10s, now] once 9s
	// leaves it, at 19s. An advance past it clears at 19s exactly.
	if at, ok := q.NextTimer(); !ok || at != 19*time.Second {
		t.Errorf("NextTimer() = %v, %v, want the clear at 19s", at, ok)
	}
	step(18*time.Second + 999*time.Millisecond - q.Now())
	if r, c := alerts(); r != nil || c != nil {
		t.Fatalf("before 19s: alerts %v, clears %v", r, c)
	}
	step(time.Minute)
	if r, c := alerts(); r != nil || !slices.Equal(c, []time.Duration{19 * time.Second}) || q.alerting() {
		t.Fatalf("alerts %v, clears %v, want one clear at 19s", r, c)
	}
	// It can be raised again.
	q.kill("t5", "boom")
	q.kill("t6", "boom")
	q.kill("t7", "boom")
	if r, _ := alerts(); len(r) != 1 {
		t.Errorf("a second burst raised %d alerts, want 1", len(r))
	}
	// Blocked tasks are entries too.
	q2 := newDLQQueue(t, Config{Alert: Alert{Entries: 3, Window: time.Second}})
	q2.submit("a")
	q2.submit("b", "a")
	q2.submit("c", "b")
	q2.kill("a", "boom")
	if evs := kinds(q2.take(), EventAlert); len(evs) != 1 || evs[0].String() != "dlq alert: 3 entries or more within 1s" {
		t.Errorf("a death blocking two raised %v, want one alert", evs)
	}
	for _, a := range []Alert{{Entries: -1}, {Entries: 1}, {Window: time.Second}, {Entries: 2, Window: -1}} {
		if _, err := New(Config{MaxAttempts: 1, Alert: a}); err == nil {
			t.Errorf("New accepted Alert %+v", a)
		}
	}
}

// tenDead is a queue with ten tasks dead of one error, each with one task
// behind it.
func tenDead(t *testing.T) *dlqQueue {
	q := newDLQQueue(t, Config{})
	for i := range 10 {
		q.submit(fmt.Sprintf("f%d", i))
		q.submit(fmt.Sprintf("w%d", i), fmt.Sprintf("f%d", i))
	}
	for i := range 10 {
		q.kill(fmt.Sprintf("f%d", i), "HTTP 503")
	}
	q.take()
	return q
}

func TestRedriveRate(t *testing.T) {
	t.Parallel()
	q := tenDead(t)
	j, err := q.RedriveMatching(Selector{Contains: "HTTP 503"}, Rate{N: 2, Per: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if j.Done != 2 || j.Finished || j.Next != time.Second || len(j.Tasks) != 10 {
		t.Fatalf("job = %+v, want 2 of 10 done, next at 1s", j)
	}
	q.check()
	perTime := func() map[time.Duration]int {
		m := map[time.Duration]int{}
		for _, e := range q.take() {
			if e.Kind == EventRedriven {
				m[e.At]++
			}
		}
		return m
	}
	if m := perTime(); !reflect.DeepEqual(m, map[time.Duration]int{0: 2}) {
		t.Errorf("redriven at start: %v, want 2 at 0s", m)
	}
	if err := q.Advance(999 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if m := perTime(); len(m) != 0 {
		t.Errorf("redriven before the period ended: %v", m)
	}
	// A long advance: one batch per period that elapsed, each at its own
	// time, never a burst.
	if err := q.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	q.check()
	want := map[time.Duration]int{1 * time.Second: 2, 2 * time.Second: 2, 3 * time.Second: 2, 4 * time.Second: 2}
	if m := perTime(); !reflect.DeepEqual(m, want) {
		t.Errorf("redriven during a long advance: %v, want %v", m, want)
	}
	if _, ok := q.redriving(); ok {
		t.Error("the redrive is still in progress after its last batch")
	}
	if n := len(q.DeadLetters()); n != 0 {
		t.Errorf("DLQ has %d entries after the redrive, want none", n)
	}
}

func TestRedriveRateEvents(t *testing.T) {
	t.Parallel()
	q := tenDead(t)
	q.Heartbeat(Lease{}) // an op, to show the job's events carry their own
	q.take()
	if _, err := q.RedriveMatching(Selector{Fingerprint: "HTTP 503"}, Rate{N: 4, Per: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if err := q.advanceTo(2 * time.Minute); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range q.take() {
		if e.Task == "" {
			lines = append(lines, fmt.Sprintf("%v %s", e.At, e))
		}
	}
	want := []string{
		`0s redrive group "HTTP 503" started: 10 tasks at 4/1m`,
		`0s redrive group "HTTP 503": f0, f1, f2, f3 redriven, 4 of 10`,
		`1m0s redrive group "HTTP 503": f4, f5, f6, f7 redriven, 8 of 10`,
		`2m0s redrive group "HTTP 503": f8, f9 redriven, 10 of 10`,
		`2m0s redrive group "HTTP 503" done: 10 of 10 redriven`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestRedriveCancel(t *testing.T) {
	t.Parallel()
	q := tenDead(t)
	if err := q.CancelRedrive(); !errors.Is(err, ErrNoRedrive) {
		t.Errorf("CancelRedrive with none = %v, want ErrNoRedrive", err)
	}
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{N: 3, Per: time.Second}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{}); !errors.Is(err, ErrRedriveRunning) {
		t.Errorf("a second redrive = %v, want ErrRedriveRunning", err)
	}
	if err := q.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	q.take()
	if err := q.CancelRedrive(); err != nil {
		t.Fatal(err)
	}
	c := kinds(q.take(), EventRedriveCancelled)
	if len(c) != 1 || c[0].Count != 6 || c[0].Total != 10 {
		t.Errorf("cancelled events %+v, want one at 6 of 10", c)
	}
	if _, ok := q.NextTimer(); ok {
		t.Error("a timer is left after the cancel")
	}
	if err := q.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if evs := kinds(q.take(), EventRedriven); len(evs) != 0 {
		t.Errorf("redriven after the cancel: %v", taskNames(evs))
	}
	if g := q.DeadLetterGroups(); len(g) != 1 || g[0].Count != 4 {
		t.Errorf("groups after cancel %+v, want the 4 left DEAD", g)
	}
	q.check()
	// A new redrive may start now.
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{}); err != nil {
		t.Errorf("a redrive after the cancel: %v", err)
	}
	q.check()
}

func TestRedriveMatchingRefusals(t *testing.T) {
	t.Parallel()
	q := tenDead(t)
	before := q.DeadLetters()
	for _, c := range []struct {
		sel  Selector
		rate Rate
		want error
	}{
		{Selector{}, Rate{}, nil},
		{Selector{Fingerprint: "x", Contains: "y"}, Rate{}, nil},
		{Selector{Contains: "503"}, Rate{N: 0, Per: time.Second}, nil},
		{Selector{Contains: "503"}, Rate{N: 1}, nil},
		{Selector{Contains: "503"}, Rate{N: 1, Per: -time.Second}, nil},
		{Selector{Contains: "nothing like it"}, Rate{}, ErrNoMatch},
		{Selector{Fingerprint: "HTTP <n>"}, Rate{}, ErrNoMatch},
	} {
		_, err := q.RedriveMatching(c.sel, c.rate)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("RedriveMatching(%+v, %+v) = %v, want a refusal (%v)", c.sel, c.rate, err, c.want)
		}
	}
	if got := q.DeadLetters(); !reflect.DeepEqual(got, before) {
		t.Error("a refused redrive changed the DLQ")
	}
	if evs := q.take(); len(evs) != 0 {
		t.Errorf("refused redrives emitted %v", evs)
	}
}

// TestBulkRedriveDecidesEachTaskOnce: the tasks behind many roots are
// decided once, after all are live, and the walk is O(k + V' + E').
func TestBulkRedriveDecidesEachTaskOnce(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{})
	const k, width = 50, 20
	roots := make([]string, k)
	for i := range k {
		roots[i] = fmt.Sprintf("r%d", i)
		q.submit(roots[i])
	}
	// Every task of a wide layer waits on every root: k·width edges.
	for i := range width {
		q.submit(fmt.Sprintf("w%d", i), roots...)
	}
	for _, r := range roots {
		q.kill(r, "HTTP 503")
	}
	q.take()
	visits := q.Stats().RedriveVisits
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{}); err != nil {
		t.Fatal(err)
	}
	q.check()
	evs := q.take()
	if u := kinds(evs, EventUnblocked); len(u) != width {
		t.Errorf("%d unblocked events, want %d, each task once", len(u), width)
	}
	if r := kinds(evs, EventRerooted); len(r) != 0 {
		t.Errorf("rerooted %v, want none: every root is live", taskNames(r))
	}
	// The edges from the roots (k·width) and from the layer (none): at most
	// twice that, never k separate walks of the layer's dependencies.
	if v := q.Stats().RedriveVisits - visits; v > 2*k*width {
		t.Errorf("the redrive examined %d edges, want at most %d", v, 2*k*width)
	}
}

// TestPreviewEqualsRedrive: on random queues, a preview is exactly what the
// redrive at once then does.
func TestPreviewEqualsRedrive(t *testing.T) {
	t.Parallel()
	errs := []string{"HTTP 503 from 10.0.0.1:80", "HTTP 503 from 10.0.0.2:80", "connection refused", "HTTP 500", "disk full"}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		q := newDLQQueue(t, Config{MaxAttempts: 1, PoisonAfter: 1 + r.IntN(2)})
		n := 5 + r.IntN(25)
		for i := range n {
			var deps []string
			for range r.IntN(4) {
				if i > 0 {
					deps = append(deps, fmt.Sprintf("t%d", r.IntN(i)))
				}
			}
			q.submit(fmt.Sprintf("t%d", i), deps...)
		}
		for range 3 * n {
			switch r.IntN(5) {
			case 0, 1:
				if l, ok := q.Next(); ok {
					q.Complete(l)
				}
			case 2, 3:
				if l, ok := q.Next(); ok {
					q.Fail(l, errors.New(errs[r.IntN(len(errs))]))
				}
			default:
				if dl := q.DeadLetterGroups(); len(dl) > 0 {
					g := dl[r.IntN(len(dl))]
					q.Redrive(g.Tasks[r.IntN(len(g.Tasks))])
				}
			}
		}
		q.check()
		var sel Selector
		if r.IntN(2) == 0 {
			sel.Contains = []string{"HTTP", "503", "refused", "disk"}[r.IntN(4)]
		} else if g := q.DeadLetterGroups(); len(g) > 0 {
			sel.Fingerprint = g[r.IntN(len(g))].Fingerprint
		} else {
			continue
		}
		before := q.DeadLetters()
		p := q.PreviewRedrive(sel)
		if got := q.DeadLetters(); !reflect.DeepEqual(got, before) {
			t.Fatalf("seed %d: the preview changed the DLQ", seed)
		}
		q.take()
		_, err := q.RedriveMatching(sel, Rate{})
		if len(p.Roots)+len(p.Skipped) == 0 {
			if !errors.Is(err, ErrNoMatch) {
				t.Fatalf("seed %d: empty preview, but RedriveMatching = %v", seed, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		q.check()
		if err := previewMatches(p, q.take()); err != nil {
			t.Fatalf("seed %d, %+v: %v", seed, sel, err)
		}
	}
}

// previewMatches checks a redrive's events against its preview.
func previewMatches(p RedrivePreview, evs []Event) error {
	var roots, released []string
	stays := map[string]string{}
	for _, r := range p.Roots {
		roots = append(roots, r.Task)
		released = append(released, r.Release...)
		for _, s := range r.Stay {
			stays[s.Task] = s.Root
		}
	}
	if got := taskNames(kinds(evs, EventRedriven)); !slices.Equal(got, roots) {
		return fmt.Errorf("redriven %q, preview says %q", got, roots)
	}
	if got := taskNames(kinds(evs, EventUnblocked)); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(released))) {
		return fmt.Errorf("released %q, preview says %q", got, released)
	}
	gotStays := map[string]string{}
	for _, e := range kinds(evs, EventRerooted) {
		if _, twice := gotStays[e.Task]; twice {
			return fmt.Errorf("%s rerooted twice", e.Task)
		}
		gotStays[e.Task] = e.Root
	}
	if !reflect.DeepEqual(gotStays, stays) && len(gotStays)+len(stays) > 0 {
		return fmt.Errorf("rerooted %v, preview says %v", gotStays, stays)
	}
	st := kinds(evs, EventRedriveStarted)
	if len(st) != 1 || !slices.Equal(st[0].Skipped, p.Skipped) || !slices.Equal(st[0].Tasks, roots) {
		return fmt.Errorf("started %+v, preview says %q skipping %q", st, roots, p.Skipped)
	}
	if p.Released != len(released) || p.Blocked != len(stays) {
		return fmt.Errorf("preview totals %d released, %d blocked; lists %d, %d", p.Released, p.Blocked, len(released), len(stays))
	}
	return nil
}

// TestPreviewKeepsRerootedChains: a task of the region that stays BLOCKED
// holds what waits on it, whichever task is its new root (the first task
// interned, here).
func TestPreviewKeepsRerootedChains(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{})
	q.submit("a")
	q.submit("x")
	q.submit("d", "x", "a")
	q.submit("e", "d")
	q.kill("a", "disk full")
	// a is dead first: d and e are a's. Redrive and kill x first instead.
	if err := q.Redrive("a"); err != nil {
		t.Fatal(err)
	}
	q.kill("x", "HTTP 503")
	q.kill("a", "disk full")
	if dl, _ := q.deadLetterOf("e"); dl.Root != "x" {
		t.Fatalf("e is %+v, want blocked by x", dl)
	}
	p := q.PreviewRedrive(Selector{Contains: "503"})
	want := RedrivePreview{Selector: Selector{Contains: "503"}, Blocked: 2, Skipped: []string{},
		Roots: []RootPreview{{Task: "x", Stay: []StillBlocked{{"d", "a"}, {"e", "a"}}}}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("PreviewRedrive = %+v, want %+v", p, want)
	}
	q.take()
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{}); err != nil {
		t.Fatal(err)
	}
	q.check()
	if err := previewMatches(p, q.take()); err != nil {
		t.Error(err)
	}
}

// TestRedriveRateLeavesWhatChanged: a task of the list redriven by hand,
// dead again and poisoned before its turn is left alone, and does not
// count towards the batch.
func TestRedriveRateLeavesWhatChanged(t *testing.T) {
	t.Parallel()
	q := newDLQQueue(t, Config{PoisonAfter: 1})
	for _, n := range []string{"a", "b", "c", "d"} {
		q.submit(n)
	}
	for _, n := range []string{"a", "b", "c", "d"} {
		q.kill(n, "HTTP 503")
	}
	if _, err := q.RedriveMatching(Selector{Contains: "503"}, Rate{N: 1, Per: time.Second}); err != nil {
		t.Fatal(err)
	}
	// The first batch redrove a. Then b is redriven by hand and dies again,
	// poisoned: the second batch passes it and takes c.
	if err := q.Redrive("b"); err != nil {
		t.Fatal(err)
	}
	q.finish("a")
	q.kill("b", "HTTP 503")
	q.take()
	if err := q.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if got := taskNames(kinds(q.take(), EventRedriven)); !slices.Equal(got, []string{"c"}) {
		t.Errorf("the second batch redrove %q, want [c]: b is poisoned", got)
	}
	j, ok := q.redriving()
	if !ok || j.Gone != 1 || j.Done != 2 {
		t.Errorf("Redriving() = %+v, %v, want 2 done, b gone", j, ok)
	}
	q.check()
}

func TestShortDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{time.Minute: "1m", 90 * time.Minute: "1h30m", time.Hour: "1h",
		time.Second: "1s", 1500 * time.Millisecond: "1.5s", 61 * time.Second: "1m1s", 0: "0s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
