package durable

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// moveTables are the tables that hold a DAG's rows, each keyed by its dag
// column, in an order that respects their foreign keys (dagq_dags first).
var moveTables = []string{"dagq_dags", "dagq_tasks", "dagq_edges", "dagq_expired", "dagq_redrives", "dagq_attempts"}

// moveSequences are the sequences whose values a DAG's rows hold (lease
// ids, and the lines of READY, timer and DLQ order): the new database's are
// moved past the old one's, so that what comes after the move is ordered
// after what was copied and no lease id is handed out twice.
var moveSequences = []string{"dagq_lease_ids", "dagq_line"}

// Move moves dag to the shard to, with every row of it as it stands (its
// tasks in their states, attempts, leases, timers, arguments and results,
// edges, expired leases, a redrive under way), and records it there: an
// explicit operation, the only way a DAG changes shards.
//
// The DAG is frozen in its old database for the whole move: its advisory
// lock and every row of it are locked, so that no submit, completion,
// failure, heartbeat, timer or hand-out of it commits meanwhile (they wait,
// or skip it). Its rows are copied into the new database in one
// transaction; then its placement is switched, and its rows are deleted
// from the old database in the transaction that froze it. The placement
// switches in the same transaction as the copy when the directory is the
// new database, and as the deletion when it is the old one. A failure
// before the copy commits changes nothing; after it, Move undoes what it
// can (the copy the placement does not name) and reports the error. A
// process that dies between the copy's commit and the deletion's leaves
// both copies, both paused (the old one by the freeze, the new one as it
// was copied, to be resumed once the old one is gone), so that no task
// runs in either, until [Sharded.Repair] deletes the one the placement
// does not name and resumes the other.
//
// Tasks RUNNING when the move begins finish where they run: first the DAG
// is paused in its old database (none of its tasks is handed out; other
// DAGs are not touched), and Move waits, polling every 10 ms, until none
// of its tasks is RUNNING (their handlers returned and their results
// committed, or their leases expired and the maintenance pass failed
// them), then checks again under the freeze and copies no RUNNING task: a
// move never makes a task run twice. It waits at most the DAG's lease
// timeout and 10 s more (a lease expires by then, and a worker's
// maintenance pass fails it within its Poll), and as long as ctx allows;
// then it resumes the DAG where it is and returns an error that says how
// many tasks are still RUNNING: nothing moved. The copy is resumed in the
// new database once the old rows are deleted. A process that dies while the DAG is paused
// leaves it paused until [Sharded.Repair] (or a Move) resumes it. Every
// other Sharded reads the new placement when it next opens
// the DAG, and its Complete, Fail and Heartbeat follow it; a Submit
// through a Queue it opened before the move is refused ("no DAG") until
// it opens the DAG again, never applied to a second copy. Moving a DAG to where it is
// does nothing. The cost is O(rows of the DAG), in a constant number of
// statements per table.
func (s *Sharded) Move(ctx context.Context, dag string, to int) error {
	if to < 0 || to >= len(s.shards) {
		return fmt.Errorf("durable: cannot move %q to shard %d: there are %d shards", dag, to, len(s.shards))
	}
	// Freezing the DAG may deadlock with an operation on it that locked
	// in the other order: Postgres aborts one, and the move is tried again.
	for attempt := 0; ; attempt++ {
		err := s.move1(ctx, dag, to)
		if errors.Is(err, errStillRunning) && attempt < 20 {
			continue // a task of it was handed out as the pause committed
		}
		if err != nil && retryable(err) && attempt < 20 {
			time.Sleep(time.Duration(attempt+1) * time.Millisecond)
			continue
		}
		return err
	}
}

// move1 is one try of Move.
func (s *Sharded) move1(ctx context.Context, dag string, to int) error {
	from, err := s.current(ctx, dag)
	if err != nil {
		return err
	}
	if from == to {
		return nil
	}
	src, dst := s.shards[from], s.shards[to]
	moved := false
	defer func() {
		if !moved {
			// Resumed where it is: a failed move leaves the DAG as it was.
			_, _ = src.pool.Exec(context.WithoutCancel(ctx), "UPDATE dagq_dags SET paused = false WHERE dag = $1 AND paused", dag) // best effort: Repair resumes it
		}
	}()
	if err := src.drain(ctx, dag); err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	stx, err := src.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	defer func() { _ = stx.Rollback(ctx) }() // a no-op after Commit
	if _, err := stx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", dag); err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	// The placement again, now that nothing of the DAG can change: a
	// concurrent Move may have taken it away.
	if cur, err := s.placement(ctx, stx, from, dag); err != nil {
		return err
	} else if cur != from {
		return fmt.Errorf("durable: move %q: it moved to shard %d meanwhile", dag, cur)
	}
	if _, err := stx.Exec(ctx, "SELECT 1 FROM dagq_dags WHERE dag = $1 FOR UPDATE", dag); err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	if _, err := stx.Exec(ctx, "SELECT 1 FROM dagq_tasks WHERE dag = $1 FOR UPDATE", dag); err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	var running int
	if err := stx.QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE dag = $1 AND state = 'RUNNING'", dag).Scan(&running); err != nil {
		return fmt.Errorf("durable: move %q: %w", dag, err)
	}
	if running > 0 {
		return errStillRunning
	}
	copied := map[string]int64{}
	for _, seq := range moveSequences {
		var v int64
		if err := stx.QueryRow(ctx, "SELECT last_value FROM "+seq).Scan(&v); err != nil {
			return fmt.Errorf("durable: move %q: %w", dag, err)
		}
		copied[seq] = v
	}
	type table struct {
		cols []string
		rows [][]any
	}
	var tables []table
	for _, name := range moveTables {
		rows, err := stx.Query(ctx, "SELECT * FROM "+name+" WHERE dag = $1", dag)
		if err != nil {
			return fmt.Errorf("durable: move %q: %w", dag, err)
		}
		var tb table
		for _, f := range rows.FieldDescriptions() {
			tb.cols = append(tb.cols, f.Name)
		}
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				rows.Close()
				return fmt.Errorf("durable: move %q: %w", dag, err)
			}
			tb.rows = append(tb.rows, v)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("durable: move %q: %w", dag, err)
		}
		tables = append(tables, tb)
	}
	if len(tables[0].rows) == 0 {
		return fmt.Errorf("durable: move %q: %w", dag, errNoDAG(dag))
	}

	// The copy, and the placement if the new database is the directory.
	err = pgx.BeginFunc(ctx, dst.pool, func(dtx pgx.Tx) error {
		if _, err := dtx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", dag); err != nil {
			return err
		}
		// What a Move that failed half way may have left here: the
		// placement names the old shard, so it is not the DAG.
		if _, err := dtx.Exec(ctx, "DELETE FROM dagq_dags WHERE dag = $1", dag); err != nil {
			return err
		}
		for i, tb := range tables {
			if len(tb.rows) == 0 {
				continue
			}
			if _, err := dtx.CopyFrom(ctx, pgx.Identifier{moveTables[i]}, tb.cols, pgx.CopyFromRows(tb.rows)); err != nil {
				return fmt.Errorf("%s: %w", moveTables[i], err)
			}
		}
		for _, seq := range moveSequences {
			if _, err := dtx.Exec(ctx, "SELECT setval('"+seq+"', greatest((SELECT last_value FROM "+seq+"), $1))", copied[seq]); err != nil {
				return err
			}
		}
		// The copy stays paused, as the frozen rows it copies are, until
		// the old rows are deleted: a move that dies in between leaves two
		// paused copies, of which neither runs a task, never two running
		// ones.
		if to == 0 {
			return setPlacement(ctx, dtx, dag, to)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("durable: move %q to shard %d: %w", dag, to, err)
	}
	// The copy is committed: from here on, an error leaves two copies, of
	// which the placement names the real one; the other is deleted.
	if hook := afterMoveCopy.Load(); hook != nil {
		(*hook)(dag)
	}
	switched := to == 0
	undo := func(cause error) error {
		bg := context.WithoutCancel(ctx)
		_ = stx.Rollback(bg)
		if switched {
			if _, uerr := src.DeleteDAG(bg, dag); uerr != nil {
				return fmt.Errorf("durable: move %q to shard %d: moved, but the old rows could not be deleted (%w; then %w): delete them with DB.DeleteDAG on shard %d", dag, to, cause, uerr, from)
			}
			return nil // moved: the old rows are deleted
		}
		if _, uerr := dst.DeleteDAG(bg, dag); uerr != nil {
			return fmt.Errorf("durable: move %q to shard %d: %w; and its copy could not be deleted (%w): delete it with DB.DeleteDAG on shard %d", dag, to, cause, uerr, to)
		}
		return fmt.Errorf("durable: move %q to shard %d: %w (its copy is deleted: nothing moved)", dag, to, cause)
	}
	if from != 0 && to != 0 {
		if err := pgx.BeginFunc(ctx, s.shards[0].pool, func(tx pgx.Tx) error { return setPlacement(ctx, tx, dag, to) }); err != nil {
			return undo(err)
		}
		switched = true
	}
	if _, err := stx.Exec(ctx, "DELETE FROM dagq_dags WHERE dag = $1", dag); err != nil {
		if err := undo(err); err != nil {
			return err
		}
	} else if from == 0 {
		if err := setPlacement(ctx, stx, dag, to); err != nil {
			return undo(err)
		}
	}
	if err := stx.Commit(ctx); err != nil {
		if err := undo(err); err != nil {
			return err
		}
	}
	moved = true
	if _, err := dst.pool.Exec(ctx, "UPDATE dagq_dags SET paused = false WHERE dag = $1 AND paused", dag); err != nil {
		return fmt.Errorf("durable: move %q to shard %d: moved, but its hand-outs could not be resumed (%w): Sharded.Repair resumes them", dag, to, err)
	}
	s.mu.Lock()
	s.placed[dag] = to
	delete(s.queues, dag)
	s.mu.Unlock()
	return nil
}

// afterMoveCopy, when set (by a test), is called when a move's copy of a
// DAG has committed, before the old rows are deleted.
var afterMoveCopy atomic.Pointer[func(dag string)]

// errStillRunning is why a move's freeze found a task of the DAG RUNNING
// after the drain (one handed out just before the pause): it drains again.
var errStillRunning = errors.New("durable: a task is RUNNING")

// drain pauses dag's hand-outs and waits until none of its tasks is
// RUNNING, polling every 10 ms, at most the DAG's lease timeout and 10 s
// more, and while ctx allows (see [Sharded.Move]). The pause is committed:
// the caller resumes the DAG if it does not move it.
func (db *DB) drain(ctx context.Context, dag string) error {
	var lease int64
	err := db.pool.QueryRow(ctx, "UPDATE dagq_dags SET paused = true WHERE dag = $1 RETURNING lease_timeout", dag).Scan(&lease)
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoDAG(dag)
	}
	if err != nil {
		return err
	}
	limit := time.Duration(lease) + 10*time.Second
	start := localNow()
	running := -1 // not counted yet
	for {
		last := running
		if err := db.pool.QueryRow(ctx, "SELECT count(*) FROM dagq_tasks WHERE dag = $1 AND state = 'RUNNING'", dag).Scan(&running); err != nil {
			if ctx.Err() != nil && last >= 0 {
				// ctx ended during a count: say what the last one found.
				return fmt.Errorf("%d tasks still RUNNING: %w: nothing moved", last, ctx.Err())
			}
			return err
		}
		if running == 0 {
			return nil
		}
		if localNow().Sub(start) > limit {
			return fmt.Errorf("%d tasks still RUNNING after %v (their workers neither finished them nor expired their leases): nothing moved", running, limit)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d tasks still RUNNING: %w: nothing moved", running, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// setPlacement records in tx, on the directory, that dag lives in shard i.
func setPlacement(ctx context.Context, tx pgx.Tx, dag string, i int) error {
	_, err := tx.Exec(ctx, `INSERT INTO dagq_placement (dag, shard) VALUES ($1, $2)
		ON CONFLICT (dag) DO UPDATE SET shard = excluded.shard`, dag, i)
	return err
}

// placement reads dag's recorded shard: in tx when the directory is the
// shard tx is on (from), else on the directory.
func (s *Sharded) placement(ctx context.Context, tx pgx.Tx, from int, dag string) (int, error) {
	var i int
	var err error
	if from == 0 {
		err = tx.QueryRow(ctx, "SELECT shard FROM dagq_placement WHERE dag = $1", dag).Scan(&i)
	} else {
		err = s.shards[0].pool.QueryRow(ctx, "SELECT shard FROM dagq_placement WHERE dag = $1", dag).Scan(&i)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return from, nil
	}
	if err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	return i, nil
}

// locateFresh is Locate, reading the directory even if the DAG's shard is
// cached: what a Move or a Queue must not take from a stale cache.
func (s *Sharded) locateFresh(ctx context.Context, dag string) (int, error) {
	s.mu.Lock()
	delete(s.placed, dag)
	s.mu.Unlock()
	return s.Locate(ctx, dag)
}

// current returns the shard that holds dag: its placement, else (a DAG
// made before placements were recorded) the first shard that has it. Unlike
// Locate it records nothing, and a DAG no shard has is an error.
func (s *Sharded) current(ctx context.Context, dag string) (int, error) {
	var i int
	err := s.shards[0].pool.QueryRow(ctx, "SELECT shard FROM dagq_placement WHERE dag = $1", dag).Scan(&i)
	if err == nil {
		if i < 0 || i >= len(s.shards) {
			return 0, fmt.Errorf("durable: the DAG %q lives in shard %d, and %d shards were given", dag, i, len(s.shards))
		}
		return i, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("durable: %w", err)
	}
	for k, db := range s.shards {
		ok, err := db.HasDAG(ctx, dag)
		if err != nil {
			return 0, err
		}
		if ok {
			return k, nil
		}
	}
	return 0, errNoDAG(dag)
}
