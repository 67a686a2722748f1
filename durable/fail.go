package durable

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
)

// running is what fail needs of a RUNNING task.
type running struct {
	name     string
	attempts int
	lease    int64
	redrives int
}

// fail fails the RUNNING task r's current lease with err and decides, in
// this one place (Fail and an expired lease both come here), what follows,
// exactly as core's Queue.Fail: attempts left and not permanent, READY at
// the back of the line, or DELAYED under a backoff (the delay drawn from
// the DAG's generator, whose state is kept in its row); otherwise DEAD,
// into the DLQ, and the blocking wave. The DAG is locked. It returns the
// state the task went to.
func (t *txn) fail(r running, err error) (core.State, error) {
	msg := ""
	if err != nil {
		msg = storable(err.Error())
	}
	permanent := core.IsPermanent(err)
	expired := errors.Is(err, core.ErrLeaseExpired)
	if r.attempts < t.d.maxAttempts && !permanent {
		d, err := t.delay(r.attempts)
		if err != nil {
			return "", err
		}
		outcome := core.Ready
		if d > 0 {
			outcome = core.Delayed
		}
		if err := t.recordAttempt(r, msg, outcome, expired, permanent); err != nil {
			return "", err
		}
		if d > 0 {
			checkMove(r.name, core.Running, core.Delayed)
			due := later(t.now, d)
			if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET state = 'DELAYED', timer_at = $3,
				timer_seq = nextval('dagq_line') WHERE dag = $1 AND name = $2`, t.dag, r.name, int64(due)); err != nil {
				return "", err
			}
			t.emit(core.Event{Kind: core.EventDelayed, Task: r.name, From: core.Running, To: core.Delayed,
				Attempt: r.attempts, Reason: msg, Due: due})
			return core.Delayed, nil
		}
		checkMove(r.name, core.Running, core.Ready)
		if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET state = 'READY', timer_at = NULL, timer_seq = NULL,
			ready_seq = nextval('dagq_line') WHERE dag = $1 AND name = $2`, t.dag, r.name); err != nil {
			return "", err
		}
		t.emit(core.Event{Kind: core.EventRetried, Task: r.name, From: core.Running, To: core.Ready,
			Attempt: r.attempts, Reason: msg})
		return core.Ready, nil
	}
	checkMove(r.name, core.Running, core.Dead)
	if err := t.recordAttempt(r, msg, core.Dead, expired, permanent); err != nil {
		return "", err
	}
	reason := deathReason(r.attempts, msg, permanent)
	poisoned := t.d.poisonAfter > 0 && r.redrives >= t.d.poisonAfter
	if _, err := t.tx.Exec(t.ctx, `UPDATE dagq_tasks SET state = 'DEAD', timer_at = NULL, timer_seq = NULL,
		reason = $3, error = $4, poisoned = $5, entered = $6, blocks = 0, dlq_seq = nextval('dagq_line')
		WHERE dag = $1 AND name = $2`, t.dag, r.name, reason, msg, poisoned, int64(t.now)); err != nil {
		return "", err
	}
	t.emit(core.Event{Kind: core.EventDead, Task: r.name, From: core.Running, To: core.Dead,
		Attempt: r.attempts, Reason: reason, Error: msg, Poisoned: poisoned})
	t.noteEntry()
	n, err := t.blockWave(r.name, r.name)
	if err != nil {
		return "", err
	}
	if err := t.placeAlert(); err != nil {
		return "", err
	}
	return core.Dead, t.addBlocks(r.name, n)
}

// keptAttempts is how many failed attempts of each task dagq_attempts
// keeps, the latest: a task that fails for ever (a poison pill redriven
// again and again) keeps a bounded history.
const keptAttempts = 20

// recordAttempt writes the failure of r's current attempt into
// dagq_attempts, with the holder of its lease, when it started and what it
// led to (outcome), and drops the task's oldest records beyond
// keptAttempts: one statement, on the failure paths only (Fail, an expiry,
// a worker's shutdown), never on a hand-out or a completion. The row is
// still RUNNING, locked by the caller.
func (t *txn) recordAttempt(r running, msg string, outcome core.State, expired, permanent bool) error {
	_, err := t.tx.Exec(t.ctx, `WITH ins AS (
			INSERT INTO dagq_attempts (dag, task, seq, attempt, redrives, error, outcome, expired, permanent, holder, started, ended)
			SELECT dag, name, nextval('dagq_line'), attempts, redrives, $3, $4, $5, $6, holder, started, now()
			FROM dagq_tasks WHERE dag = $1 AND name = $2
			RETURNING seq)
		DELETE FROM dagq_attempts a WHERE a.dag = $1 AND a.task = $2 AND a.seq < (
			SELECT min(k.seq) FROM (SELECT seq FROM dagq_attempts WHERE dag = $1 AND task = $2
				ORDER BY seq DESC LIMIT $7) k)`,
		t.dag, r.name, msg, string(outcome), expired, permanent, keptAttempts-1)
	return err
}

// storable returns msg as Postgres can store it in a text column: NUL bytes
// removed and invalid UTF-8 replaced by U+FFFD, so that a handler's error,
// whatever bytes it holds, fails its task instead of failing the statement
// (SQLSTATE 22021) that records it. The cost is O(len(msg)), and nothing
// when msg is valid.
func storable(msg string) string {
	if strings.IndexByte(msg, 0) >= 0 {
		msg = strings.ReplaceAll(msg, "\x00", "")
	}
	if !utf8.ValidString(msg) {
		msg = strings.ToValidUTF8(msg, "\uFFFD")
	}
	return msg
}

// delay draws the backoff delay of attempt k from the DAG's generator and
// stores the generator's new state: core's Backoff.Delay, so the delays
// are the in-memory queue's, one for one.
func (t *txn) delay(k int) (time.Duration, error) {
	b := t.d.backoff
	if b.Base <= 0 {
		return 0, nil
	}
	pcg := rand.NewPCG(b.Seed, 0)
	if len(t.d.rng) > 0 {
		if err := pcg.UnmarshalBinary(t.d.rng); err != nil {
			return 0, err
		}
	}
	d := b.Delay(k, rand.New(pcg))
	state, err := pcg.MarshalBinary()
	if err != nil {
		return 0, err
	}
	if string(state) != string(t.d.rng) {
		t.d.rng = state
		if _, err := t.tx.Exec(t.ctx, "UPDATE dagq_dags SET rng = $2 WHERE dag = $1", t.dag, state); err != nil {
			return 0, err
		}
	}
	return d, nil
}

// deathReason is core's: "failed after N attempt(s): ERR", or "permanent
// failure after …".
func deathReason(attempts int, msg string, permanent bool) string {
	s := "failed after "
	if permanent {
		s = "permanent failure after "
	}
	s += strconv.Itoa(attempts) + " attempt"
	if attempts != 1 {
		s += "s"
	}
	if msg != "" {
		s += ": " + msg
	}
	return s
}

// blockWave blocks, nearest first, every PENDING task that waits on start
// transitively, naming root, as core's blockWave: breadth first, each
// level's dependents in the order of the level and then of their arrival.
// A task already BLOCKED keeps its root, and the wave stops there. Each
// task it blocks enters the DLQ and counts towards the growth alert. It
// returns how many it blocked. Two statements per level.
func (t *txn) blockWave(start, root string) (int, error) {
	total := 0
	level := []string{start}
	for len(level) > 0 {
		rows, err := t.tx.Query(t.ctx, `SELECT e.task FROM unnest($2::text[]) WITH ORDINALITY AS f(name, i)
			JOIN dagq_edges e ON e.dag = $1 AND e.dep = f.name
			JOIN dagq_tasks t ON t.dag = $1 AND t.name = e.task AND t.state = 'PENDING'
			ORDER BY f.i, e.arrival`, t.dag, level)
		if err != nil {
			return 0, err
		}
		var next []string
		seen := map[string]bool{}
		for rows.Next() {
			var w string
			if err := rows.Scan(&w); err != nil {
				return 0, err
			}
			if !seen[w] {
				seen[w] = true
				next = append(next, w)
			}
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		if len(next) == 0 {
			break
		}
		if _, err := t.tx.Exec(t.ctx, `WITH s AS MATERIALIZED (`+inLine+`)
			UPDATE dagq_tasks t SET state = 'BLOCKED', root = $3, entered = $4, dlq_seq = s.seq FROM s
			WHERE t.dag = $1 AND t.name = s.n`, t.dag, next, root, int64(t.now)); err != nil {
			return 0, err
		}
		for _, w := range next {
			checkMove(w, core.Pending, core.Blocked)
			t.emit(core.Event{Kind: core.EventBlocked, Task: w, From: core.Pending, To: core.Blocked,
				Root: root, Reason: "blocked by " + root})
			t.noteEntry()
		}
		total += len(next)
		level = next
	}
	return total, nil
}

// addBlocks adds n to the blast radius of the dead task root.
func (t *txn) addBlocks(root string, n int) error {
	if n == 0 {
		return nil
	}
	_, err := t.tx.Exec(t.ctx, "UPDATE dagq_tasks SET blocks = blocks + $3 WHERE dag = $1 AND name = $2", t.dag, root, n)
	return err
}

// errNoDAG is the error of an operation on a DAG that has no row.
func errNoDAG(dag string) error {
	return errors.New("durable: no DAG " + strconv.Quote(dag) + " (open it with DB.Queue first)")
}
