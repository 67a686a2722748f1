package durable

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
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
	snap, err := db.snapshot(ctx, dag, true)
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

// snapshot reads the DAG for ExportScript, and for State without the
// attempts recorded (attempts false): one statement fewer, and the
// biggest read of a DAG whose tasks failed often.
func (db *DB) snapshot(ctx context.Context, dag string, attempts bool) (*exportSnapshot, error) {
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

		if attempts {
			if err := s.readAttempts(ctx, tx); err != nil {
				return err
			}
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
		what := "export"
		if !attempts {
			what = "state of"
		}
		return nil, fmt.Errorf("durable: %s %q: %w", what, dag, err)
	}
	return s, nil
}

// readAttempts reads the attempts recorded of the snapshot's tasks: the
// failures of each task's current life, and the error of its last death.
func (s *exportSnapshot) readAttempts(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT task, attempt, redrives, error, outcome, permanent
			FROM dagq_attempts WHERE dag = $1 ORDER BY seq`, s.dag)
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
	return nil
}
