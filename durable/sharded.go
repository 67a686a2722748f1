package durable

import (
	"context"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5"
	"hash/fnv"
	"sync"

	"github.com/dagq/dagq/core"
)

// Sharded spreads DAGs over several databases, the shards: each DAG lives
// in exactly one, chosen by a hash of its id when it is first opened and
// recorded then (see [Sharded.Locate]), so that every operation on a
// DAG (a submit's cycle check, a completion's decrements, a death's
// blocking wave) is one transaction in one database, as on a single [DB].
// A dependency never crosses DAGs, and so never crosses databases: a
// submit that asks for one is refused with a *[CrossDAGError].
//
// The shard of a DAG is Lamping and Veach's jump consistent hash ("A Fast,
// Minimal Memory, Consistent Hash Algorithm", 2014) of the FNV-1a hash of
// its id: O(log n) for n shards, no table, and adding a shard moves only
// the DAGs that the new shard takes, about 1/(n+1) of them, never any
// between the shards that were there. Its methods are safe for concurrent
// use.
type Sharded struct {
	shards []*DB
	mu     sync.Mutex
	queues map[string]*Queue
	placed map[string]int // where DAGs live, as Locate found them
}

// NewSharded returns a Sharded over dbs, in this order: the order is part
// of the routing, so every process must list the same databases in the
// same order.
func NewSharded(dbs ...*DB) (*Sharded, error) {
	if len(dbs) == 0 {
		return nil, errors.New("durable: a sharded queue needs at least one database")
	}
	return &Sharded{shards: dbs, queues: map[string]*Queue{}, placed: map[string]int{}}, nil
}

// OpenSharded opens (and migrates) a DB for each url, with opts, and
// returns them as a Sharded; on an error it closes those it opened.
func OpenSharded(ctx context.Context, urls []string, opts Options) (*Sharded, error) {
	var dbs []*DB
	for i, u := range urls {
		db, err := Open(ctx, u, opts)
		if err != nil {
			for _, d := range dbs {
				d.Close()
			}
			return nil, fmt.Errorf("durable: shard %d: %w", i, err)
		}
		dbs = append(dbs, db)
	}
	return NewSharded(dbs...)
}

// Close closes every shard.
func (s *Sharded) Close() {
	for _, db := range s.shards {
		db.Close()
	}
}

// Shards returns the databases, in routing order.
func (s *Sharded) Shards() []*DB { return s.shards }

// Shard returns the index of the shard a new DAG goes to: the jump hash of
// its id over the shards. Where a DAG lives once opened is recorded (see
// [Sharded.Locate]), and that record, not this hash, routes it after.
func (s *Sharded) Shard(dag string) int {
	h := fnv.New64a()
	h.Write([]byte(dag))
	return jumpHash(h.Sum64(), len(s.shards))
}

// Locate returns the index of the shard that holds dag, as recorded in the
// first shard's dagq_placement (the directory). A DAG not recorded yet is
// recorded where it already is, if a shard holds it (one made before
// placements were recorded), else where Shard puts it: so adding a
// database moves no DAG, and never makes a second copy of one. Of two
// processes that record a DAG at once, the first wins and both get its
// answer. A DAG recorded in a shard beyond those given is an error. Cached
// per Sharded: one statement the first time (a few more to record it),
// none after.
func (s *Sharded) Locate(ctx context.Context, dag string) (int, error) {
	s.mu.Lock()
	i, ok := s.placed[dag]
	s.mu.Unlock()
	if ok {
		return i, nil
	}
	dir := s.shards[0].pool
	err := dir.QueryRow(ctx, "SELECT shard FROM dagq_placement WHERE dag = $1", dag).Scan(&i)
	if errors.Is(err, pgx.ErrNoRows) {
		i = -1
		for k, db := range s.shards {
			ok, err := db.HasDAG(ctx, dag)
			if err != nil {
				return 0, err
			}
			if ok {
				i = k
				break
			}
		}
		if i < 0 {
			i = s.Shard(dag)
		}
		if _, err := dir.Exec(ctx, "INSERT INTO dagq_placement (dag, shard) VALUES ($1, $2) ON CONFLICT (dag) DO NOTHING", dag, i); err != nil {
			return 0, fmt.Errorf("durable: %w", err)
		}
		err = dir.QueryRow(ctx, "SELECT shard FROM dagq_placement WHERE dag = $1", dag).Scan(&i)
	}
	if err != nil {
		return 0, fmt.Errorf("durable: %w", err)
	}
	if i < 0 || i >= len(s.shards) {
		return 0, fmt.Errorf("durable: the DAG %q lives in shard %d, and %d shards were given", dag, i, len(s.shards))
	}
	s.mu.Lock()
	s.placed[dag] = i
	s.mu.Unlock()
	return i, nil
}

// DB returns the database that holds dag (see [Sharded.Locate]).
func (s *Sharded) DB(ctx context.Context, dag string) (*DB, error) {
	i, err := s.Locate(ctx, dag)
	if err != nil {
		return nil, err
	}
	return s.shards[i], nil
}

// Queue opens dag's queue in its shard, as [DB.Queue] does, and keeps the
// handle for Submit. It reads the DAG's placement afresh (one statement),
// so that a DAG another process moved (see [Sharded.Move]) is opened where
// it now lives, never created again where it was.
func (s *Sharded) Queue(ctx context.Context, dag string, cfg core.Config) (*Queue, error) {
	i, err := s.locateFresh(ctx, dag)
	if err != nil {
		return nil, err
	}
	db := s.shards[i]
	q, err := db.Queue(ctx, dag, cfg)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.queues[dag] = q
	s.mu.Unlock()
	return q, nil
}

// TaskRef names a task by its DAG and its name.
type TaskRef struct {
	DAG, Name string
}

func (r TaskRef) String() string { return r.DAG + "/" + r.Name }

// ErrCrossDAG is the identity of a *[CrossDAGError].
var ErrCrossDAG = errors.New("durable: a dependency across DAGs")

// CrossDAGError is a submit refused because the task would wait on a task
// of another DAG, which may live in another database.
type CrossDAGError struct {
	Task, Dep TaskRef
}

func (e *CrossDAGError) Error() string {
	return fmt.Sprintf("durable: %s cannot wait on %s: a dependency across DAGs (%s and %s), which may live in different databases, is not supported: put both tasks in one DAG",
		e.Task, e.Dep, e.Task.DAG, e.Dep.DAG)
}

// Is makes a CrossDAGError match ErrCrossDAG.
func (e *CrossDAGError) Is(target error) bool { return target == ErrCrossDAG }

// Submit submits task, waiting on deps, to its DAG's queue, which Queue
// must have opened. A dependency of another DAG is refused with a
// *CrossDAGError, and nothing changes.
func (s *Sharded) Submit(ctx context.Context, task TaskRef, deps ...TaskRef) error {
	names := make([]string, len(deps))
	for i, d := range deps {
		if d.DAG != task.DAG {
			return &CrossDAGError{Task: task, Dep: d}
		}
		names[i] = d.Name
	}
	s.mu.Lock()
	q := s.queues[task.DAG]
	s.mu.Unlock()
	if q == nil {
		return fmt.Errorf("durable: the DAG %q has not been opened: call Sharded.Queue first", task.DAG)
	}
	return q.Submit(ctx, task.Name, names...)
}

// Complete completes a lease in its DAG's shard (see [DB.Complete]).
func (s *Sharded) Complete(ctx context.Context, l Lease) error {
	return s.onShard(ctx, l.DAG, func(db *DB) error { return db.Complete(ctx, l) })
}

// Fail fails a lease in its DAG's shard (see [DB.Fail]).
func (s *Sharded) Fail(ctx context.Context, l Lease, cause error) (st core.State, err error) {
	err = s.onShard(ctx, l.DAG, func(db *DB) error {
		st, err = db.Fail(ctx, l, cause)
		return err
	})
	return st, err
}

// Heartbeat renews a lease in its DAG's shard (see [DB.Heartbeat]).
func (s *Sharded) Heartbeat(ctx context.Context, l Lease) (next Lease, err error) {
	err = s.onShard(ctx, l.DAG, func(db *DB) error {
		next, err = db.Heartbeat(ctx, l)
		return err
	})
	return next, err
}

// onShard runs f on dag's shard as cached; if f fails and the DAG's
// placement has changed meanwhile (another process moved it, see
// [Sharded.Move]), once more on the shard it now names. One statement
// more, on an error only.
func (s *Sharded) onShard(ctx context.Context, dag string, f func(*DB) error) error {
	i, err := s.Locate(ctx, dag)
	if err != nil {
		return err
	}
	err = f(s.shards[i])
	if err == nil {
		return nil
	}
	if j, ferr := s.locateFresh(ctx, dag); ferr == nil && j != i {
		return f(s.shards[j])
	}
	return err
}

// Run runs a [Worker] on every shard, each with opts (so opts.Workers
// handlers per shard), until ctx is done; then each shuts down gracefully,
// and Run returns when all have, with the first error of any.
func (s *Sharded) Run(ctx context.Context, handler Handler, opts WorkerOptions) error {
	errs := make([]error, len(s.shards))
	var wg sync.WaitGroup
	for i, db := range s.shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = NewWorker(db, handler, opts).Run(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// jumpHash is Lamping and Veach's jump consistent hash: the bucket in
// [0, buckets) of key. Their loop: b is the last bucket the key jumped to,
// j the next one; the key's own generator (a 64-bit linear congruential
// step) decides each jump, so that the key lands in the new bucket of n+1
// with probability 1/(n+1). The complexity is O(log buckets).
func jumpHash(key uint64, buckets int) int {
	b, j := int64(-1), int64(0)
	for j < int64(buckets) {
		b = j
		key = key*2862933555777941757 + 1
		j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((key>>33)+1)))
	}
	return int(b)
}
