package durable

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ReadyChannel is the channel on which the database announces that tasks
// became READY: a trigger on dagq_tasks (migration 0002_notify_ready)
// NOTIFYs it, with an empty payload, in every transaction that makes a task
// READY, whatever made it so: a submit, a completion that frees
// dependents, a retry, a due time that fell, a redrive. Postgres folds the
// notifications of one transaction into one and delivers it at commit, so
// a listener never wakes before the task can be seen.
const ReadyChannel = "dagq_ready"

// TimerChannel is the channel on which the database announces that a task
// was DELAYED under a backoff (a trigger, migration 0006_notify_timer):
// a worker that hears it looks for the next due time again, so that the
// retry runs when it falls due rather than at the next Poll.
const TimerChannel = "dagq_timer"

// listener holds one connection that LISTENs on [ReadyChannel] and
// [TimerChannel] and wakes whoever waits on its channels: an idle worker's
// fetch loop, and its timer. A wake is a
// hint, never a promise: the task may be taken by another worker first,
// and a notification sent while the connection was down is lost, so the
// listener also wakes its waiter each time it (re)connects, and the worker
// polls as well.
//
// The connection comes from the pool and is hijacked, so it no longer
// counts against the pool's size. If it breaks (Postgres restarted), the
// listener connects again, waiting 10 ms, then twice as long each time, up
// to a second.
type listener struct {
	pool *pgxpool.Pool
	// wake holds at most one pending wake-up for tasks READY; timer at
	// most one for a due time set.
	wake, timer chan struct{}
}

func newListener(pool *pgxpool.Pool) *listener {
	return &listener{pool: pool, wake: make(chan struct{}, 1), timer: make(chan struct{}, 1)}
}

// signal leaves a wake-up on c, unless one is pending already.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// run listens until ctx is done, reconnecting whenever the connection
// breaks; onError hears of every failure.
func (l *listener) run(ctx context.Context, onError func(error)) {
	backoff := 10 * time.Millisecond
	for ctx.Err() == nil {
		err := l.listen(ctx, func() { backoff = 10 * time.Millisecond })
		if ctx.Err() != nil {
			return
		}
		onError(err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// listen holds one connection until it breaks or ctx is done: LISTEN, a
// wake-up for what may have been missed before, then a wake-up for every
// notification. connected is called once LISTEN has succeeded.
func (l *listener) listen(ctx context.Context, connected func()) error {
	c, err := l.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	conn := c.Hijack()
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		conn.Close(ctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+ReadyChannel+"; LISTEN "+TimerChannel); err != nil {
		return err
	}
	connected()
	signal(l.wake)
	signal(l.timer)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel == TimerChannel {
			signal(l.timer)
		} else {
			signal(l.wake)
		}
	}
}
