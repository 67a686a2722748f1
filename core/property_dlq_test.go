package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/incremental"
)

// The model of operating the DLQ, for the property test: the poison-pill
// cap, the growth alert and the bulk redrive in progress, folded from the
// events as the rest of the model is, and predicted before each operation.

// The model's timers of no task, among its task timers: names no task has.
const (
	alertTimerName = "\x00alert"
	jobTimerName   = "\x00redrive"
)

type dlqModel struct {
	poisonAfter int
	alertCfg    Alert
	dlqOps      bool

	redrives map[string]int // redrives since submit or the last forced one
	forcing  string         // the task a ForceRedrive is redriving

	entries     []time.Duration // DLQ entry times, those still in the window
	alertOn     bool
	expectAlert bool // the entry just folded raised the alert: its event is next
	// alerts are the alert events of the operation, set apart from the
	// others (which the checks of each operation expect exactly), each with
	// the event it came right after: folding that event must raise it.
	alerts []pendingAlert

	job *modelJob
}

// pendingAlert is an alert event and the event it came right after.
type pendingAlert struct {
	alert, after Event
}

// setAlertsApart takes the alert events out of evs into h.alerts; fold
// puts each back right after the entry that raised it.
func (h *harness) setAlertsApart(evs []Event) []Event {
	kept := evs[:0]
	for i, e := range evs {
		if e.Kind == EventAlert {
			var after Event
			if i > 0 {
				after = evs[i-1]
			}
			h.alerts = append(h.alerts, pendingAlert{alert: e, after: after})
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// foldAlert folds the alert the entry e just raised, which must have come
// right after it.
func (h *harness) foldAlert(e Event) error {
	if len(h.alerts) == 0 || h.alerts[0].after.Op != e.Op || h.alerts[0].after.Task != e.Task || h.alerts[0].after.Kind != e.Kind {
		return fmt.Errorf("%s raised the alert, but no alert event came right after it (alerts: %+v)", e, h.alerts)
	}
	a := h.alerts[0].alert
	h.alerts = h.alerts[1:]
	return h.foldDLQ(a)
}

// modelJob is the bulk redrive in progress, as the model sees it.
type modelJob struct {
	sel   Selector
	rate  Rate
	tasks []string
	pos   int
	done  int
}

func newDLQModel(cfg seqConfig) dlqModel {
	return dlqModel{poisonAfter: cfg.poisonAfter, alertCfg: cfg.alert, dlqOps: cfg.dlqOps, redrives: map[string]int{}}
}

// randomDLQ picks the poison-pill cap (off half the time), the growth
// alert (on a third of the time) and whether bulk redrives, cancels and
// forced redrives are generated (half the time).
func randomDLQ(r *rand.Rand) (int, Alert, bool) {
	poison := []int{0, 0, 1, 2}[r.IntN(4)]
	var a Alert
	if r.IntN(3) == 0 {
		a = Alert{Entries: 1 + r.IntN(4), Window: []time.Duration{time.Second, 5 * time.Second, 30 * time.Second}[r.IntN(3)]}
	}
	return poison, a, r.IntN(2) == 0
}

// bulkString writes a bulk redrive as the scenario language does.
func bulkString(sel Selector, rate Rate) string {
	s := "redrive matching " + sel.Contains
	switch {
	case sel.Fingerprint != "" && sel.Contains != "":
		s = fmt.Sprintf("redrive # RedriveMatching(%+v) (invalid)", sel)
	case sel.Fingerprint != "":
		s = fmt.Sprintf("redrive group %q", sel.Fingerprint)
	case sel.Contains == "":
		s = "redrive matching # an empty selector (invalid)"
	}
	if rate != (Rate{}) {
		s += fmt.Sprintf(" at %d/%v", rate.N, rate.Per)
	}
	return s
}

// bulk makes a bulk redrive: by text or by the fingerprint of a DEAD task,
// at once or at a rate, now and then with an invalid selector or rate.
func (g *generator) bulk() op {
	r, h := g.r, g.h
	o := op{kind: opBulk}
	switch m := r.IntN(20); {
	case m == 0:
		o.sel = Selector{}
	case m == 1:
		o.sel = Selector{Fingerprint: "boom", Contains: "boom"}
	case m < 8:
		o.sel.Fingerprint = "HTTP 503"
		var dead []DeadLetter
		for _, d := range h.dlq {
			if d.State == Dead {
				dead = append(dead, d)
			}
		}
		if len(dead) > 0 {
			o.sel.Fingerprint = cachedFingerprint(dead[r.IntN(len(dead))].Error)
		}
	case m < 14:
		// The biggest group, so that a redrive has several roots.
		count, most := map[string]int{}, 0
		for _, d := range h.dlq {
			if fp := cachedFingerprint(d.Error); d.State == Dead && !d.Poisoned {
				if count[fp]++; count[fp] > most {
					most, o.sel.Fingerprint = count[fp], fp
				}
			}
		}
		if most == 0 {
			o.sel.Fingerprint = "boom"
		}
	default:
		o.sel.Contains = []string{"HTTP", "503", "boom", "timeout", "lease", "nothing like it", "o", "e", "t"}[r.IntN(9)]
	}
	switch m := r.IntN(20); {
	case m == 0:
		o.rate = Rate{N: 0, Per: time.Second}
	case m < 10:
	default:
		o.rate = Rate{N: 1 + r.IntN(2), Per: []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}[r.IntN(3)]}
	}
	return o
}

func (h *harness) poisoned(task string) bool {
	i := slices.IndexFunc(h.dlq, func(d DeadLetter) bool { return d.Task == task })
	return i >= 0 && h.dlq[i].Poisoned
}

func (h *harness) redriveCount(task string) {
	if h.forcing == task {
		h.redrives[task], h.forcing = 0, ""
		return
	}
	h.redrives[task]++
}

// enteredDLQ folds an entry into the DLQ: a death's poison mark is checked,
// and the growth alert counts it.
func (h *harness) enteredDLQ(e Event) error {
	if e.Kind == EventDead {
		want := h.poisonAfter > 0 && h.redrives[e.Task] >= h.poisonAfter
		if e.Poisoned != want {
			return fmt.Errorf("dead event %s: Poisoned %v, want %v after %d redrives under PoisonAfter %d", e, e.Poisoned, want, h.redrives[e.Task], h.poisonAfter)
		}
	} else if e.Poisoned {
		return fmt.Errorf("%s event %s is poisoned", e.Kind, e)
	}
	a := h.alertCfg
	if a.Entries == 0 {
		return nil
	}
	h.entries = append(h.entries, h.now)
	h.entries = slices.DeleteFunc(h.entries, func(t time.Duration) bool { return h.now-t >= a.Window })
	if len(h.entries) >= a.Entries {
		h.setTimer(alertTimerName, h.entries[len(h.entries)-a.Entries]+a.Window)
		if !h.alertOn {
			h.alertOn, h.expectAlert = true, true
			return h.foldAlert(e)
		}
	}
	return nil
}

// foldDLQ folds the events about the DLQ as a whole. A redrive's are
// checked by whoever takes them (bulk, cancel, expectBatch).
func (h *harness) foldDLQ(e Event) error {
	if e.Task != "" || e.From != "" || e.To != "" || e.At != h.now {
		return fmt.Errorf("%s event %+v: want no task, no states, and the clock %v", e.Kind, e, h.now)
	}
	switch e.Kind {
	case EventAlert:
		if !h.expectAlert {
			return fmt.Errorf("an alert %s that no entry raised", e)
		}
		h.expectAlert = false
	case EventCleared:
		if !h.alertOn {
			return fmt.Errorf("an alert cleared that was not raised: %s", e)
		}
		h.alertOn = false
		delete(h.timers, alertTimerName)
	}
	if (e.Kind == EventAlert || e.Kind == EventCleared) && (e.Count != h.alertCfg.Entries || e.Window != h.alertCfg.Window) {
		return fmt.Errorf("%s event says %d within %v, the config %+v", e.Kind, e.Count, e.Window, h.alertCfg)
	}
	return nil
}

// match is the model's choice of a bulk redrive's tasks.
func (h *harness) match(sel Selector) (roots, poisoned []string) {
	for _, d := range h.dlq {
		if d.State != Dead {
			continue
		}
		if sel.Fingerprint != "" && cachedFingerprint(d.Error) != sel.Fingerprint ||
			sel.Contains != "" && !strings.Contains(d.Error, sel.Contains) {
			continue
		}
		if d.Poisoned {
			poisoned = append(poisoned, d.Task)
		} else {
			roots = append(roots, d.Task)
		}
	}
	return roots, poisoned
}

// bulk runs RedriveMatching and checks its refusal, or its preview, its
// started event and its first batch (all of it at once without a rate).
func (h *harness) bulk(o op) error {
	call := o.String()
	valid := o.sel.validate() == nil && o.rate.validate() == nil
	roots, skipped := h.match(o.sel)
	var refusal error
	switch {
	case !valid:
		refusal = errors.New("invalid")
	case h.job != nil:
		refusal = ErrRedriveRunning
	case len(roots)+len(skipped) == 0:
		refusal = ErrNoMatch
	}
	p := h.q.PreviewRedrive(o.sel)
	var proots []string
	for _, r := range p.Roots {
		proots = append(proots, r.Task)
	}
	if valid && (!slices.Equal(proots, roots) || !slices.Equal(p.Skipped, skipped)) {
		return fmt.Errorf("%s: PreviewRedrive says %q skipping %q, the model %q skipping %q", call, proots, p.Skipped, roots, skipped)
	}
	if err := h.compare(); err != nil {
		return fmt.Errorf("%s: the preview changed something: %v", call, err)
	}
	j, err := h.q.RedriveMatching(o.sel, o.rate)
	if _, qerr := h.quiet.RedriveMatching(o.sel, o.rate); errString(qerr) != errString(err) {
		return fmt.Errorf("%s = %v, but %v without OnEvent", call, err, qerr)
	}
	evs, eerr := h.takeUnfolded()
	if eerr != nil {
		return fmt.Errorf("%s: %v", call, eerr)
	}
	if refusal != nil {
		if err == nil || valid && !errors.Is(err, refusal) || len(evs) != 0 {
			return fmt.Errorf("%s = %v with events %s, want refused (%v) and none", call, err, eventList(evs), refusal)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s = %v, want it accepted", call, err)
	}
	take := h.taker(call, evs)
	got, err := take(1)
	if err != nil {
		return err
	}
	if st := got[0]; st.Kind != EventRedriveStarted || !slices.Equal(st.Tasks, roots) || !slices.Equal(st.Skipped, skipped) ||
		st.Total != len(roots) || st.Rate != o.rate || st.Reason != o.sel.String() {
		return fmt.Errorf("%s: first event %+v, want started with %q skipping %q", call, st, roots, skipped)
	}
	h.job = &modelJob{sel: o.sel, rate: o.rate, tasks: roots}
	if err := h.expectBatch(call, take); err != nil {
		return err
	}
	if rest, _ := take(-1); len(rest) != 0 {
		return fmt.Errorf("%s: events the model does not expect: %s", call, eventList(evs))
	}
	if o.rate == (Rate{}) {
		if err := previewMatches(p, evs); err != nil {
			return fmt.Errorf("%s: the preview is not what it did: %v (events: %s)", call, err, eventList(evs))
		}
	}
	want := 0
	if h.job != nil {
		want = h.job.done
	} else {
		want = len(kinds(evs, EventRedriven))
	}
	if !slices.Equal(j.Tasks, roots) || j.Done != want || j.Finished != (h.job == nil) {
		return fmt.Errorf("%s returned %+v, want %q, %d done, finished %v", call, j, roots, want, h.job == nil)
	}
	return nil
}

// taker returns a function that takes and folds the next n of evs (n < 0:
// returns what is left, unfolded).
func (h *harness) taker(call string, evs []Event) func(n int) ([]Event, error) {
	rest := evs
	return func(n int) ([]Event, error) {
		if n < 0 {
			return rest, nil
		}
		if len(rest) < n {
			return nil, fmt.Errorf("%s: %d events, want more (%s)", call, len(evs), eventList(evs))
		}
		got := rest[:n]
		rest = rest[n:]
		for _, e := range got {
			if err := h.fold(e); err != nil {
				return nil, fmt.Errorf("%s: %v (events: %s)", call, err, eventList(evs))
			}
		}
		return got, nil
	}
}

// expectBatch takes and checks the events of the job's next batch, now:
// the tasks of its list still DEAD and not poisoned, up to N, redriven in
// order; every task BLOCKED by one of them decided once, dependencies
// first, released exactly when no other DEAD task is upstream; a progress
// event; and the end of the job, or its next timer.
func (h *harness) expectBatch(call string, take func(int) ([]Event, error)) error {
	j := h.job
	n := len(j.tasks)
	if j.rate.N > 0 {
		n = j.rate.N
	}
	var batch []string
	for j.pos < len(j.tasks) && len(batch) < n {
		t := j.tasks[j.pos]
		j.pos++
		if h.state[t] == Dead && !h.poisoned(t) {
			batch = append(batch, t)
		}
	}
	var region, released []string
	for _, d := range h.dlq {
		if d.State == Blocked && slices.Contains(batch, d.Root) {
			region = append(region, d.Task)
			still := slices.ContainsFunc(h.upstream(d.Task), func(u string) bool {
				return h.state[u] == Dead && !slices.Contains(batch, u)
			})
			if !still {
				released = append(released, d.Task)
			}
		}
	}
	got, err := take(len(batch) + len(region))
	if err != nil {
		return err
	}
	if names := taskNames(got[:len(batch)]); !slices.Equal(names, batch) || len(kinds(got[:len(batch)], EventRedriven)) != len(batch) {
		return fmt.Errorf("%s: at %v the batch %q, but the events %s", call, h.now, batch, eventList(got))
	}
	decided := got[len(batch):]
	if err := sameSet(call+": tasks decided", taskNames(decided), region); err != nil {
		return err
	}
	if err := sameSet(call+": tasks released", taskNames(kinds(decided, EventUnblocked)), released); err != nil {
		return err
	}
	for i, x := range decided {
		if x.Kind != EventUnblocked && x.Kind != EventRerooted {
			return fmt.Errorf("%s: a batch decides %s", call, x)
		}
		for _, y := range decided[i+1:] {
			if slices.Contains(h.deps[x.Task], y.Task) {
				return fmt.Errorf("%s decides %q before its dependency %q", call, x.Task, y.Task)
			}
		}
	}
	if len(batch) > 0 {
		got, err := take(1)
		if err != nil {
			return err
		}
		j.done += len(batch)
		if e := got[0]; e.Kind != EventRedriveProgress || !slices.Equal(e.Tasks, batch) || e.Count != j.done || e.Total != len(j.tasks) {
			return fmt.Errorf("%s: %+v, want progress %q, %d of %d", call, e, batch, j.done, len(j.tasks))
		}
	}
	if j.pos == len(j.tasks) {
		got, err := take(1)
		if err != nil {
			return err
		}
		if e := got[0]; e.Kind != EventRedriveDone || e.Count != j.done || e.Total != len(j.tasks) {
			return fmt.Errorf("%s: %+v, want done, %d of %d", call, e, j.done, len(j.tasks))
		}
		h.job = nil
		return nil
	}
	h.setTimer(jobTimerName, h.now+j.rate.Per)
	return nil
}

// cancel runs CancelRedrive: refused without a job, else one cancelled
// event and no timer left.
func (h *harness) cancel() error {
	err := h.q.CancelRedrive()
	if qerr := h.quiet.CancelRedrive(); errString(qerr) != errString(err) {
		return fmt.Errorf("CancelRedrive() = %v, but %v without OnEvent", err, qerr)
	}
	evs, eerr := h.takeEvents()
	if eerr != nil {
		return fmt.Errorf("CancelRedrive(): %v", eerr)
	}
	if h.job == nil {
		if !errors.Is(err, ErrNoRedrive) || len(evs) != 0 {
			return fmt.Errorf("CancelRedrive() with no redrive = %v, events %s; want ErrNoRedrive and none", err, eventList(evs))
		}
		return nil
	}
	if err != nil || len(evs) != 1 || evs[0].Kind != EventRedriveCancelled || evs[0].Count != h.job.done || evs[0].Total != len(h.job.tasks) {
		return fmt.Errorf("CancelRedrive() = %v, events %s; want one cancelled at %d of %d", err, eventList(evs), h.job.done, len(h.job.tasks))
	}
	h.job = nil
	delete(h.timers, jobTimerName)
	return nil
}

// force runs ForceRedrive: a redrive that a poison mark does not stop, and
// that starts the task's count of redrives over.
func (h *harness) force(o op) error {
	want := h.expectRedrive(o.task)
	if errors.Is(want.refusal, ErrPoisoned) {
		want.refusal = nil
	}
	want.force = true
	if want.refusal == nil {
		h.forcing = o.task
	}
	err := h.q.ForceRedrive(o.task)
	evs, eerr := h.takeEvents()
	h.forcing = ""
	return h.checkRedrive(want, err, evs, eerr)
}

// compareDLQ checks the alert and the redrive in progress against the model.
func (h *harness) compareDLQ() error {
	if h.expectAlert || len(h.alerts) > 0 {
		return fmt.Errorf("alert events no entry raised: %+v", h.alerts)
	}
	if got := h.q.alerting(); got != h.alertOn {
		return fmt.Errorf("Alerting() = %v, the events say %v", got, h.alertOn)
	}
	j, ok := h.q.redriving()
	if ok != (h.job != nil) {
		return fmt.Errorf("Redriving() = %+v, %v, the model has %+v", j, ok, h.job)
	}
	if ok && (!slices.Equal(j.Tasks, h.job.tasks) || j.Done != h.job.done || j.Selector != h.job.sel || j.Rate != h.job.rate) {
		return fmt.Errorf("Redriving() = %+v, the model has %+v", j, *h.job)
	}
	return nil
}

// TestPropertyDeadLetterOps runs sequences where the DLQ is busy: one
// attempt, tasks failing often, the poison-pill cap and the alert set at
// random, and bulk redrives (often of the biggest group, at a rate of one
// or two a period), previews, cancels and forced redrives among the other
// operations, each checked as in TestPropertyRandomSequences.
func TestPropertyDeadLetterOps(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 100
	}
	if *sequencesFlag > 0 {
		n = *sequencesFlag
	}
	t.Parallel()
	for i := range n {
		seed := sequenceSeed(1_000_000 + i)
		if err := runDLQSeed(seed); err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
	}
}

// runDLQSeed runs the sequence of one seed of TestPropertyDeadLetterOps.
func runDLQSeed(seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed^0x6f70)) // "op"
	strategies := incremental.Names()
	cfg := seqConfig{maxAttempts: 1, strategy: strategies[r.IntN(len(strategies))], dlqOps: true}
	cfg.leaseTimeout, cfg.backoff = randomTime(r)
	cfg.poisonAfter, cfg.alert, _ = randomDLQ(r)
	h, err := newHarness(cfg)
	if err != nil {
		return err
	}
	g := &generator{r: r, h: h, pool: poolNames(8 + r.IntN(9)), churn: true}
	var ops []op
	for range 100 + r.IntN(200) {
		o := g.next()
		ops = append(ops, o)
		if err := h.safeApply(o); err != nil {
			return failure(cfg, ops, err, fmt.Sprintf("go test ./core -run 'TestPropertyDeadLetterOps$' # seed %d", seed))
		}
	}
	return nil
}
