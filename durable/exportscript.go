package durable

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// ExportScript returns a scenario script (the language wq run and the
// playground read, see package scenario) that rebuilds the DAG's current
// state in the in-memory queue: an incident, to replay, share, practise on
// or embed. The script carries the DAG's settings (attempts, lease,
// backoff and jitter, poison, alert) and rebuilds, in this order:
//
//  1. the SUCCEEDED tasks, dependencies first (by their ord), each
//     submitted, failed as many times as its attempts say with the errors
//     recorded (dagq_attempts), and completed;
//  2. the dead-letter queue in the order of its entries: each DEAD task
//     submitted, redriven and killed again as many times as the poison cap
//     needs, failed with its recorded errors and killed with its own
//     (fail, or fail! for a permanent one), and each BLOCKED task
//     submitted after its root died, so that it arrives BLOCKED by it;
//  3. the live tasks: those with attempts behind them handed out and
//     failed with their errors, each left RUNNING in turn; then the READY
//     line in its order, RUNNING tasks held, DELAYED ones failed into
//     their backoff; and the PENDING ones submitted last, with the names
//     awaited that never arrived left unsubmitted;
//  4. a bulk redrive at a rate in flight, started again where it stood.
//
// What the language cannot say exactly — wall-clock times (the script's
// clock starts at 0 and moves only where a retry's backoff must pass),
// lease holders, the jitter generator's state, names or error texts
// outside the language — is put in its closest form and said in the
// comment at the top. The script is run in the in-memory queue before it
// is returned, and every difference between that run and the database
// (a state, a reason, a root, the DLQ's order, the READY line, the alert,
// the redrive) is listed there too: none means the replay is the DAG as
// it stands.
//
// It reads the DAG in one snapshot (a read-only, repeatable-read
// transaction, four statements besides its BEGIN and COMMIT); the cost is O(tasks + edges + the
// attempts recorded) reads, and a run of the script, O(its commands).
// A DAG that does not exist is an error.
func (db *DB) ExportScript(ctx context.Context, dag string) (string, error) {
	snap, err := db.snapshot(ctx, dag)
	if err != nil {
		return "", err
	}
	return snap.script()
}

// exportTask is a task of the DAG as the export reads it.
type exportTask struct {
	name, script string // its name, and as the script writes it
	state        core.State
	ord, arrival int64
	deps         []string
	attempts     int
	reason, err  string
	root         string
	poisoned     bool
	redrives     int
	dlqSeq       *int64
	readySeq     *int64
	timer        *int64
	blocks       int
	failures     []exportAttempt // of its current life (since its last redrive), by attempt
	deathErr     *string         // the error of its last death, if recorded
	byJob        bool            // killed for the redrive under way to take again (see jobBatch)
	early        bool            // PENDING, submitted with byJob's tasks, which block it until the redrive
}

// exportAttempt is a failed attempt as dagq_attempts records it.
type exportAttempt struct {
	attempt, redrives int
	err               string
	outcome           core.State
	permanent         bool
}

// exportJob is the bulk redrive under way, as dagq_redrives holds it.
type exportJob struct {
	sel      core.Selector
	rate     core.Rate
	tasks    []string
	skipped  []string
	pos      int
	done     int
	gone     int
	underWay bool
}

// exportSnapshot is what ExportScript reads of a DAG.
type exportSnapshot struct {
	dag      string
	virtual  bool
	cfg      core.Config
	alertOn  bool
	tasks    []*exportTask // by arrival
	byName   map[string]*exportTask
	awaited  []string
	job      exportJob
	attempts int // the attempts records read
}

// snapshot reads the DAG for ExportScript.
func (db *DB) snapshot(ctx context.Context, dag string) (*exportSnapshot, error) {
	s := &exportSnapshot{dag: dag, virtual: db.virtual, byName: map[string]*exportTask{}}
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var lease, base, max, window int64
		var jitter int16
		var seed int64
		err := tx.QueryRow(ctx, `SELECT max_attempts, lease_timeout, backoff_base, backoff_factor, backoff_max, jitter, seed,
				poison_after, alert_entries, alert_window, alert_on FROM dagq_dags WHERE dag = $1`, dag).Scan(
			&s.cfg.MaxAttempts, &lease, &base, &s.cfg.Backoff.Factor, &max, &jitter, &seed,
			&s.cfg.PoisonAfter, &s.cfg.Alert.Entries, &window, &s.alertOn)
		if err == pgx.ErrNoRows {
			return errNoDAG(dag)
		}
		if err != nil {
			return err
		}
		s.cfg.LeaseTimeout, s.cfg.Alert.Window = time.Duration(lease), time.Duration(window)
		s.cfg.Backoff.Base, s.cfg.Backoff.Max = time.Duration(base), time.Duration(max)
		s.cfg.Backoff.Jitter, s.cfg.Backoff.Seed = core.Jitter(jitter), uint64(seed)

		rows, err := tx.Query(ctx, `SELECT name, state, ord, coalesce(arrival, 0), deps, attempts, reason, error,
				coalesce(root, ''), poisoned, redrives, dlq_seq, ready_seq, timer_at, blocks
			FROM dagq_tasks WHERE dag = $1 ORDER BY arrival NULLS LAST, name`, dag)
		if err != nil {
			return err
		}
		for rows.Next() {
			t := &exportTask{}
			var state string
			if err := rows.Scan(&t.name, &state, &t.ord, &t.arrival, &t.deps, &t.attempts, &t.reason, &t.err,
				&t.root, &t.poisoned, &t.redrives, &t.dlqSeq, &t.readySeq, &t.timer, &t.blocks); err != nil {
				rows.Close()
				return err
			}
			if state == "" {
				s.awaited = append(s.awaited, t.name)
				continue
			}
			t.state = core.State(state)
			s.tasks = append(s.tasks, t)
			s.byName[t.name] = t
		}
		if err := rows.Err(); err != nil {
			return err
		}

		rows, err = tx.Query(ctx, `SELECT task, attempt, redrives, error, outcome, permanent
			FROM dagq_attempts WHERE dag = $1 ORDER BY seq`, dag)
		if err != nil {
			return err
		}
		var a exportAttempt
		var task, outcome string
		if _, err := pgx.ForEachRow(rows, []any{&task, &a.attempt, &a.redrives, &a.err, &outcome, &a.permanent}, func() error {
			a.outcome = core.State(outcome)
			s.attempts++
			t := s.byName[task]
			if t == nil {
				return nil
			}
			if a.redrives == t.redrives {
				t.failures = append(t.failures, a)
			}
			if a.outcome == core.Dead && a.redrives == t.redrives-1 {
				e := a.err
				t.deathErr = &e
			}
			return nil
		}); err != nil {
			return err
		}

		var fp, contains string
		var per int64
		err = tx.QueryRow(ctx, `SELECT fingerprint, contains, rate_n, rate_per, tasks, skipped, pos, done, gone
			FROM dagq_redrives WHERE dag = $1`, dag).Scan(&fp, &contains, &s.job.rate.N, &per,
			&s.job.tasks, &s.job.skipped, &s.job.pos, &s.job.done, &s.job.gone)
		switch {
		case err == pgx.ErrNoRows:
		case err != nil:
			return err
		default:
			s.job.underWay = true
			s.job.sel = core.Selector{Fingerprint: fp, Contains: contains}
			s.job.rate.Per = time.Duration(per)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("durable: export %q: %w", dag, err)
	}
	return s, nil
}

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
}

// heldLease is a task the script holds RUNNING, with its lease's deadline.
type heldLease struct {
	task     string
	deadline time.Duration // 0: it never expires
}

// maxExportDiffs is the most differences the header lists one by one.
const maxExportDiffs = 20

// script builds, runs and checks the script of the snapshot.
func (s *exportSnapshot) script() (string, error) {
	x := &exporter{s: s, byScript: map[string]*exportTask{}}
	x.nameTasks()
	header, err := x.header()
	if err != nil {
		return "", err
	}
	x.succeeded()
	x.deadLetters()
	x.live()
	x.verify()
	return x.text(header), nil
}

// nameTasks gives each task its name in the script: its own when the
// language allows it, else one made of its allowed characters and a hash
// of the name, which the header lists.
func (x *exporter) nameTasks() {
	taken := map[string]bool{}
	for _, t := range x.s.tasks {
		if validName(t.name) {
			taken[t.name] = true
		}
	}
	for _, n := range x.s.awaited {
		if validName(n) {
			taken[n] = true
		}
	}
	var renamed []string
	name := func(n string) string {
		if validName(n) {
			return n
		}
		out := scriptName(n, taken)
		taken[out] = true
		renamed = append(renamed, fmt.Sprintf("%s is written %s", strconv.Quote(n), out))
		return out
	}
	mapped := map[string]string{}
	for _, n := range x.s.awaited {
		mapped[n] = name(n)
	}
	for _, t := range x.s.tasks {
		t.script = name(t.name)
		mapped[t.name] = t.script
		x.byScript[t.script] = t
	}
	for _, t := range x.s.tasks {
		for i, d := range t.deps {
			t.deps[i] = mapped[d]
		}
		if t.root != "" {
			t.root = mapped[t.root]
		}
	}
	for i, n := range x.s.job.tasks {
		if m, ok := mapped[n]; ok {
			x.s.job.tasks[i] = m
		}
	}
	if len(renamed) > 0 {
		x.note("names outside the language's characters (A-Z a-z 0-9 _ . : / -) are renamed: " + strings.Join(renamed, ", "))
	}
}

// validName reports whether the language takes n as a task name as it is.
func validName(n string) bool {
	if n == "" || len(n) > scenario.MaxName {
		return false
	}
	for _, r := range n {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_.:/-", r)) {
			return false
		}
	}
	return true
}

// scriptName makes a name the language takes out of n, which it does not:
// its allowed characters, others as _, then -x and the FNV-1a hash of n
// (and a number, should that be taken too).
func scriptName(n string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range n {
		if validName(string(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	suffix := fmt.Sprintf("-x%08x", h.Sum32())
	base := b.String()
	if len(base) > 200 {
		base = base[:200]
	}
	out := base + suffix
	for i := 2; taken[out]; i++ {
		out = base + suffix + "-" + strconv.Itoa(i)
	}
	return out
}

// errorText is a recorded error as a script line can carry it: no line
// breaks or other control characters (spaces instead), no # (which starts
// a comment; written as the fullwidth ＃), no space at either end.
func (x *exporter) errorText(task, e string) string {
	out := lineText(e)
	if out != e {
		x.note(fmt.Sprintf("the error of %s is written %s (a line cannot hold it as it is: %s)", task, strconv.Quote(out), strconv.Quote(e)))
	}
	return out
}

// lineText is e as the rest of a script line can hold it (see errorText).
func lineText(e string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r == '#':
			return '＃'
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, e))
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
	x.runner, err = scenario.NewRunner(script, scenario.Options{})
	if err != nil {
		return nil, fmt.Errorf("durable: export %q: %w", x.s.dag, err)
	}
	x.q = x.runner.Queue()
	return h, nil
}

// section starts a part of the script.
func (x *exporter) section(comment string) {
	x.sections = append(x.sections, exportSection{comment: comment})
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

// failure is the error of t's attempt k as recorded, or a stand-in.
func (x *exporter) failure(t *exportTask, k int) (string, bool) {
	for _, a := range t.failures {
		if a.attempt == k {
			return x.errorText(t.script, a.err), a.permanent
		}
	}
	x.note("errors of attempts not recorded (before the attempts table, or beyond the last 20 of a task) are written \"not recorded\"")
	return "not recorded", false
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
		e, _ := x.failure(t, k)
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
		if t.state == core.Succeeded {
			done = append(done, t)
		}
	}
	if len(done) == 0 {
		return
	}
	slices.SortStableFunc(done, func(a, b *exportTask) int { return cmp.Compare(a.ord, b.ord) })
	x.section(fmt.Sprintf("%d SUCCEEDED, dependencies first, each with the attempts it failed", len(done)))
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
	batch := x.jobBatch()
	slices.SortFunc(dlq, func(a, b *exportTask) int { return cmp.Compare(*a.dlqSeq, *b.dlqSeq) })
	at := len(dlq)
	if len(batch) > 0 {
		remaining := map[string]bool{}
		for _, n := range x.s.job.tasks[x.s.job.pos:] {
			remaining[n] = true
		}
		for i, t := range dlq {
			if t.state == core.Dead && remaining[t.script] {
				at = i
				break
			}
			if r := x.byScript[t.root]; t.state == core.Blocked && r != nil && r.dlqSeq != nil && *r.dlqSeq > *t.dlqSeq {
				at = i
				break
			}
		}
	}
	if len(dlq) > 0 {
		x.section(fmt.Sprintf("the dead-letter queue, %d entries in their order: each DEAD task with its attempts and its death, each BLOCKED one submitted after its root died", len(dlq)))
	}
	for i := 0; i <= len(dlq); i++ {
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
		switch t.state {
		case core.Dead:
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
		case core.Blocked:
			x.submit(t)
		}
	}
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
// batch: they are READY, at the back of the READY line in their order, and
// their death's error was recorded. Otherwise nil, and restartJob starts
// the redrive with a batch of tasks still DEAD in the database.
func (x *exporter) jobBatch() []*exportTask {
	j := x.s.job
	if !j.underWay || j.pos == 0 || j.rate.N <= 0 {
		return nil
	}
	k := (j.pos-1)%j.rate.N + 1
	var batch []*exportTask
	for _, n := range j.tasks[j.pos-k : j.pos] {
		t := x.byScript[n]
		if t == nil || t.state != core.Ready || t.attempts != 0 || t.deathErr == nil {
			return nil
		}
		batch = append(batch, t)
	}
	var ready []*exportTask
	for _, t := range x.s.tasks {
		if t.state == core.Ready {
			ready = append(ready, t)
		}
	}
	slices.SortFunc(ready, func(a, b *exportTask) int { return cmp.Compare(*a.readySeq, *b.readySeq) })
	if len(ready) < len(batch) {
		return nil
	}
	for i, t := range ready[len(ready)-len(batch):] {
		if t != batch[i] {
			return nil
		}
	}
	return batch
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
		x.section(fmt.Sprintf("the READY line, %d tasks in its order", len(ready)))
		x.readyLine(ready)
	}
	x.restartJob()
	if len(running) > 0 {
		x.note("the RUNNING tasks' leases are held by the script, not by their workers: their holders and deadlines are not the database's")
	}
	if len(delayed) > 0 {
		x.section(fmt.Sprintf("%d DELAYED: the last attempt of each fails into its backoff", len(delayed)))
		for _, t := range delayed {
			e, _ := x.failure(t, t.attempts)
			x.fail(t, e, false)
			x.unhold(t)
		}
	}
	if len(pending) > 0 {
		x.section(fmt.Sprintf("%d PENDING", len(pending)))
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
		e, _ := x.failure(t, t.attempts)
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
			e, _ := x.failure(t, done[t])
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
	if x.jobBatch() == nil && j.pos < len(j.tasks) {
		x.note(fmt.Sprintf("the redrive under way starts again with a batch: the replay redrives %d more tasks than the database has so far, as it will at its next batch", j.rate.N))
	}
	x.exec(c)
}

// verify compares the replay with the database: every task's state, the
// dead-letter queue (its order, reasons, roots, poisoned tasks, blast
// radii), the READY line, the alert and the redrive under way.
func (x *exporter) verify() {
	for _, t := range x.s.tasks {
		st, _ := x.q.Status(t.script)
		if st != t.state {
			x.diff("%s is %s in the replay, %s in the database", t.script, orNone(st), t.state)
		}
	}
	var want []*exportTask
	for _, t := range x.s.tasks {
		if t.dlqSeq != nil && (t.state == core.Dead || t.state == core.Blocked) {
			want = append(want, t)
		}
	}
	slices.SortFunc(want, func(a, b *exportTask) int { return cmp.Compare(*a.dlqSeq, *b.dlqSeq) })
	got := x.q.DeadLetters()
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			x.diff("the replay's dead-letter queue ends before %s", want[i].script)
		case i >= len(want):
			x.diff("the replay's dead-letter queue has %s past the database's end", got[i].Task)
		default:
			g, w := got[i], want[i]
			reason := w.reason
			if w.state == core.Blocked {
				reason = "blocked by " + w.root
			}
			switch {
			case g.Task != w.script:
				x.diff("entry %d of the dead-letter queue is %s in the replay, %s in the database", i+1, g.Task, w.script)
			case g.Root != w.root:
				x.diff("%s is blocked by %s in the replay, by %s in the database", w.script, orNone(core.State(g.Root)), orNone(core.State(w.root)))
			case w.state == core.Dead && g.Reason != lineText(reason):
				x.diff("%s's reason is %q in the replay, %q in the database", w.script, g.Reason, reason)
			case g.Poisoned != w.poisoned:
				x.diff("%s is poisoned in one and not in the other", w.script)
			case w.state == core.Dead && g.BlastRadius != w.blocks:
				x.diff("%s blocks %d tasks in the replay, %d in the database", w.script, g.BlastRadius, w.blocks)
			}
		}
	}
	var ready []*exportTask
	for _, t := range x.s.tasks {
		if t.state == core.Ready {
			ready = append(ready, t)
		}
	}
	slices.SortFunc(ready, func(a, b *exportTask) int { return cmp.Compare(*a.readySeq, *b.readySeq) })
	line := x.q.ReadyTasks()
	if len(line) == len(ready) {
		for i, t := range ready {
			if line[i] != t.script {
				x.diff("the READY line differs at place %d: %s in the replay, %s in the database", i+1, line[i], t.script)
				break
			}
		}
	}
	if a := x.q.Stats().Alerting; x.s.cfg.Alert.Entries > 0 && a != x.s.alertOn {
		x.diff("the growth alert is %s in the replay, %s in the database", onOff(a), onOff(x.s.alertOn))
	}
	if job := x.q.Stats().Redrive; x.s.job.underWay != (job != nil) {
		x.diff("a redrive is under way in one and not in the other")
	}
}

// orNone is a state, or "not submitted".
func orNone(s core.State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}

// onOff says whether an alert is raised.
func onOff(b bool) string {
	if b {
		return "raised"
	}
	return "not raised"
}

// text writes the script: its comment, the settings, each section under
// its own comment.
func (x *exporter) text(header []scenario.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# DAG %s, exported from its database: %d tasks", comment(x.s.dag), len(x.s.tasks))
	if len(x.s.awaited) > 0 {
		fmt.Fprintf(&b, "; never submitted, so left out: %s", comment(strings.Join(x.s.awaited, ", ")))
	}
	b.WriteString("\n")
	if len(x.diffs) == 0 {
		b.WriteString("# Replayed, it stands where the database does: every state, reason and root, the\n# dead-letter queue in its order, the READY line.\n")
	} else {
		fmt.Fprintf(&b, "# Replayed, it differs from the database in %d ways:\n", len(x.diffs))
		for i, d := range x.diffs {
			if i == maxExportDiffs {
				fmt.Fprintf(&b, "#   and %d more\n", len(x.diffs)-i)
				break
			}
			fmt.Fprintf(&b, "#   - %s\n", comment(d))
		}
	}
	if len(x.notes) > 0 {
		b.WriteString("# Not as in the database:\n")
		for _, n := range x.notes {
			fmt.Fprintf(&b, "#   - %s\n", comment(n))
		}
	}
	for _, c := range header {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	for _, s := range x.sections {
		if len(s.cmds) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n# %s\n", s.comment)
		for _, c := range s.cmds {
			b.WriteString(c.String())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// comment is s as a comment line can hold it: one line.
func comment(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
