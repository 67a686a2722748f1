package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// pair is the in-memory queue and the durable one, driven alike and
// compared after every operation.
type pair struct {
	t      *testing.T
	mem    *core.Queue
	dur    *durable.Queue
	memEv  []core.Event
	durEv  []core.Event
	leases map[string][2]core.Lease // task@attempt → the in-memory and the durable lease
	log    []string
	kinds  map[core.EventKind]int // the events seen, by kind
	db     *durable.DB
	cfg    core.Config // the durable queue's, to open it again
}

func newPair(t *testing.T, db *durable.DB, cfg core.Config) *pair {
	p := &pair{t: t, leases: map[string][2]core.Lease{}, kinds: map[core.EventKind]int{}}
	mc := cfg
	mc.OnEvent = func(e core.Event) { p.memEv = append(p.memEv, e) }
	mem, err := core.New(mc)
	if err != nil {
		t.Fatal(err)
	}
	dc := cfg
	dc.OnEvent = func(e core.Event) { p.durEv = append(p.durEv, e) }
	p.mem, p.dur = mem, openQueue(t, db, dc)
	p.db, p.cfg = db, dc
	return p
}

var sentinels = []error{core.ErrDuplicate, core.ErrCycle, core.ErrUnknown, core.ErrNotRunning,
	core.ErrStaleLease, core.ErrNotDead, core.ErrInvalidName, core.ErrLeaseExpired,
	core.ErrClockBackwards, core.ErrPoisoned, core.ErrNoMatch, core.ErrRedriveRunning, core.ErrNoRedrive}

// sameErr reports whether two errors are alike by core's sentinels.
func sameErr(a, b error) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	for _, s := range sentinels {
		if errors.Is(a, s) != errors.Is(b, s) {
			return false
		}
	}
	return true
}

// do runs one operation on both and compares everything.
func (p *pair) do(what string, mem func() error, dur func() error) {
	p.t.Helper()
	p.log = append(p.log, what)
	me, de := mem(), dur()
	if !sameErr(me, de) {
		p.fail("%s: in memory %v, durable %v", what, me, de)
	}
	var mc, dc *core.CycleError
	if errors.As(me, &mc) && errors.As(de, &dc) && !slices.Equal(mc.Path, dc.Path) {
		p.checkCycle(dc.Path)
	}
	p.compare(what)
}

func (p *pair) fail(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("after\n  %s\n"+format, append([]any{joinLines(p.log)}, args...)...)
}

func joinLines(s []string) string {
	if len(s) > 40 {
		s = s[len(s)-40:]
	}
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "\n  "
		}
		out += x
	}
	return out
}

// checkCycle asserts that path is a cycle of the in-memory graph plus the
// refused edge: first and last the same task, each step an edge.
func (p *pair) checkCycle(path []string) {
	p.t.Helper()
	if len(path) < 2 || path[0] != path[len(path)-1] {
		p.fail("cycle path %v does not come back to its start", path)
	}
	for i := 1; i+1 < len(path); i++ {
		if info, _ := p.mem.Info(path[i]); !slices.Contains(info.Deps, path[i+1]) {
			p.fail("cycle path %v: %s does not wait on %s", path, path[i], path[i+1])
		}
	}
}

// event is what the comparison looks at of an event.
type event struct {
	Kind                core.EventKind
	Task                string
	From, To            core.State
	Deps                []string
	Attempt             int
	Root, Reason, Error string
	At, Due, Deadline   time.Duration
	Poisoned            bool
	Tasks, Skipped      []string
	Count, Total        int
	Window              time.Duration
	Rate                core.Rate
}

func events(es []core.Event, pathOK bool) []event {
	out := make([]event, len(es))
	for i, e := range es {
		out[i] = event{e.Kind, e.Task, e.From, e.To, e.Deps, e.Attempt, e.Root, e.Reason, e.Error, e.At, e.Due, e.Deadline, e.Poisoned,
			e.Tasks, e.Skipped, e.Count, e.Total, e.Window, e.Rate}
		if e.Kind == core.EventRejected && !pathOK {
			out[i].Reason = ""
		}
		if len(out[i].Deps) == 0 {
			out[i].Deps = nil
		}
	}
	return out
}

func (p *pair) compare(what string) {
	p.t.Helper()
	samePath := true
	for i := range p.memEv {
		if i < len(p.durEv) && !slices.Equal(p.memEv[i].Path, p.durEv[i].Path) {
			samePath = false
		}
	}
	if m, d := events(p.memEv, samePath), events(p.durEv, samePath); !alike(m, d) {
		p.fail("events differ:\n  in memory %+v\n  durable   %+v", m, d)
	}
	for _, e := range p.memEv {
		p.kinds[e.Kind]++
	}
	p.memEv, p.durEv = p.memEv[:0], p.durEv[:0]
	ds, err := p.dur.States(bg)
	if err != nil {
		p.t.Fatal(err)
	}
	ms := map[string]core.State{}
	for _, task := range p.mem.Tasks() {
		ms[task], _ = p.mem.Status(task)
	}
	if !reflect.DeepEqual(ms, ds) {
		p.fail("states differ:\n  in memory %v\n  durable   %v", ms, ds)
	}
	if m, d := p.mem.ReadyTasks(), readyTasks(p.t, p.dur); !(len(m) == 0 && len(d) == 0) && !slices.Equal(m, d) {
		p.fail("READY lines differ: in memory %v, durable %v", m, d)
	}
	if m, d := p.mem.DeadLetters(), deadLetters(p.t, p.dur); !(len(m) == 0 && len(d) == 0) && !reflect.DeepEqual(m, d) {
		p.fail("dead letters differ:\n  in memory %+v\n  durable   %+v", m, d)
	}
	if m, d := p.mem.Now(), now(p.t, p.dur); m != d {
		p.fail("clocks differ: in memory %v, durable %v", m, d)
	}
	if m, d := p.mem.Stats().Alerting, alerting(p.t, p.dur); m != d {
		p.fail("alerting: in memory %v, durable %v", m, d)
	}
	var mj core.RedriveJob
	mok := p.mem.Stats().Redrive != nil
	if mok {
		mj = *p.mem.Stats().Redrive
	}
	dj, dok := redriving(p.t, p.dur)
	if mok != dok || !alike(mj, dj) {
		p.fail("redrives in progress differ:\n  in memory %+v %v\n  durable   %+v %v", mj, mok, dj, dok)
	}
}

// reopen opens the durable queue's DAG again, as another process would:
// whatever the DAG holds (an alert's window, a redrive under way) must be
// read from the database.
func (p *pair) reopen() {
	p.log = append(p.log, "(reopen)")
	q, err := p.db.Queue(context.Background(), p.dur.DAG(), p.cfg)
	if err != nil {
		p.t.Fatal(err)
	}
	p.dur = q
	p.compare("reopen")
}

// cancel cancels the bulk redrive in progress, if any.
func (p *pair) cancel() {
	p.do("redrive cancel", p.mem.CancelRedrive, func() error { return p.dur.CancelRedrive(bg) })
}

func (p *pair) submit(task string, deps ...string) {
	p.do(fmt.Sprintf("submit %s %v", task, deps), func() error { return p.mem.Submit(task, deps...) },
		func() error { return p.dur.Submit(bg, task, deps...) })
}

func (p *pair) next() {
	var ml, dl core.Lease
	var mok, dok bool
	p.do("next", func() error { ml, mok = p.mem.Next(); return nil }, func() error { dl, dok = next(p.t, p.dur); return nil })
	if mok != dok || ml.Task != dl.Task || ml.Attempt != dl.Attempt || ml.Deadline != dl.Deadline {
		p.fail("next: in memory %+v %v, durable %+v %v", ml, mok, dl, dok)
	}
	if mok {
		p.leases[fmt.Sprintf("%s@%d", ml.Task, ml.Attempt)] = [2]core.Lease{ml, dl}
	}
}

// submitAny submits a task of names chosen by rng, waiting on up to most
// others of names (a name may come twice, or be the task's own).
func (p *pair) submitAny(rng *rand.Rand, names []string, most int) {
	task := names[rng.IntN(len(names))]
	var deps []string
	for range rng.IntN(most + 1) {
		deps = append(deps, names[rng.IntN(len(names))])
	}
	p.submit(task, deps...)
}

// lease picks a lease handed out before, current or not.
func (p *pair) lease(rng *rand.Rand) ([2]core.Lease, bool) {
	if len(p.leases) == 0 {
		return [2]core.Lease{}, false
	}
	keys := make([]string, 0, len(p.leases))
	for k := range p.leases {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return p.leases[keys[rng.IntN(len(keys))]], true
}

// runningLease picks the current lease of a RUNNING task; any lease
// handed out before if none is RUNNING.
func (p *pair) runningLease(rng *rand.Rand) ([2]core.Lease, bool) {
	var keys []string
	for k, l := range p.leases {
		if cur, ok := p.mem.Lease(l[0].Task); ok && cur.ID == l[0].ID {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return p.lease(rng)
	}
	slices.Sort(keys)
	return p.leases[keys[rng.IntN(len(keys))]], true
}

func (p *pair) complete(l [2]core.Lease) {
	p.do("complete "+l[0].Task+fmt.Sprint("@", l[0].Attempt), func() error { return p.mem.Complete(l[0]) },
		func() error { return p.dur.Complete(bg, l[1]) })
}

func (p *pair) fail2(l [2]core.Lease, err error) {
	var ms, ds core.State
	p.do(fmt.Sprintf("fail %s@%d %v", l[0].Task, l[0].Attempt, err),
		func() error { var e error; ms, e = p.mem.Fail(l[0], err); return e },
		func() error { var e error; ds, e = p.dur.Fail(bg, l[1], err); return e })
	if ms != ds {
		p.fail("fail led to %s in memory, %s durable", ms, ds)
	}
}

func (p *pair) heartbeat(l [2]core.Lease) {
	var ml, dl core.Lease
	p.do(fmt.Sprintf("heartbeat %s@%d", l[0].Task, l[0].Attempt),
		func() error { var e error; ml, e = p.mem.Heartbeat(l[0]); return e },
		func() error { var e error; dl, e = p.dur.Heartbeat(bg, l[1]); return e })
	if ml.Deadline != dl.Deadline {
		p.fail("heartbeat deadlines: in memory %v, durable %v", ml.Deadline, dl.Deadline)
	}
}

func (p *pair) redrive(task string, force bool) {
	if force {
		p.do("redrive! "+task, func() error { return p.mem.ForceRedrive(task) }, func() error { return p.dur.ForceRedrive(bg, task) })
		return
	}
	p.do("redrive "+task, func() error { return p.mem.Redrive(task) }, func() error { return p.dur.Redrive(bg, task) })
}

// bulk redrives the DEAD tasks whose error contains text, at rate (the
// zero Rate: at once), after comparing the two previews.
func (p *pair) bulk(text string, rate core.Rate) {
	sel := core.Selector{Contains: text}
	if m, d := p.mem.PreviewRedrive(sel), previewRedrive(p.t, p.dur, sel); !alike(m, d) {
		p.fail("previews of redrive matching %q differ:\n  in memory %+v\n  durable   %+v", text, m, d)
	}
	if m, d := p.mem.DeadLetterGroups(), deadLetterGroups(p.t, p.dur); !alike(m, d) {
		p.fail("dead-letter groups differ:\n  in memory %+v\n  durable   %+v", m, d)
	}
	var mj, dj core.RedriveJob
	p.do(fmt.Sprintf("redrive matching %s at %v", text, rate), func() error { var e error; mj, e = p.mem.RedriveMatching(sel, rate); return e },
		func() error { var e error; dj, e = p.dur.RedriveMatching(bg, sel, rate); return e })
	if !alike(mj, dj) {
		p.fail("redrive jobs differ:\n  in memory %+v\n  durable   %+v", mj, dj)
	}
}

// alike compares two values as printed, so that a nil slice and an empty
// one are alike.
func alike(a, b any) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }

func (p *pair) advance(d time.Duration) {
	p.do(fmt.Sprint("advance ", d), func() error { return p.mem.Advance(d) }, func() error { return p.dur.Advance(bg, d) })
}

// TestDurableMatchesInMemoryOnRandomOperations drives the durable queue and
// core's side by side through random operations under random settings
// (the growth alert among them, bulk redrives at a rate, cancelled or not,
// and the DAG opened again mid-way) and compares errors, events, states,
// the READY line, the DLQ, the clock, the alert and the redrive in
// progress after each one.
func TestDurableMatchesInMemoryOnRandomOperations(t *testing.T) {
	db := openDB(t, durable.Options{VirtualClock: true})
	runs, ops := 6, 150
	if testing.Short() {
		runs = 4
	}
	seeded(t, runs, 1, func(t *testing.T, rng *rand.Rand) {
		cfg := core.Config{MaxAttempts: 1 + rng.IntN(3)}
		if rng.IntN(2) == 0 {
			cfg.LeaseTimeout = time.Duration(1+rng.IntN(5)) * time.Second
		}
		if rng.IntN(2) == 0 {
			cfg.Backoff = core.Backoff{Base: time.Second, Factor: 2, Max: 10 * time.Second,
				Jitter: core.Jitter(rng.IntN(3)), Seed: rng.Uint64()}
		}
		if rng.IntN(3) == 0 {
			cfg.PoisonAfter = 1
		}
		if rng.IntN(2) == 0 {
			cfg.Alert = core.Alert{Entries: 1 + rng.IntN(4), Window: time.Duration(1+rng.IntN(8)) * time.Second}
		}
		t.Logf("config %+v", cfg)
		p := newPair(t, db, cfg)
		names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}
		for range ops {
			switch k := rng.IntN(22); {
			case k < 6:
				p.submitAny(rng, names, 3)
			case k < 10:
				p.next()
			case k < 13:
				if l, ok := p.lease(rng); ok {
					p.complete(l)
				}
			case k < 15:
				if l, ok := p.lease(rng); ok {
					err := errors.New("HTTP 503")
					if rng.IntN(4) == 0 {
						err = core.Permanent(errors.New("bad input"))
					}
					p.fail2(l, err)
				}
			case k < 16:
				if l, ok := p.lease(rng); ok {
					p.heartbeat(l)
				}
			case k < 17:
				p.redrive(names[rng.IntN(len(names))], rng.IntN(5) == 0)
			case k < 19:
				rate := core.Rate{}
				if rng.IntN(3) != 0 {
					rate = core.Rate{N: 1 + rng.IntN(2), Per: time.Duration(1+rng.IntN(3)) * time.Second}
				}
				p.bulk([]string{"HTTP", "bad", "lease"}[rng.IntN(3)], rate)
			case k < 20 && rng.IntN(2) == 0:
				p.cancel()
			case k < 20:
				p.reopen()
			default:
				p.advance(time.Duration(rng.IntN(4000)) * time.Millisecond)
			}
		}
		t.Logf("events by kind: %v", p.kinds)
	})
}

// TestDurableMatchesInMemoryOperatingTheDLQ is the side-by-side comparison
// weighted towards the dead-letter queue's operations: one attempt, so
// that failures die and block their dependents; the growth alert always
// on; bulk redrives at a rate, advances that run their batches and clear
// the alert, cancels, and the DAG opened again while a redrive is under
// way.
func TestDurableMatchesInMemoryOperatingTheDLQ(t *testing.T) {
	db := openDB(t, durable.Options{VirtualClock: true})
	runs, ops := 4, 200
	if testing.Short() {
		runs, ops = 2, 150
	}
	total := map[core.EventKind]int{}
	seeded(t, runs, 2, func(t *testing.T, rng *rand.Rand) {
		cfg := core.Config{MaxAttempts: 1 + rng.IntN(2),
			Alert: core.Alert{Entries: 2 + rng.IntN(5), Window: time.Duration(2+rng.IntN(10)) * time.Second}}
		if rng.IntN(2) == 0 {
			cfg.PoisonAfter = 1 + rng.IntN(2)
		}
		t.Logf("config %+v", cfg)
		p := newPair(t, db, cfg)
		var names []string
		for i := range 24 {
			names = append(names, fmt.Sprintf("t%02d", i))
		}
		errs := []string{"HTTP 503", "HTTP 500", "timeout"}
		for range ops {
			switch k := rng.IntN(20); {
			case k < 4:
				p.submitAny(rng, names, 2)
			case k < 7:
				p.next()
			case k < 8:
				if l, ok := p.lease(rng); ok {
					p.complete(l)
				}
			case k < 12:
				if l, ok := p.runningLease(rng); ok {
					p.fail2(l, errors.New(errs[rng.IntN(len(errs))]))
				}
			case k < 14:
				rate := core.Rate{}
				if rng.IntN(4) != 0 {
					rate = core.Rate{N: 1 + rng.IntN(2), Per: time.Duration(1+rng.IntN(3)) * time.Second}
				}
				p.bulk([]string{"HTTP", "timeout", "5"}[rng.IntN(3)], rate)
			case k < 15:
				p.cancel()
			case k < 16:
				p.reopen()
			case k < 17:
				p.redrive(names[rng.IntN(len(names))], rng.IntN(4) == 0)
			default:
				p.advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
			}
		}
		t.Logf("events by kind: %v", p.kinds)
		for k, n := range p.kinds {
			total[k] += n
		}
	})
	t.Logf("in all: %v", total)
}
