package durable

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dagq/dagq/core"
)

// Task is what a [Handler] is given: the task handed out, by its DAG and
// name, with its lease.
type Task struct {
	// DAG and Name name the task.
	DAG, Name string
	// Attempt is 1 on the first run, 2 on the first retry, and so on.
	Attempt int
	// Lease is the lease the worker holds for it: the worker heartbeats it
	// while the handler runs and settles it with the handler's result.
	Lease Lease
	// Args are the arguments it was submitted with (NewTask.Args; nil for
	// none): see JSONArgs.
	Args []byte
	// Results are the results of its dependencies that recorded one
	// (Task.SetResult), by dependency name: see JSONResult.
	Results map[string][]byte

	result *[]byte // where SetResult keeps the handler's result
}

// Handler runs one task. Returning nil completes it; an error fails it
// (a retry while attempts are left, else DEAD in the dead-letter queue), and
// an error wrapped in core.Permanent sends it to the dead-letter queue at
// once. ctx is cancelled when the worker loses the lease (a heartbeat was
// refused: the task has been failed, and another worker may run it) or when
// the worker's shutdown grace runs out; its cause ([context.Cause]) says
// which.
type Handler func(ctx context.Context, t Task) error

// ErrLeaseLost is the cause of a handler's context when its lease is no
// longer current: a heartbeat was refused, or the deadline passed.
var ErrLeaseLost = errors.New("durable: the lease was lost")

// ErrWorkerStopped is the error a task is failed with when the worker shut
// down and its handler had not returned within the grace period: the task
// goes back to the line (or waits out its backoff) for another worker, and
// that attempt counts, as a lease that expired does.
var ErrWorkerStopped = errors.New("durable: the worker stopped before the handler returned")

// WorkerOptions configures a [Worker]; the zero value is usable.
type WorkerOptions struct {
	// Workers is how many handlers run at once, each on a goroutine of its
	// own; default 1.
	Workers int
	// Batch is the most tasks one fetch takes (fewer when fewer handlers
	// are free); default Workers, at most 1,000.
	Batch int
	// FetchCooldown is how long, after a fetch, the worker waits for half
	// a batch of handlers to be free before it fetches for fewer, so that
	// handlers freed one by one are filled by one fetch; default 1 ms.
	FetchCooldown time.Duration
	// Poll is how often an idle worker looks for tasks without being woken
	// by a notification, and runs the maintenance pass ([DB.Tick]) and
	// looks for the next timer without being told of one; default 1 s.
	// Due retries and expiries do not wait for it: the worker runs the
	// maintenance pass when the next timer it knows of falls due, and it
	// learns of a retry's due time at once (a notification on
	// [TimerChannel]), of another process's lease deadline at the next
	// Poll at the latest.
	Poll time.Duration
	// Heartbeat is how often a lease is renewed while its handler runs;
	// default a third of its lease timeout (10 s under the default 30 s
	// lease). Leases that never expire (the virtual clock's) are not
	// renewed.
	Heartbeat time.Duration
	// Grace is how long Run waits, once its context is done, for running
	// handlers to return; then it cancels their contexts and fails their
	// tasks with ErrWorkerStopped so that others can take them. Default
	// 10 s.
	Grace time.Duration
	// OnError hears of what the worker cannot return: a fetch, heartbeat
	// or settlement that failed, a completion the queue refused. Default:
	// logged with slog at level Warn.
	OnError func(error)
	// ID names the worker as the holder of the leases it is handed, which
	// an operator reads in a task's detail ([DB.TaskDetail]) and in its
	// failed attempts; at most [MaxHolder] bytes. Default: host:pid.
	ID string
}

// WorkerStats counts what a [Worker] did.
type WorkerStats struct {
	// Fetched is how many tasks it was handed out.
	Fetched int64
	// Completed and Failed are the handler results the queue accepted.
	Completed, Failed int64
	// Refused are the results the queue refused: the lease had expired,
	// or been superseded, by the time the handler returned.
	Refused int64
	// Released are the tasks failed with ErrWorkerStopped at shutdown.
	Released int64
}

// Worker runs a [Handler] on the tasks of every DAG of a [DB]: one fetch
// loop hands tasks to up to Workers handler goroutines.
//
// The fetch loop asks for as many tasks as there are free handlers (at
// most Batch) in one statement ([DB.NextBatch], SKIP LOCKED, so workers in
// many processes never wait for one another). When it gets fewer than it
// asked for, the queue has nothing more READY, and the loop sleeps until a
// notification on [ReadyChannel] wakes it, or Poll passes (also running
// the maintenance pass, [DB.Tick]). While a handler runs its lease is
// renewed every Heartbeat. Its result settles the lease: a success is
// committed by the worker's completer, which gathers successes into one
// statement and transaction per DAG (the same rules and events as
// [DB.Complete] one after another, fenced alike; a lease it cannot match is
// completed alone, to be told why): while other handlers still run, a
// batch waits up to 5 ms for their successes to share its commit, unless
// the worker is short of READY tasks and the batch may free some. A
// failure is settled by [DB.Fail]. Both are retried while the error is
// transient (the database cannot be reached, the connection was lost, a
// serialization failure or a deadlock; fencing by lease id and attempt makes
// a retry safe: one that already committed is refused). Any other error is
// reported to OnError and the task fails with it (a failure that cannot be
// stored as it is fails with the package's own message instead), so that no
// task stays RUNNING because its result could not be written.
//
// Shutdown (Run's context done) is graceful: the loop stops fetching,
// running handlers have Grace to return, and the tasks of those that have
// not are failed with ErrWorkerStopped and their contexts cancelled.
type Worker struct {
	db      *DB
	handler Handler
	opts    WorkerOptions
	stats   struct{ fetched, completed, failed, refused, released atomic.Int64 }
}

// NewWorker returns a worker that runs handler on db's tasks; start it with
// Run.
func NewWorker(db *DB, handler Handler, opts WorkerOptions) *Worker {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.Batch <= 0 {
		opts.Batch = min(opts.Workers, 1000)
	}
	if opts.FetchCooldown <= 0 {
		opts.FetchCooldown = time.Millisecond
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	if opts.Grace <= 0 {
		opts.Grace = 10 * time.Second
	}
	if opts.OnError == nil {
		opts.OnError = func(err error) { slog.Warn("dagq worker", "err", err) }
	}
	if opts.ID == "" {
		opts.ID = hostPID()
	}
	opts.ID = holderName(opts.ID)
	return &Worker{db: db, handler: handler, opts: opts}
}

// Stats returns what the worker has done so far.
func (w *Worker) Stats() WorkerStats {
	return WorkerStats{
		Fetched:   w.stats.fetched.Load(),
		Completed: w.stats.completed.Load(),
		Failed:    w.stats.failed.Load(),
		Refused:   w.stats.refused.Load(),
		Released:  w.stats.released.Load(),
	}
}

// inHand is one task in a handler's hands.
type inHand struct {
	task Task
	// dependents is whether other tasks wait on it: while the worker is
	// starved, its success commits without waiting for others to share
	// the commit.
	dependents bool
	// ttl is how long its lease runs, on the database's clock, from the
	// hand-out; 0 if it never expires.
	ttl    time.Duration
	cancel context.CancelCauseFunc
	// settled is set, under the gate, by whoever settles the lease first:
	// the handler's result, or the release at shutdown.
	settled bool
	// released is set, under the worker's lock, once the handler is free.
	released bool
}

// gate decides who settles a lease, and lets shutdown wait for the
// settlements under way.
type gate struct {
	mu       sync.Mutex
	closed   bool // shutdown has released what was left: no more claims
	settling sync.WaitGroup
}

// claim reports whether the caller settles r; if so it must call
// g.settling.Done() once it has.
func (g *gate) claim(r *inHand) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.settled || g.closed {
		return false
	}
	r.settled = true
	g.settling.Add(1)
	return true
}

// Run fetches and runs tasks until ctx is done, then shuts down gracefully
// (see [Worker]) and returns nil. It returns at once with an error only if
// the worker cannot start. A Worker runs once.
func (w *Worker) Run(ctx context.Context) error {
	if w.handler == nil {
		return errors.New("durable: a worker needs a handler")
	}
	// Handlers, heartbeats and settlements outlive ctx: they end with the
	// grace period, not with the fetch loop.
	life, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()

	l := newListener(w.db.pool)
	listening := make(chan struct{})
	go func() {
		defer close(listening)
		l.run(life, w.opts.OnError)
	}()
	defer func() { stop(); <-listening }()

	g := &gate{}
	var (
		mu      sync.Mutex
		active  = map[uint64]*inHand{}
		wg      sync.WaitGroup
		freed   = make(chan struct{}, 1)
		free    = w.opts.Workers
		lastErr time.Duration
	)
	idle := func() int {
		mu.Lock()
		defer mu.Unlock()
		return free
	}
	// starved is whether the last fetch found fewer READY tasks than it
	// asked for.
	var starved atomic.Bool
	comp := newCompleter(life, w.db, func() int { return w.opts.Workers - idle() }, starved.Load)
	// release frees r's handler, once: as soon as the handler returns, so
	// that a new task can start while r's result commits.
	release := func(r *inHand) {
		mu.Lock()
		if r.released {
			mu.Unlock()
			return
		}
		r.released = true
		delete(active, r.task.Lease.ID)
		free++
		mu.Unlock()
		select {
		case freed <- struct{}{}:
		default:
		}
	}

	poll := time.NewTicker(w.opts.Poll)
	defer poll.Stop()
	// due fires when the next timer the worker knows of falls due.
	due := time.NewTimer(time.Hour)
	defer due.Stop()
	tick := func() { w.tick(ctx, due) }
	tick()
	// Fetch when at least half a batch of handlers is free, or when one is
	// and the cooldown has passed since the last fetch: one fetch fills
	// many handlers under load, and a lone handler never waits.
	enough := max(1, w.opts.Batch/2)
	var fetchedAt time.Time
	for ctx.Err() == nil {
		for f := idle(); f < enough && ctx.Err() == nil; f = idle() {
			var cool <-chan time.Time
			if f > 0 {
				d := w.opts.FetchCooldown - localNow().Sub(fetchedAt)
				if d <= 0 {
					break
				}
				cool = time.After(d)
			}
			select {
			case <-ctx.Done():
			case <-freed:
			case <-cool:
			}
		}
		if ctx.Err() != nil {
			break
		}
		n := min(idle(), w.opts.Batch)
		fetchedAt = localNow()
		// The hand-out reads the dependencies' results in the same
		// statement: a task never runs without them.
		hs, err := w.db.nextBatch(ctx, n, w.opts.ID, true)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			w.opts.OnError(fmt.Errorf("durable: worker: fetch: %w", err))
			lastErr = min(max(2*lastErr, 10*time.Millisecond), w.opts.Poll)
			select {
			case <-ctx.Done():
			case <-time.After(lastErr):
			}
			continue
		}
		lastErr = 0
		w.stats.fetched.Add(int64(len(hs)))
		for _, h := range hs {
			lease := h.lease
			hctx, cancel := context.WithCancelCause(life)
			r := &inHand{task: Task{DAG: lease.DAG, Name: lease.Task, Attempt: lease.Attempt, Lease: lease,
				Args: h.args, Results: h.results, result: new([]byte)},
				dependents: h.dependents, cancel: cancel}
			if lease.Deadline != 0 {
				r.ttl = max(lease.Deadline-h.now, time.Millisecond)
			}
			mu.Lock()
			active[lease.ID] = r
			free--
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer release(r)
				w.handle(hctx, life, r, g, comp, func() { release(r) })
			}()
		}
		starved.Store(len(hs) < n)
		if len(hs) < n {
			// Nothing more READY: sleep until told, or the poll.
			select {
			case <-ctx.Done():
			case <-l.wake:
			case <-poll.C:
				tick()
			case <-due.C:
				tick()
			case <-l.timer:
				w.schedule(ctx, due)
			}
			continue
		}
		select {
		case <-poll.C:
			tick()
		case <-due.C:
			tick()
		case <-l.timer:
			w.schedule(ctx, due)
		default:
		}
	}

	// Shutdown: no more fetching; the handlers have Grace to return.
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(w.opts.Grace):
		// What is left is released: failed, for others to take.
		g.mu.Lock()
		g.closed = true
		mu.Lock()
		var left []*inHand
		for _, r := range active {
			if !r.settled {
				r.settled = true
				g.settling.Add(1)
				left = append(left, r)
			}
		}
		mu.Unlock()
		g.mu.Unlock()
		for _, r := range left {
			r.cancel(ErrWorkerStopped)
			if ok, _ := w.settle(life, r, func(ctx context.Context) error {
				_, err := w.db.Fail(ctx, r.task.Lease, ErrWorkerStopped)
				return err
			}); ok {
				w.stats.released.Add(1)
			}
			g.settling.Done()
		}
		// Settlements that could not reach the database within another
		// grace are given up: the leases expire.
		settled := make(chan struct{})
		go func() { g.settling.Wait(); close(settled) }()
		select {
		case <-settled:
		case <-time.After(w.opts.Grace):
			stop()
			<-settled
		}
	}
	comp.close()
	return nil
}

// tick runs the maintenance pass (expired leases, due retries), then sets
// due for the next timer.
func (w *Worker) tick(ctx context.Context, due *time.Timer) {
	if _, err := w.db.Tick(ctx); err != nil && ctx.Err() == nil {
		w.opts.OnError(fmt.Errorf("durable: worker: tick: %w", err))
	}
	w.schedule(ctx, due)
}

// schedule sets due to fire when the next timer of the database falls due
// (see [DB.Tick]), on the worker's monotonic clock: the database says how
// long until then, so the clocks of the two machines are never compared.
// Without a timer, due waits for the next Poll; a timer already due (one
// the pass could not fire) is looked at again after 10 ms, not in a loop.
func (w *Worker) schedule(ctx context.Context, due *time.Timer) {
	in, ok, err := w.db.nextDue(ctx)
	if err != nil {
		if ctx.Err() == nil {
			w.opts.OnError(fmt.Errorf("durable: worker: %w", err))
		}
		return
	}
	switch {
	case !ok:
		in = w.opts.Poll
	case in <= 0:
		in = 10 * time.Millisecond
	}
	due.Reset(in)
}

// handle runs the handler on r's task, heartbeating while it runs, and
// settles the lease with its result: a success through the completer, in
// a batch with others, a failure alone. The handler is freed for the next
// task as soon as it returns, before its result commits.
func (w *Worker) handle(hctx, life context.Context, r *inHand, g *gate, comp *completer, free func()) {
	defer r.cancel(nil)
	beat := w.heartbeat(hctx, r)
	began := localNow()
	err := w.run(hctx, r.task)
	w.db.metrics.ran(r.task.DAG, localNow().Sub(began), err)
	beat()
	claimed := g.claim(r)
	free()
	if !claimed {
		return // released at shutdown
	}
	defer g.settling.Done()
	fail := func(cause error) func(context.Context) error {
		return func(ctx context.Context) error {
			_, e := w.db.Fail(ctx, r.task.Lease, cause)
			return e
		}
	}
	if err == nil {
		ok, lost := w.settle(life, r, func(ctx context.Context) error {
			if res := *r.task.result; res != nil {
				if err := w.db.SetResult(ctx, r.task.Lease, res); err != nil {
					return err
				}
			}
			return comp.complete(r.task.Lease, r.dependents)
		})
		if ok {
			w.stats.completed.Add(1)
		}
		if lost == nil {
			return
		}
		// The success could not be written: the task fails with why.
		err = fmt.Errorf("durable: the task's success could not be stored: %w", lost)
	}
	ok, lost := w.settle(life, r, fail(err))
	if lost != nil {
		// The failure could not be written as it was: fail the task with a
		// message of the package's own, which any text column stores.
		ok, _ = w.settle(life, r, fail(fmt.Errorf("durable: the task's failure could not be stored: %s", storable(lost.Error()))))
	}
	if ok {
		w.stats.failed.Add(1)
	}
}

// run calls the handler, turning a panic into a failure.
func (w *Worker) run(ctx context.Context, t Task) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("durable: the handler panicked: %v", p)
		}
	}()
	return w.handler(ctx, t)
}

// settle runs a completion or failure of r's lease, again while it fails
// with a transient error (the database cannot be reached, the connection
// was lost, a serialization failure or a deadlock: see transient), waiting
// 10 ms, doubling up to a second, until it is accepted or refused, or life
// ends. It reports whether the queue accepted it; a refusal is counted and
// reported to OnError. Any other error is reported to OnError and returned
// as lost: the statement could not be written and never will be, and the
// caller settles the lease otherwise (see handle). A retry is safe: if an
// earlier try committed after all, the lease is no longer current and the
// retry is refused.
func (w *Worker) settle(life context.Context, r *inHand, op func(context.Context) error) (ok bool, lost error) {
	wait := 10 * time.Millisecond
	for {
		err := op(life)
		if err == nil {
			return true, nil
		}
		var te *core.TaskError
		if errors.As(err, &te) {
			w.stats.refused.Add(1)
			w.opts.OnError(fmt.Errorf("durable: worker: %s@%d: %w", r.task.Name, r.task.Attempt, err))
			return false, nil
		}
		w.opts.OnError(fmt.Errorf("durable: worker: %s@%d: %w", r.task.Name, r.task.Attempt, err))
		if life.Err() != nil {
			return false, nil
		}
		if !transient(err) {
			return false, err
		}
		select {
		case <-life.Done():
			return false, nil
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// heartbeat renews r's lease while its handler runs, and cancels the
// handler's context with ErrLeaseLost when the queue refuses a renewal. It
// returns the function that stops it.
//
// The lease's deadline is on the database's clock, which the worker never
// compares with its own: it renews every third of the lease's time to run
// (its deadline less the hand-out's time, both the database's), and counts
// a lease as lost when that long has passed, on its own monotonic clock,
// since the last renewal it sent that was accepted.
func (w *Worker) heartbeat(hctx context.Context, r *inHand) (stop func()) {
	if r.ttl == 0 {
		return func() {}
	}
	every := w.opts.Heartbeat
	if every <= 0 {
		every = max(r.ttl/3, time.Millisecond)
	}
	renewed := localNow()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		lease := r.task.Lease
		for {
			select {
			case <-done:
				return
			case <-hctx.Done():
				return
			case <-t.C:
			}
			sent := localNow()
			next, err := w.db.Heartbeat(hctx, lease)
			var te *core.TaskError
			switch {
			case err == nil:
				lease, renewed = next, sent
			case errors.As(err, &te):
				r.cancel(fmt.Errorf("%w: %w", ErrLeaseLost, err))
				return
			case hctx.Err() == nil:
				w.opts.OnError(fmt.Errorf("durable: worker: heartbeat %s@%d: %w", r.task.Name, r.task.Attempt, err))
				if localNow().Sub(renewed) > r.ttl {
					r.cancel(fmt.Errorf("%w: its deadline passed", ErrLeaseLost))
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
