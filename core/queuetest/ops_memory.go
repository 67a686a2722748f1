package queuetest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
)

// The operations only *core.Queue has, beyond the [Queue] interface:
// SubmitBatch, RedriveMatching (the bulk redrive, all at once or at a
// rate), CancelRedrive and ForceRedrive, and the growth alert of
// Config.Alert. The model folds their events and predicts their outcomes
// as it does the others'; core's own property tests drive them on the
// in-memory queue (memory_property_test.go).

const (
	opBatch  opKind = opAdvance + 1 + iota // SubmitBatch(batch)
	opBulk                                 // RedriveMatching(sel, rate)
	opCancel                               // CancelRedrive()
	opForce                                // ForceRedrive(task): a redrive a poison mark does not stop
)

// The model's timers of no task, kept among the task timers: names no
// task can have.
const (
	alertTimer = "\x00alert"   // the growth alert clears
	jobTimer   = "\x00redrive" // the bulk redrive's next batch
)

// dlqModel is what the model knows of the growth alert and of the bulk
// redrive in progress, folded from the events.
type dlqModel struct {
	alert       core.Alert
	entries     []time.Duration // DLQ entry times still in the alert's window
	alertOn     bool
	expectAlert bool // the entry just folded raised the alert: its event is next
	// alerts are the alert events of the operation, set apart from the
	// others (which the checks of each operation expect exactly), each
	// with the event it came right after: folding that event must raise it.
	alerts []pendingAlert

	roots   map[string]string        // BLOCKED task → its root, as the events say
	errText map[string]string        // DEAD task → its error
	entered map[string]time.Duration // DEAD or BLOCKED task → when it entered the DLQ
	forcing string                   // the task a ForceRedrive is redriving
	job     *bulkJob                 // the bulk redrive in progress
}

// pendingAlert is an alert event and the event it came right after.
type pendingAlert struct {
	alert, after core.Event
}

// bulkJob is the bulk redrive in progress, as the model sees it.
type bulkJob struct {
	sel   core.Selector
	rate  core.Rate
	tasks []string // the roots it redrives, in DLQ order
	pos   int      // how many of tasks its batches have passed
	done  int      // how many it redrove
}

// memoryWant is what an operation only *core.Queue has must do.
type memoryWant struct {
	applies  map[error][]int // batch: sentinel → the tasks of the batch it is about
	cycle    bool            // batch: its edges close a cycle
	invalid  bool            // bulk: the selector or the rate is invalid (any error)
	roots    []string        // bulk: the tasks it redrives, in DLQ order
	poisoned []string        // bulk: the matching tasks it skips, poisoned
}

func (o op) memoryString() string {
	switch o.kind {
	case opBatch:
		s := make([]string, len(o.batch))
		for i, t := range o.batch {
			s[i] = "[" + sayName(t.Name)
			for _, d := range t.Deps {
				s[i] += " " + sayName(d)
			}
			s[i] += "]"
		}
		return "batch " + strings.Join(s, " ") + " # SubmitBatch, each [task deps...]"
	case opBulk:
		s := "redrive matching " + o.sel.Contains
		switch sel := o.sel; {
		case sel.Fingerprint != "" && sel.Contains != "":
			s = fmt.Sprintf("redrive # RedriveMatching(%+v) (invalid)", sel)
		case sel.Fingerprint != "":
			s = fmt.Sprintf("redrive group %q", sel.Fingerprint)
		case sel.Contains == "":
			s = "redrive matching # an empty selector (invalid)"
		}
		if o.rate != (core.Rate{}) {
			s += fmt.Sprintf(" at %d/%v", o.rate.N, o.rate.Per)
		}
		return s
	case opCancel:
		return "redrive cancel"
	case opForce:
		return "redrive! " + sayName(o.task)
	}
	return fmt.Sprintf("op(%d)", o.kind)
}

// isDLQKind reports whether k is an event about the dead-letter queue as a
// whole: the alert and the bulk redrive's progress.
func isDLQKind(k core.EventKind) bool {
	switch k {
	case core.EventAlert, core.EventCleared, core.EventRedriveStarted, core.EventRedriveProgress,
		core.EventRedriveDone, core.EventRedriveCancelled:
		return true
	}
	return false
}

// foldDLQ folds an event about the DLQ as a whole. A bulk redrive's are
// checked by whoever takes them (verifyMemory, bulkBatch).
func (m *model) foldDLQ(e core.Event) error {
	if e.Task != "" || e.From != "" || e.To != "" {
		return fmt.Errorf("%s event %+v: want no task and no states", e.Kind, e)
	}
	x := &m.x
	switch e.Kind {
	case core.EventAlert:
		if !x.expectAlert {
			return fmt.Errorf("an alert %s that no entry raised", e)
		}
		x.expectAlert = false
	case core.EventCleared:
		if !x.alertOn {
			return fmt.Errorf("an alert cleared that was not raised: %s", e)
		}
		x.alertOn = false
		delete(m.timers, alertTimer)
	}
	if (e.Kind == core.EventAlert || e.Kind == core.EventCleared) && (e.Count != x.alert.Entries || e.Window != x.alert.Window) {
		return fmt.Errorf("%s event says %d within %v, the config %+v", e.Kind, e.Count, e.Window, x.alert)
	}
	return nil
}

// track keeps, of an event already folded, what the bulk redrive needs:
// the root of each BLOCKED task and the error of each DEAD one.
func (x *dlqModel) track(e core.Event) {
	if x.roots == nil {
		x.roots, x.errText, x.entered = map[string]string{}, map[string]string{}, map[string]time.Duration{}
	}
	switch e.Kind {
	case core.EventSubmitted, core.EventBlocked, core.EventDead:
		if e.To == core.Blocked || e.To == core.Dead {
			x.entered[e.Task] = e.At
		}
	}
	switch {
	case e.To == core.Blocked:
		x.roots[e.Task] = e.Root
	case e.Kind == core.EventDead:
		x.errText[e.Task] = e.Error
	case e.Kind == core.EventUnblocked:
		delete(x.roots, e.Task)
	case e.Kind == core.EventRedriven:
		delete(x.errText, e.Task)
	}
}

// enteredDLQ folds an entry into the DLQ: only a death may be poisoned,
// and the growth alert counts it.
func (m *model) enteredDLQ(e core.Event) error {
	if e.Kind != core.EventDead && e.Poisoned {
		return fmt.Errorf("%s event %s is poisoned", e.Kind, e)
	}
	x := &m.x
	a := x.alert
	if a.Entries == 0 {
		return nil
	}
	x.entries = append(x.entries, m.now)
	x.entries = slices.DeleteFunc(x.entries, func(t time.Duration) bool { return m.now-t >= a.Window })
	if len(x.entries) >= a.Entries {
		m.setTimer(alertTimer, x.entries[len(x.entries)-a.Entries]+a.Window)
		if !x.alertOn {
			x.alertOn, x.expectAlert = true, true
			return m.foldAlert(e)
		}
	}
	return nil
}

// setAlertsApart takes the alert events out of evs (into a new slice if
// there are any) and keeps them for foldAlert, which puts each back right
// after the entry that raised it.
func (m *model) setAlertsApart(evs []core.Event) []core.Event {
	if !slices.ContainsFunc(evs, func(e core.Event) bool { return e.Kind == core.EventAlert }) {
		return evs
	}
	var kept []core.Event
	for i, e := range evs {
		if e.Kind == core.EventAlert {
			var after core.Event
			if i > 0 {
				after = evs[i-1]
			}
			m.x.alerts = append(m.x.alerts, pendingAlert{alert: e, after: after})
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// foldAlert folds the alert the entry e just raised, which must have come
// right after it.
func (m *model) foldAlert(e core.Event) error {
	x := &m.x
	if len(x.alerts) == 0 || x.alerts[0].after.Op != e.Op || x.alerts[0].after.Task != e.Task || x.alerts[0].after.Kind != e.Kind {
		return fmt.Errorf("%s raised the alert, but no alert event came right after it (alerts: %+v)", e, x.alerts)
	}
	a := x.alerts[0].alert
	x.alerts = x.alerts[1:]
	return m.foldDLQ(a)
}

// redriven counts a redrive of task for Config.PoisonAfter: a forced one
// starts the count over.
func (m *model) redriven(task string) {
	if m.x.forcing == task {
		m.redrives[task], m.x.forcing = 0, ""
		return
	}
	m.redrives[task]++
}

// fireDLQTimer fires the timer of no task that the clock reached, if task
// names one: the alert clears, or the bulk redrive's next batch goes.
func (m *model) fireDLQTimer(call, task string, take func(int) ([]core.Event, error)) (bool, error) {
	switch task {
	case alertTimer:
		got, err := take(1)
		if err != nil {
			return true, err
		}
		if e := got[0]; e.Kind != core.EventCleared {
			return true, fmt.Errorf("%s: at %v the alert clears, but the event is %s", call, m.now, e)
		}
		return true, nil
	case jobTimer:
		delete(m.timers, jobTimer)
		return true, m.bulkBatch(call, take)
	}
	return false, nil
}

// match is the model's choice of a bulk redrive's tasks: the DEAD tasks
// whose error the selector matches, in DLQ order, the poisoned apart.
func (m *model) match(sel core.Selector) (roots, poisoned []string) {
	for _, t := range m.dlq {
		if m.state[t] != core.Dead {
			continue
		}
		text := m.x.errText[t]
		if sel.Fingerprint != "" && core.Fingerprint(text) != sel.Fingerprint ||
			sel.Contains != "" && !strings.Contains(text, sel.Contains) {
			continue
		}
		if m.poisoned[t] {
			poisoned = append(poisoned, t)
		} else {
			roots = append(roots, t)
		}
	}
	return roots, poisoned
}

// expectMemory predicts the outcome of a batch, a bulk redrive or a
// cancel.
func (m *model) expectMemory(o op) expectation {
	var w expectation
	switch o.kind {
	case opBatch:
		// Refused with a sentinel of each task it applies to: an invalid
		// name, a name submitted already or twice in the batch; else a
		// cycle (a self-dependency included) in the graph with its edges.
		applies := map[error][]int{}
		named := map[string]bool{}
		for i, t := range o.batch {
			m.use(t.Name)
			m.use(t.Deps...)
			if t.Name == "" || slices.Contains(t.Deps, "") {
				applies[core.ErrInvalidName] = append(applies[core.ErrInvalidName], i)
			}
			if m.isTask(t.Name) || named[t.Name] {
				applies[core.ErrDuplicate] = append(applies[core.ErrDuplicate], i)
			}
			named[t.Name] = true
		}
		if len(applies) == 0 {
			names := slices.Clone(m.tasks)
			deps := maps.Clone(m.deps)
			for _, t := range o.batch {
				names = append(names, t.Name)
				deps[t.Name] = dedup(t.Deps)
			}
			w.mem.cycle = findCycle(names, deps) != nil
		}
		w.mem.applies = applies
		for s := range applies {
			w.refusals = append(w.refusals, s)
		}
		if w.mem.cycle {
			w.refusals = append(w.refusals, core.ErrCycle)
		}
	case opBulk:
		sel, rate := o.sel, o.rate
		w.mem.invalid = (sel.Fingerprint == "") == (sel.Contains == "") || rate != (core.Rate{}) && (rate.N < 1 || rate.Per <= 0)
		w.mem.roots, w.mem.poisoned = m.match(sel)
		switch {
		case w.mem.invalid:
		case m.x.job != nil:
			w.refusals = []error{core.ErrRedriveRunning}
		case len(w.mem.roots)+len(w.mem.poisoned) == 0:
			w.refusals = []error{core.ErrNoMatch}
		}
	case opCancel:
		if m.x.job == nil {
			w.refusals = []error{core.ErrNoRedrive}
		}
	}
	w.accept = len(w.refusals) == 0 && !w.mem.invalid
	return w
}

// verifyMemory holds a batch, a bulk redrive or a cancel, which returned
// err and delivered evs (the alerts set apart), to w, folding the events.
func (m *model) verifyMemory(o op, w expectation, err error, evs []core.Event) error {
	call := o.String()
	if err != nil {
		switch {
		case w.accept:
			return fmt.Errorf("%s = %v, want it accepted", call, err)
		case !w.mem.invalid && !slices.ContainsFunc(w.refusals, func(r error) bool { return errors.Is(err, r) }):
			return fmt.Errorf("%s = %v, want an error that is %v", call, err, w.refusals)
		case o.kind == opBatch:
			return m.verifyBatchRefused(o, w, err, evs)
		case len(evs) > 0:
			return fmt.Errorf("%s refused with %v but delivered events %s", call, err, eventList(evs))
		}
		return nil
	}
	if !w.accept {
		return fmt.Errorf("%s accepted, want an error that is %v (invalid %v)", call, w.refusals, w.mem.invalid)
	}
	tk := &eventTaker{m: m, call: call, all: evs, rest: evs}
	take := tk.take
	switch o.kind {
	case opBatch:
		// Task by task, in the order given: what a submit of the task
		// would do at that point, under the batch's one Op.
		for _, t := range o.batch {
			n := 1
			for n < len(tk.rest) && tk.rest[n].Kind != core.EventSubmitted {
				n++
			}
			deps := dedup(t.Deps)
			state, blocked := m.arrival(t.Name, deps)
			got, err := take(min(n, len(tk.rest)))
			if err != nil {
				return err
			}
			if len(got) == 0 {
				return fmt.Errorf("%s: no events for %q: %s", call, t.Name, eventList(evs))
			}
			if err := m.checkArrival(call, t.Name, deps, state, blocked, got); err != nil {
				return fmt.Errorf("%v (events of the batch: %s)", err, eventList(evs))
			}
		}
	case opBulk:
		got, err := take(1)
		if err != nil {
			return err
		}
		if st := got[0]; st.Kind != core.EventRedriveStarted || !slices.Equal(st.Tasks, w.mem.roots) || !slices.Equal(st.Skipped, w.mem.poisoned) ||
			st.Total != len(w.mem.roots) || st.Rate != o.rate || st.Reason != o.sel.String() {
			return fmt.Errorf("%s: first event %+v, want started with %q skipping %q", call, st, w.mem.roots, w.mem.poisoned)
		}
		m.x.job = &bulkJob{sel: o.sel, rate: o.rate, tasks: w.mem.roots}
		if err := m.bulkBatch(call, take); err != nil {
			return err
		}
	case opCancel:
		j := m.x.job
		if len(evs) != 1 || evs[0].Kind != core.EventRedriveCancelled || evs[0].Count != j.done || evs[0].Total != len(j.tasks) {
			return fmt.Errorf("%s: events %s; want one cancelled at %d of %d", call, eventList(evs), j.done, len(j.tasks))
		}
		if _, err := take(1); err != nil {
			return err
		}
		m.x.job = nil
		delete(m.timers, jobTimer)
	}
	if rest := tk.rest; len(rest) > 0 {
		return fmt.Errorf("%s: events the model does not expect: %s (all: %s)", call, eventList(rest), eventList(evs))
	}
	return nil
}

// verifyBatchRefused checks a refused batch: one Rejected event naming a
// task of the batch that the error is about, with its deps (for a cycle,
// the task the path starts at, the path a simple cycle of the graph with
// the batch's edges).
func (m *model) verifyBatchRefused(o op, w expectation, err error, evs []core.Event) error {
	call := o.String()
	if len(evs) != 1 || evs[0].Kind != core.EventRejected {
		return fmt.Errorf("%s = %v: want one Rejected event, got %s", call, err, eventList(evs))
	}
	e := evs[0]
	if e.Reason != err.Error() {
		return fmt.Errorf("%s = %v: rejected event reason %q, want the error", call, err, e.Reason)
	}
	about := func(i int) bool {
		return o.batch[i].Name == e.Task && (slices.Equal(dedup(o.batch[i].Deps), e.Deps) || len(e.Deps)+len(o.batch[i].Deps) == 0)
	}
	var ce *core.CycleError
	switch {
	case errors.As(err, &ce):
		if i := slices.IndexFunc(o.batch, func(t core.Task) bool { return t.Name == e.Task }); i < 0 || !about(i) {
			return fmt.Errorf("%s = %v: rejected event %+v names no task of the batch with its deps", call, err, e)
		}
		if !slices.Equal(e.Path, ce.Path) {
			return fmt.Errorf("%s = %v: rejected event Path %q, want the error's %q", call, err, e.Path, ce.Path)
		}
		newDeps := map[string][]string{}
		for _, t := range o.batch {
			newDeps[t.Name] = dedup(t.Deps)
		}
		if perr := m.checkCyclePath(e.Task, newDeps, ce.Path); perr != nil {
			return fmt.Errorf("%s = %v: %v", call, err, perr)
		}
	default:
		var te *core.TaskError
		if !errors.As(err, &te) {
			return fmt.Errorf("%s = %v: error %T, want a *core.TaskError or a *core.CycleError", call, err, err)
		}
		if te.Task != e.Task || e.Path != nil {
			return fmt.Errorf("%s = %v: rejected event %+v, want Task %q and no Path", call, err, e, te.Task)
		}
		if !slices.ContainsFunc(w.mem.applies[te.Err], about) {
			return fmt.Errorf("%s = %v: the error is about %q, but no task of the batch by that name is %v (%v)", call, err, te.Task, te.Err, w.mem.applies)
		}
	}
	return m.fold(e)
}

// bulkBatch takes and checks the events of the bulk redrive's next batch,
// now: the tasks of its list still DEAD and not poisoned, up to N,
// redriven in order; every task BLOCKED by one of them decided once,
// dependencies first, released exactly when no other DEAD task is
// upstream; a progress event; and the end of the job, or its next timer.
func (m *model) bulkBatch(call string, take func(int) ([]core.Event, error)) error {
	j := m.x.job
	n := len(j.tasks)
	if j.rate.N > 0 {
		n = j.rate.N
	}
	var batch []string
	for j.pos < len(j.tasks) && len(batch) < n {
		t := j.tasks[j.pos]
		j.pos++
		if m.state[t] == core.Dead && !m.poisoned[t] {
			batch = append(batch, t)
		}
	}
	var region, released []string
	for _, t := range m.dlq {
		if m.state[t] == core.Blocked && slices.Contains(batch, m.x.roots[t]) {
			region = append(region, t)
			still := slices.ContainsFunc(m.upstream(t), func(u string) bool {
				return m.state[u] == core.Dead && !slices.Contains(batch, u)
			})
			if !still {
				released = append(released, t)
			}
		}
	}
	got, err := take(len(batch) + len(region))
	if err != nil {
		return err
	}
	for i, e := range got[:len(batch)] {
		if e.Kind != core.EventRedriven || e.Task != batch[i] {
			return fmt.Errorf("%s: at %v the batch %q, but the events %s", call, m.now, batch, eventList(got))
		}
	}
	decided := got[len(batch):]
	var names, unblocked []string
	for i, x := range decided {
		names = append(names, x.Task)
		switch x.Kind {
		case core.EventUnblocked:
			unblocked = append(unblocked, x.Task)
		case core.EventRerooted:
		default:
			return fmt.Errorf("%s: a batch decides %s", call, x)
		}
		for _, y := range decided[i+1:] {
			if slices.Contains(m.deps[x.Task], y.Task) {
				return fmt.Errorf("%s decides %q before its dependency %q", call, x.Task, y.Task)
			}
		}
	}
	if err := sameSet(call+": tasks decided", names, region); err != nil {
		return err
	}
	if err := sameSet(call+": tasks released", unblocked, released); err != nil {
		return err
	}
	if len(batch) > 0 {
		got, err := take(1)
		if err != nil {
			return err
		}
		j.done += len(batch)
		if e := got[0]; e.Kind != core.EventRedriveProgress || !slices.Equal(e.Tasks, batch) || e.Count != j.done || e.Total != len(j.tasks) {
			return fmt.Errorf("%s: %+v, want progress %q, %d of %d", call, e, batch, j.done, len(j.tasks))
		}
	}
	if j.pos == len(j.tasks) {
		got, err := take(1)
		if err != nil {
			return err
		}
		if e := got[0]; e.Kind != core.EventRedriveDone || e.Count != j.done || e.Total != len(j.tasks) {
			return fmt.Errorf("%s: %+v, want done, %d of %d", call, e, j.done, len(j.tasks))
		}
		m.x.job = nil
		return nil
	}
	m.setTimer(jobTimer, later(m.now, j.rate.Per))
	return nil
}
