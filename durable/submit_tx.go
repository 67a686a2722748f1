package durable

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// NewTask is a task to submit: its name, the names it waits on, and its
// arguments, which its handler reads as Task.Args (JSON by convention: see
// [JSONArgs]; at most [MaxArgs] bytes; nil for none).
type NewTask struct {
	Name string
	Deps []string
	Args []byte
}

// SubmitTx is Submit inside the caller's transaction tx: the task exists if
// and only if tx commits, so that enqueueing is atomic with the
// application's own rows. It runs in a savepoint of tx: a refusal
// (ErrDuplicate, a *core.CycleError, ErrInvalidName) or an error rolls
// back only what the submit did, and tx goes on. The DAG's advisory lock is
// held until tx ends, so other submits to the DAG wait for it: keep tx
// short. Workers are told of a task READY when tx commits. Its events are
// not delivered (the handle cannot know whether tx commits); the statements
// are Submit's, plus the savepoint's.
func (q *Queue) SubmitTx(ctx context.Context, tx pgx.Tx, task string, deps ...string) error {
	return q.SubmitAllTx(ctx, tx, []NewTask{{Name: task, Deps: deps}})
}

// SubmitAll submits tasks in order in one transaction, as that many
// Submits would one after another, all or nothing: the first refusal (a
// duplicate, a cycle, a name) or error rolls every one of them back and is
// returned, naming its task. Events are delivered once it has committed; a
// refusal delivers its EventRejected only.
//
// A batch that is a new part of the DAG — a whole DAG enqueued at once:
// none of its names known yet, even as a dependency, none of its
// dependencies DEAD or BLOCKED — is written with one cycle check for the
// whole batch in seven statements (the lock, the DAG's row, one read, four
// writes from arrays), whatever its size. Any other batch costs what its
// Submits would, one after another.
func (q *Queue) SubmitAll(ctx context.Context, tasks []NewTask) error {
	if err := checkNames(tasks); err != nil {
		return err
	}
	return q.run(ctx, func(t *txn) error { return t.submitAll(tasks) })
}

// SubmitAllTx is SubmitAll inside the caller's transaction tx, in one
// savepoint (see SubmitTx): every task exists if and only if tx commits,
// and a refusal rolls back all of them but not tx.
func (q *Queue) SubmitAllTx(ctx context.Context, tx pgx.Tx, tasks []NewTask) error {
	if err := checkNames(tasks); err != nil {
		return err
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	t := &txn{db: q.db, ctx: ctx, tx: sp, dag: q.dag}
	err = t.submitAll(tasks)
	if err == nil {
		err = t.store()
	}
	if err != nil {
		if rerr := sp.Rollback(ctx); rerr != nil {
			return fmt.Errorf("durable: %w (and rolling the submit back: %v)", err, rerr)
		}
		var r refusal
		if errors.As(err, &r) {
			return r.err
		}
		return fmt.Errorf("durable: %w", err)
	}
	if err := sp.Commit(ctx); err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	return nil
}

// checkNames refuses, before any statement, a name over core.MaxName and
// arguments over MaxArgs.
func checkNames(tasks []NewTask) error {
	for _, nt := range tasks {
		if err := core.CheckNames(nt.Name, nt.Deps); errors.Is(err, core.ErrNameTooLong) {
			return err
		}
		if len(nt.Args) > MaxArgs {
			return &core.TaskError{Task: nt.Name, Err: ErrTooLarge}
		}
	}
	return nil
}
