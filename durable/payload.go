package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// MaxArgs and MaxResult bound a task's arguments and its result, in bytes:
// they travel with every hand-out (the arguments, and the results of the
// task's dependencies), so they are for what a handler needs to know — an
// id, a URL, a path, a count — not for the data itself, which belongs in
// storage of its own.
const (
	MaxArgs   = 64 << 10
	MaxResult = 64 << 10
)

// ErrTooLarge refuses arguments over MaxArgs or a result over MaxResult.
var ErrTooLarge = errors.New("durable: arguments or result too large (at most 64 KiB)")

// SetResult records r as the result of the task the handler runs: when the
// handler returns nil, the worker writes it with the success, and the
// handlers of the tasks that wait on this one find it in their
// Task.Results under this task's name. A result over MaxResult is refused
// with ErrTooLarge, and nothing is kept. Called again, the last call wins.
func (t Task) SetResult(r []byte) error {
	if len(r) > MaxResult {
		return &core.TaskError{Task: t.Name, Err: ErrTooLarge}
	}
	if t.result != nil {
		*t.result = r
	}
	return nil
}

// SetJSONResult is SetResult of v in JSON.
func (t Task) SetJSONResult(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("durable: %s: the result: %w", t.Name, err)
	}
	return t.SetResult(b)
}

// JSONArgs decodes the task's arguments, JSON, into a T.
func JSONArgs[T any](t Task) (T, error) {
	var v T
	if err := json.Unmarshal(t.Args, &v); err != nil {
		return v, fmt.Errorf("durable: %s: the arguments: %w", t.Name, err)
	}
	return v, nil
}

// JSONResult decodes the result of the dependency dep, JSON, into a T; an
// error if dep left none.
func JSONResult[T any](t Task, dep string) (T, error) {
	var v T
	r, ok := t.Results[dep]
	if !ok {
		return v, fmt.Errorf("durable: %s: no result of %s", t.Name, dep)
	}
	if err := json.Unmarshal(r, &v); err != nil {
		return v, fmt.Errorf("durable: %s: the result of %s: %w", t.Name, dep, err)
	}
	return v, nil
}

// SetResult writes r as the result of l's task, fenced as Complete is (the
// lease must be its task's current one, RUNNING): call it before Complete,
// for what a Worker does with Task.SetResult. A lease that is not current
// changes nothing and is refused with ErrStaleLease; r over MaxResult with
// ErrTooLarge. The result is cleared when the task is handed out again, so
// that one never outlives the attempt that wrote it unless that attempt
// succeeded. One statement.
func (db *DB) SetResult(ctx context.Context, l Lease, r []byte) error {
	if len(r) > MaxResult {
		return &core.TaskError{Task: l.Task, Err: ErrTooLarge}
	}
	tag, err := db.pool.Exec(ctx, `UPDATE dagq_tasks SET result = $5
		WHERE dag = $1 AND name = $2 AND lease = $3 AND attempts = $4 AND state = 'RUNNING'`,
		l.DAG, l.Task, int64(l.ID), l.Attempt, r)
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return &core.TaskError{Task: l.Task, Err: core.ErrStaleLease}
	}
	return nil
}

// Result returns the result the task's successful attempt recorded; false
// if it has none (not SUCCEEDED, or no result set).
func (q *Queue) Result(ctx context.Context, task string) ([]byte, bool, error) {
	var r []byte
	err := q.db.pool.QueryRow(ctx, `SELECT result FROM dagq_tasks WHERE dag = $1 AND name = $2
		AND state = 'SUCCEEDED' AND result IS NOT NULL`, q.dag, task).Scan(&r)
	if err == pgx.ErrNoRows {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("durable: %w", err)
	}
	return r, true, nil
}
