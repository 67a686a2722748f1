package durable

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// exportSection is a part of the script: a comment, then commands.
type exportSection struct {
	comment string
	cmds    []scenario.Command
}

// exporter builds a script while it runs it on the in-memory queue, so
// that each step is chosen from what the queue has become (a retry's due
// time, the task at the front of the line).
type exporter struct {
	s        *exportSnapshot
	runner   *scenario.Runner
	q        *core.Queue
	sections []exportSection
	notes    []string // what the script cannot say exactly
	diffs    []string // where the run differs from the database
	byScript map[string]*exportTask
	held     []heldLease     // the leases held, in the order of their deadlines (of their last renewal)
	heldSet  map[string]bool // the tasks of held still held, by script name
	// batch is the last batch of the redrive under way when it can start
	// again with it (see jobBatch); batchRanOn says that it SUCCEEDED
	// since, and post holds what afterBatch replays.
	batch      []*exportTask
	batchRanOn bool
	jobStarted bool
	post       map[*exportTask]bool
}

// heldLease is a task the script holds RUNNING, with its lease's deadline.
type heldLease struct {
	task     string
	deadline time.Duration // 0: it never expires
}

// script builds, runs and checks the script of the snapshot.
func (s *exportSnapshot) script() (string, error) {
	x := &exporter{s: s, byScript: make(map[string]*exportTask, len(s.tasks))}
	x.nameTasks()
	header, err := x.header()
	if err != nil {
		return "", err
	}
	x.batch, x.batchRanOn = x.jobBatch()
	if x.batchRanOn {
		x.ranOn()
	}
	x.succeeded()
	x.deadLetters()
	if x.batchRanOn {
		if !x.jobStarted {
			x.startAgain()
		}
		x.afterBatch()
	}
	x.live()
	x.verify()
	return x.text(header), nil
}

// note adds a line to what the header says the script cannot say exactly.
func (x *exporter) note(s string) {
	if !slices.Contains(x.notes, s) {
		x.notes = append(x.notes, s)
	}
}

// diff records a difference between the run and the database.
func (x *exporter) diff(format string, args ...any) {
	x.diffs = append(x.diffs, fmt.Sprintf(format, args...))
}

// header makes the settings' lines and the runner that runs the script.
func (x *exporter) header() ([]scenario.Command, error) {
	cfg := x.s.cfg
	var h []scenario.Command
	h = append(h, scenario.Command{Op: scenario.OpAttempts, N: cfg.MaxAttempts})
	if cfg.LeaseTimeout > 0 {
		h = append(h, scenario.Command{Op: scenario.OpLease, Dur: cfg.LeaseTimeout})
	}
	if b := cfg.Backoff; b.Base > 0 {
		h = append(h, scenario.Command{Op: scenario.OpBackoff, Dur: b.Base, Factor: b.Factor, Max: b.Max})
		if b.Jitter != core.JitterNone || b.Seed != 0 {
			h = append(h, scenario.Command{Op: scenario.OpJitter, Jitter: b.Jitter, Seed: b.Seed})
			if b.Jitter != core.JitterNone {
				x.note("the jitter's generator starts from its seed: the delays drawn differ from the database's")
			}
		}
	}
	if cfg.PoisonAfter > 0 {
		h = append(h, scenario.Command{Op: scenario.OpPoison, N: cfg.PoisonAfter})
	}
	if cfg.Alert.Entries > 0 {
		h = append(h, scenario.Command{Op: scenario.OpAlert, N: cfg.Alert.Entries, Dur: cfg.Alert.Window})
	}
	x.note("the script's clock starts at 0 and moves only for the backoffs of retries: times are not the database's")
	script, err := scenario.Parse((&scenario.Script{Commands: h}).String())
	if err != nil {
		return nil, fmt.Errorf("durable: export %q: its settings are not the language's: %w", x.s.dag, err)
	}
	// Sized once for the DAG's tasks: a big DAG has 10⁵.
	x.runner, err = scenario.NewRunner(script, scenario.Options{Tasks: len(x.s.tasks)})
	if err != nil {
		return nil, fmt.Errorf("durable: export %q: %w", x.s.dag, err)
	}
	x.q = x.runner.Queue()
	return h, nil
}

// section starts a part of the script.
func (x *exporter) section(comment string) { x.sectionOf(comment, 0) }

// sectionOf starts a part of the script with room for n commands: a hint,
// which saves a big DAG's section growing a step at a time (a section
// holds more if it needs to).
func (x *exporter) sectionOf(comment string, n int) {
	x.sections = append(x.sections, exportSection{comment: comment, cmds: make([]scenario.Command, 0, n)})
}

// exec adds c to the script and runs it; a refusal is a difference.
func (x *exporter) exec(c scenario.Command) scenario.Step {
	sec := &x.sections[len(x.sections)-1]
	sec.cmds = append(sec.cmds, c)
	st := x.runner.Exec(c)
	if !st.OK {
		x.diff("%s was refused in the replay: %s", c.String(), st.Err)
	}
	return st
}

// submit submits t as it was submitted.
func (x *exporter) submit(t *exportTask) {
	x.exec(scenario.Command{Op: scenario.OpSubmit, Task: t.script, Deps: t.deps})
}

// handOut hands out the front of the READY line, which must be t.
func (x *exporter) handOut(t *exportTask) bool {
	st := x.exec(scenario.Command{Op: scenario.OpNext})
	if st.Task != t.script {
		x.diff("next handed out %q in the replay, where %s was meant", st.Task, t.script)
		return false
	}
	return true
}

// failure is the error of t's attempt k as recorded, or a stand-in: the
// latest record of an attempt k of its life, since a forced redrive starts
// the count of redrives that tells lives apart over.
func (x *exporter) failure(t *exportTask, k int) string {
	for _, a := range slices.Backward(t.failures) {
		if a.attempt == k {
			return x.errorText(t.script, a.err)
		}
	}
	x.note("errors of attempts not recorded (before the attempts table, or beyond the last 20 of a task) are written \"not recorded\"")
	return "not recorded"
}

// fail fails t's current lease with err; it returns the state it led to.
func (x *exporter) fail(t *exportTask, err string, permanent bool) core.State {
	return x.exec(scenario.Command{Op: scenario.OpFail, Task: t.script, Err: err, Permanent: permanent}).State
}

// untilReady moves the clock to t's due time, if it is DELAYED, so that
// it joins the READY line.
func (x *exporter) untilReady(t *exportTask) {
	info, ok := x.q.Info(t.script)
	if !ok || info.State != core.Delayed {
		return
	}
	x.advance(info.Timer - x.q.Now())
}

// advance moves the clock by d, renewing the held leases on the way so
// that none expires: in steps of at most half the lease timeout, before
// each of which the leases that would expire within it are renewed (the
// front of held, whose deadlines are in the order of their renewals). So
// a lease is renewed about once per lease timeout of the time moved, and
// the work is O(steps + renewals).
func (x *exporter) advance(d time.Duration) {
	lt := x.s.cfg.LeaseTimeout
	for d > 0 {
		step := d
		if lt > 0 && len(x.heldSet) > 0 && step > lt/2 {
			step = max(lt/2, time.Millisecond)
		}
		for lt > 0 && len(x.held) > 0 && x.held[0].deadline > 0 && x.held[0].deadline <= x.q.Now()+step {
			h := x.held[0]
			x.held = x.held[1:]
			if !x.heldSet[h.task] {
				continue
			}
			x.exec(scenario.Command{Op: scenario.OpHeartbeat, Task: h.task})
			info, _ := x.q.Info(h.task)
			x.held = append(x.held, heldLease{h.task, info.Timer})
		}
		x.exec(scenario.Command{Op: scenario.OpAdvance, Dur: step})
		d -= step
	}
}

// retries hands t out and fails it for each of its attempts 1 to n, with
// their recorded errors, waiting out each backoff: t is READY at the front
// of the line, and ends READY at its back.
func (x *exporter) retries(t *exportTask, n int) {
	for k := 1; k <= n; k++ {
		if !x.handOut(t) {
			return
		}
		e := x.failure(t, k)
		if st := x.fail(t, e, false); st == core.Dead {
			x.diff("%s died at attempt %d in the replay, of %d attempts", t.script, k, x.s.cfg.MaxAttempts)
			return
		}
		x.untilReady(t)
	}
}

// succeeded rebuilds the SUCCEEDED tasks, dependencies first.
func (x *exporter) succeeded() {
	var done []*exportTask
	for _, t := range x.s.tasks {
		if t.state == core.Succeeded && !x.post[t] {
			done = append(done, t)
		}
	}
	if len(done) == 0 {
		return
	}
	slices.SortStableFunc(done, func(a, b *exportTask) int { return cmp.Compare(a.ord, b.ord) })
	x.sectionOf(fmt.Sprintf("%d SUCCEEDED, dependencies first, each with the attempts it failed", len(done)), 3*len(done)) // submit, next, complete
	for _, t := range done {
		x.submit(t)
		x.retries(t, t.attempts-1)
		if x.handOut(t) {
			x.exec(scenario.Command{Op: scenario.OpComplete, Task: t.script})
		}
	}
}

// deadLetters rebuilds the dead-letter queue in the order of its entries:
// a DEAD task killed as it died, a BLOCKED one submitted after its root.
// The tasks that the bulk redrive under way redrove in its last batch are
// killed where they most likely died, so that it can start again with
// them (see restartJob): before the first of its tasks still DEAD (the
// redrive lists its tasks in the order of the DLQ), or before the first
// BLOCKED entry whose root entered the DLQ after it, if that comes sooner
// (it was blocked by something since redriven: by them, most likely).
func (x *exporter) deadLetters() {
	var dlq []*exportTask
	for _, t := range x.s.tasks {
		if t.dlqSeq != nil && (t.state == core.Dead || t.state == core.Blocked) {
			dlq = append(dlq, t)
		}
	}
	batch := x.batch
	slices.SortFunc(dlq, func(a, b *exportTask) int { return cmp.Compare(*a.dlqSeq, *b.dlqSeq) })
	at := len(dlq)
	if len(batch) > 0 {
		remaining := map[string]bool{}
		for _, n := range x.s.job.tasks[x.s.job.pos:] {
			remaining[n] = true
		}
		inLast := map[*exportTask]bool{}
		for _, b := range batch {
			inLast[b] = true
		}
		for i, t := range dlq {
			if t.state == core.Dead && (remaining[t.script] || inLast[t]) {
				at = i
				break
			}
			if r := x.byScript[t.root]; t.state == core.Blocked && r != nil && r.dlqSeq != nil && *r.dlqSeq > *t.dlqSeq {
				at = i
				break
			}
		}
	}
	inBatch := map[*exportTask]bool{}
	for _, b := range batch {
		inBatch[b] = true
	}
	if len(dlq) > 0 {
		x.section(fmt.Sprintf("the dead-letter queue, %d entries in their order: each DEAD task with its attempts and its death, each BLOCKED one submitted after its root died", len(dlq)))
	}
	for i := 0; i <= len(dlq); i++ {
		if i < len(dlq) && x.batchRanOn && inBatch[dlq[i]] && !x.jobStarted {
			x.startAgain()
			x.section("the dead-letter queue, continued: the redrive's last batch dies again where it did")
		}
		if i == at && len(batch) > 0 {
			x.section(fmt.Sprintf("the last batch of the redrive under way, %d tasks, killed again for it to take; what they block", len(batch)))
			for _, b := range batch {
				x.killForJob(b)
			}
			x.blockedByBatch(batch)
			if i < len(dlq) {
				x.section("the dead-letter queue, continued")
			}
		}
		if i == len(dlq) {
			break
		}
		t := dlq[i]
		switch {
		case t.state == core.Dead && inBatch[t] && x.batchRanOn:
			// Held since the redrive took it: its attempts since, then
			// its death.
			for k := 1; k < t.attempts; k++ {
				x.fail(t, x.failure(t, k), false)
				x.unhold(t)
				x.untilReady(t)
				if !x.handOut(t) {
					break
				}
				x.hold(t.script)
			}
			x.fail(t, x.errorText(t.script, t.err), strings.HasPrefix(t.reason, "permanent failure") || t.attempts < x.s.cfg.MaxAttempts)
			x.unhold(t)
		case t.state == core.Dead:
			x.submit(t)
			x.poisonCycles(t, t.redrives, t.poisoned)
			x.retries(t, t.attempts-1)
			if !x.handOut(t) {
				continue
			}
			permanent := strings.HasPrefix(t.reason, "permanent failure")
			if !permanent && t.attempts < x.s.cfg.MaxAttempts {
				x.note(fmt.Sprintf("%s died after %d attempts of %d (the attempts were changed since): it is killed with fail!", t.script, t.attempts, x.s.cfg.MaxAttempts))
				permanent = true
			}
			x.fail(t, x.errorText(t.script, t.err), permanent)
		case t.state == core.Blocked:
			x.submit(t)
		}
	}
}

// startAgain starts the redrive under way again with its last batch, and
// holds the batch RUNNING, as workers took it: each then dies again or
// succeeds where the script replays it.
func (x *exporter) startAgain() {
	x.restartJob()
	for range x.batch {
		st := x.exec(scenario.Command{Op: scenario.OpNext})
		x.hold(st.Task)
	}
	x.jobStarted = true
}

// poisonCycles kills and redrives t as many of its redrives times as
// count towards the poison cap (up to the cap if it is poisoned, one short
// of it if not), each death a permanent one at its first attempt.
func (x *exporter) poisonCycles(t *exportTask, redrives int, poisoned bool) {
	p := x.s.cfg.PoisonAfter
	if p == 0 || redrives <= 0 {
		return
	}
	n := min(redrives, p)
	if !poisoned {
		n = min(redrives, p-1)
	}
	for range n {
		if !x.handOut(t) {
			return
		}
		x.fail(t, "redriven before", true)
		x.exec(scenario.Command{Op: scenario.OpRedrive, Task: t.script})
	}
}

// jobBatch returns the tasks of the bulk redrive under way that its last
// batch redrove, when the redrive can start again with them as its first
// batch: their death's error was recorded, and either they are READY, at
// the back of the READY line in their order (ranOn false), or each of them
// SUCCEEDED or died again since (ranOn true: deadLetters and afterBatch
// replay that). Otherwise nil, and restartJob starts the redrive with a
// batch of tasks still DEAD in the database.
func (x *exporter) jobBatch() (batch []*exportTask, ranOn bool) {
	j := x.s.job
	if !j.underWay || j.pos == 0 || j.rate.N <= 0 {
		return nil, false
	}
	k := (j.pos-1)%j.rate.N + 1
	succeeded := 0
	for _, n := range j.tasks[j.pos-k : j.pos] {
		t := x.byScript[n]
		if t == nil || t.deathErr == nil ||
			!(t.state == core.Ready && t.attempts == 0 || t.state == core.Succeeded || t.state == core.Dead && t.dlqSeq != nil) {
			return nil, false
		}
		if t.state != core.Ready {
			succeeded++
		}
		batch = append(batch, t)
	}
	switch succeeded {
	case len(batch):
		return batch, true
	case 0:
	default:
		return nil, false
	}
	var ready []*exportTask
	for _, t := range x.s.tasks {
		if t.state == core.Ready {
			ready = append(ready, t)
		}
	}
	slices.SortFunc(ready, func(a, b *exportTask) int { return cmp.Compare(*a.readySeq, *b.readySeq) })
	if len(ready) < len(batch) {
		return nil, false
	}
	for i, t := range ready[len(ready)-len(batch):] {
		if t != batch[i] {
			return nil, false
		}
	}
	return batch, false
}

// ranOn marks the tasks that afterBatch replays: the last batch of the
// redrive under way, which SUCCEEDED since, and the SUCCEEDED tasks that
// wait on them, transitively.
func (x *exporter) ranOn() {
	x.post = map[*exportTask]bool{}
	dependents := map[string][]*exportTask{}
	for _, t := range x.s.tasks {
		for _, d := range t.deps {
			dependents[d] = append(dependents[d], t)
		}
	}
	var wave []*exportTask
	for _, t := range x.batch {
		if t.state == core.Succeeded {
			x.post[t] = true
			wave = append(wave, t)
		}
	}
	for len(wave) > 0 {
		t := wave[0]
		wave = wave[1:]
		for _, w := range dependents[t.script] {
			if w.state == core.Succeeded && !x.post[w] {
				x.post[w] = true
				wave = append(wave, w)
			}
		}
	}
}

// afterBatch replays what followed the last batch of the redrive under
// way, held since startAgain, for those of it that SUCCEEDED since: they
// and the SUCCEEDED tasks behind them run, dependencies first, each with
// the attempts it failed.
func (x *exporter) afterBatch() {
	if len(x.post) == 0 {
		return
	}
	x.section(fmt.Sprintf("the redrive's last batch ran on: %d SUCCEEDED since, dependencies first", len(x.post)))
	inBatch := map[*exportTask]bool{}
	for _, t := range x.batch {
		inBatch[t] = true
	}
	var post []*exportTask
	for t := range x.post {
		post = append(post, t)
	}
	slices.SortFunc(post, func(a, b *exportTask) int { return cmp.Compare(a.ord, b.ord) })
	for _, t := range post {
		if !inBatch[t] {
			x.submit(t)
			x.retries(t, t.attempts-1)
			if x.handOut(t) {
				x.exec(scenario.Command{Op: scenario.OpComplete, Task: t.script})
			}
			continue
		}
		for k := 1; k < t.attempts; k++ {
			x.fail(t, x.failure(t, k), false)
			x.unhold(t)
			x.untilReady(t)
			if !x.handOut(t) {
				break
			}
			x.hold(t.script)
		}
		x.exec(scenario.Command{Op: scenario.OpComplete, Task: t.script})
		x.unhold(t)
	}
}

// killForJob submits t, a task the redrive under way redrove in its last
// batch, and kills it with the error it died with, so that the restarted
// redrive takes it again.
func (x *exporter) killForJob(t *exportTask) {
	x.submit(t)
	x.poisonCycles(t, t.redrives-1, false) // the redrive under way made the last
	if x.handOut(t) {
		x.fail(t, x.errorText(t.script, *t.deathErr), true)
	}
	t.byJob = true
}

// blockedByBatch submits, dependencies first, the PENDING tasks that wait
// on the tasks of batch, transitively: the batch's death blocks them, as
// it did in the database, so that the BLOCKED tasks behind them arrive
// BLOCKED in their place in the dead-letter queue, and the redrive
// releases them, as it did.
func (x *exporter) blockedByBatch(batch []*exportTask) {
	dependents := map[string][]*exportTask{}
	for _, t := range x.s.tasks {
		for _, d := range t.deps {
			dependents[d] = append(dependents[d], t)
		}
	}
	seen := map[*exportTask]bool{}
	var wave, out []*exportTask
	wave = append(wave, batch...)
	for len(wave) > 0 {
		t := wave[0]
		wave = wave[1:]
		for _, w := range dependents[t.script] {
			if w.state == core.Pending && !seen[w] {
				seen[w] = true
				out = append(out, w)
				wave = append(wave, w)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *exportTask) int { return cmp.Compare(a.ord, b.ord) })
	for _, t := range out {
		x.submit(t)
		t.early = true
	}
}

// live rebuilds the tasks not settled: the attempts behind each,
// the READY line in its order, the RUNNING tasks held, the DELAYED ones
// in their backoff, the PENDING ones; then the redrive under way.
func (x *exporter) live() {
	var ready, running, delayed, pending []*exportTask
	for _, t := range x.s.tasks {
		if t.byJob {
			continue
		}
		switch t.state {
		case core.Ready:
			ready = append(ready, t)
		case core.Running:
			running = append(running, t)
		case core.Delayed:
			delayed = append(delayed, t)
		case core.Pending:
			if !t.early {
				pending = append(pending, t)
			}
		}
	}
	slices.SortFunc(ready, func(a, b *exportTask) int { return cmp.Compare(*a.readySeq, *b.readySeq) })
	slices.SortStableFunc(delayed, func(a, b *exportTask) int { return cmp.Compare(ptr(a.timer), ptr(b.timer)) })
	if x.s.cfg.Alert.Entries > 0 {
		x.settleAlert()
	}

	x.holdLive()
	if len(ready) > 0 {
		x.sectionOf(fmt.Sprintf("the READY line, %d tasks in its order", len(ready)), len(ready))
		x.readyLine(ready)
	}
	if !x.batchRanOn {
		x.restartJob()
	}
	if len(running) > 0 {
		x.note("the RUNNING tasks' leases are held by the script, not by their workers: their holders and deadlines are not the database's")
	}
	if len(delayed) > 0 {
		x.section(fmt.Sprintf("%d DELAYED: the last attempt of each fails into its backoff", len(delayed)))
		for _, t := range delayed {
			e := x.failure(t, t.attempts)
			x.fail(t, e, false)
			x.unhold(t)
		}
	}
	if len(pending) > 0 {
		x.sectionOf(fmt.Sprintf("%d PENDING", len(pending)), len(pending))
		for _, t := range pending {
			x.submit(t)
		}
	}
}

// readyLine rebuilds the READY line in its order: a task never handed out
// is submitted; one that is held fails its last attempt, and waits out its
// backoff. Without jitter the delays are known beforehand, so the tasks
// fail one after another, the clock moved before one only as far as keeps
// its due time after the last one's, and once at the end: the clock moves
// about one backoff in all when the tasks failed as often as one another.
// With jitter each waits out its own.
func (x *exporter) readyLine(ready []*exportTask) {
	b := x.s.cfg.Backoff
	var last time.Duration // the latest due time of those failed, not yet READY
	flush := func() {
		if last > x.q.Now() {
			x.advance(last - x.q.Now())
		}
	}
	for _, t := range ready {
		if t.attempts == 0 {
			flush()
			x.submit(t)
			continue
		}
		e := x.failure(t, t.attempts)
		if b.Jitter != core.JitterNone {
			x.fail(t, e, false)
			x.unhold(t)
			x.untilReady(t)
			continue
		}
		if d := b.Delay(t.attempts, nil); d > 0 && x.q.Now()+d < last {
			x.advance(last - d - x.q.Now())
		}
		x.fail(t, e, false)
		x.unhold(t)
		if info, ok := x.q.Info(t.script); ok && info.State == core.Delayed {
			last = max(last, info.Timer)
		}
	}
	flush()
}

// holdLive hands out every live task with attempts behind it and leaves it
// RUNNING, held, having failed the attempts before: its attempts but the
// last for a RUNNING or DELAYED task (the last is the one held, which a
// DELAYED task fails later), all of them for a READY one (which fails its
// last when the READY line is rebuilt). The failures run in rounds, so
// that no task is held while the clock moves for a backoff: a task that
// fails n times joins at round R−n+1 of R; each round hands out every task
// in the line once and fails it, then waits out the latest backoff; after
// the last round every task is handed out and held. The clock moves at
// most R times (the most attempts), whatever the number of tasks.
func (x *exporter) holdLive() {
	var hold []*exportTask
	need := map[*exportTask]int{}
	rounds := 0
	for _, t := range x.s.tasks {
		if t.byJob || t.attempts == 0 {
			continue
		}
		switch t.state {
		case core.Running, core.Delayed:
			need[t] = t.attempts - 1
		case core.Ready:
			need[t] = t.attempts - 1 // the last fails with the READY line
		default:
			continue
		}
		hold = append(hold, t)
		rounds = max(rounds, need[t])
	}
	if len(hold) == 0 {
		return
	}
	x.section(fmt.Sprintf("%d tasks with attempts behind them fail all but their last, in rounds, then are held RUNNING", len(hold)))
	done := map[*exportTask]int{}
	for r := 1; r <= rounds+1; r++ {
		for _, t := range hold {
			if need[t] == rounds-r+1 {
				x.submit(t)
			}
		}
		if r == rounds+1 {
			break
		}
		var due time.Duration
		for range len(x.q.ReadyTasks()) {
			st := x.exec(scenario.Command{Op: scenario.OpNext})
			t := x.byScript[st.Task]
			if t == nil || done[t] >= need[t] {
				x.diff("next handed out %q in round %d of the replay's retries", st.Task, r)
				continue
			}
			done[t]++
			e := x.failure(t, done[t])
			if x.fail(t, e, false) == core.Delayed {
				info, _ := x.q.Info(t.script)
				due = max(due, info.Timer)
			}
		}
		if due > x.q.Now() {
			x.advance(due - x.q.Now())
		}
	}
	for range len(x.q.ReadyTasks()) {
		st := x.exec(scenario.Command{Op: scenario.OpNext})
		x.hold(st.Task)
	}
}

// hold keeps the task RUNNING, its lease renewed when the clock moves.
func (x *exporter) hold(task string) {
	if x.heldSet == nil {
		x.heldSet = map[string]bool{}
	}
	info, _ := x.q.Info(task)
	x.held = append(x.held, heldLease{task, info.Timer})
	x.heldSet[task] = true
}

// ptr is *p, or the largest value for nil.
func ptr(p *int64) int64 {
	if p == nil {
		return 1<<63 - 1
	}
	return *p
}

// unhold forgets that t is held: O(1), the list compacted when half of
// it is forgotten.
func (x *exporter) unhold(t *exportTask) {
	if !x.heldSet[t.script] {
		return
	}
	delete(x.heldSet, t.script)
	if len(x.heldSet) < len(x.held)/2 {
		x.held = slices.DeleteFunc(x.held, func(h heldLease) bool { return !x.heldSet[h.task] })
	}
}

// settleAlert clears the replay's growth alert, where the database's is
// not raised, by letting its window pass: nothing else is timed yet.
func (x *exporter) settleAlert() {
	if x.s.alertOn || !x.q.Stats().Alerting {
		return
	}
	x.section("the growth alert is not raised in the database: its window passes")
	x.advance(x.s.cfg.Alert.Window)
}

// restartJob starts the bulk redrive under way again at its rate: with its
// last batch when jobBatch found it (the replay then stands where the
// database does), else with the next batch of tasks still DEAD, which the
// database will redrive when that batch falls due.
func (x *exporter) restartJob() {
	j := x.s.job
	if !j.underWay {
		return
	}
	c := scenario.Command{Op: scenario.OpRedriveMatching, Match: j.sel.Contains, Rate: j.rate}
	if j.sel.Fingerprint != "" {
		c = scenario.Command{Op: scenario.OpRedriveGroup, Fingerprint: j.sel.Fingerprint, Rate: j.rate}
	}
	if strings.ContainsAny(c.Match+c.Fingerprint, "#\n\r") || strings.TrimSpace(c.Match+c.Fingerprint) != c.Match+c.Fingerprint {
		x.note("the redrive under way selects by a text a line cannot hold: it is not started")
		return
	}
	x.section(fmt.Sprintf("the redrive under way: %d of its %d tasks handled, %d every %s", j.pos, len(j.tasks), j.rate.N, scenario.FormatDuration(j.rate.Per)))
	if x.batch == nil && j.pos < len(j.tasks) {
		x.note(fmt.Sprintf("the redrive under way starts again with a batch (the simulator's starts so): the replay has redriven its next batch, %d task(s), which the database redrives when that batch falls due", j.rate.N))
	}
	x.exec(c)
}
