package durable

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/dagq/dagq/core"
)

// metrics are a DB's instruments, made from Options.MeterProvider; a nil
// *metrics (no provider) records nothing and costs a nil check.
//
//   - dagq.tasks (gauge, by dag and state): the tasks in each state, read
//     from the database when the reader collects;
//   - dagq.dlq.size (gauge, by dag): DEAD and BLOCKED tasks, likewise;
//   - dagq.handout.latency (histogram, s, by dag): how long a task was
//     READY before it was handed out, on the database's clock;
//   - dagq.handler.duration (histogram, s, by dag and outcome): how long a
//     Worker's handler ran, outcome "ok" or "error";
//   - dagq.completions, dagq.failures (counters, by dag; failures also by
//     outcome: READY, DELAYED or DEAD), dagq.expiries (counter, by dag):
//     what committed, counted from the events of the operations.
type metrics struct {
	handout     metric.Float64Histogram
	handler     metric.Float64Histogram
	completions metric.Int64Counter
	failures    metric.Int64Counter
	expiries    metric.Int64Counter
}

// newMetrics makes db's instruments on mp, and registers the callback of
// its gauges; nil without a provider.
func newMetrics(db *DB, mp metric.MeterProvider) (*metrics, error) {
	if mp == nil {
		return nil, nil
	}
	m := mp.Meter("github.com/dagq/dagq/durable")
	var out metrics
	var err error
	if out.handout, err = m.Float64Histogram("dagq.handout.latency", metric.WithUnit("s"),
		metric.WithDescription("How long a task was READY before it was handed out")); err != nil {
		return nil, err
	}
	if out.handler, err = m.Float64Histogram("dagq.handler.duration", metric.WithUnit("s"),
		metric.WithDescription("How long a worker's handler ran")); err != nil {
		return nil, err
	}
	if out.completions, err = m.Int64Counter("dagq.completions", metric.WithDescription("Tasks completed")); err != nil {
		return nil, err
	}
	if out.failures, err = m.Int64Counter("dagq.failures", metric.WithDescription("Failed attempts, by what followed")); err != nil {
		return nil, err
	}
	if out.expiries, err = m.Int64Counter("dagq.expiries", metric.WithDescription("Leases that expired")); err != nil {
		return nil, err
	}
	tasks, err := m.Int64ObservableGauge("dagq.tasks", metric.WithDescription("Tasks by state"))
	if err != nil {
		return nil, err
	}
	dlq, err := m.Int64ObservableGauge("dagq.dlq.size", metric.WithDescription("Tasks in the dead-letter queue"))
	if err != nil {
		return nil, err
	}
	if _, err := m.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		rows, err := db.pool.Query(ctx, `SELECT dag, state, count(*) FROM dagq_tasks WHERE state <> '' GROUP BY dag, state`)
		if err != nil {
			return err
		}
		defer rows.Close()
		sizes := map[string]int64{}
		for rows.Next() {
			var dag, state string
			var n int64
			if err := rows.Scan(&dag, &state, &n); err != nil {
				return err
			}
			o.ObserveInt64(tasks, n, metric.WithAttributes(attribute.String("dag", dag), attribute.String("state", state)))
			if s := core.State(state); s == core.Dead || s == core.Blocked {
				sizes[dag] += n
			} else if _, ok := sizes[dag]; !ok {
				sizes[dag] = 0
			}
		}
		for dag, n := range sizes {
			o.ObserveInt64(dlq, n, metric.WithAttributes(attribute.String("dag", dag)))
		}
		return rows.Err()
	}, tasks, dlq); err != nil {
		return nil, err
	}
	return &out, nil
}

// committed counts what the events of a committed operation on dag say:
// completions, failures, expiries.
func (m *metrics) committed(dag string, events []core.Event) {
	if m == nil {
		return
	}
	ctx := context.Background()
	for _, e := range events {
		switch e.Kind {
		case core.EventSucceeded:
			m.completions.Add(ctx, 1, metric.WithAttributes(attribute.String("dag", dag)))
		case core.EventRetried, core.EventDelayed, core.EventDead:
			if e.From == core.Running {
				m.failures.Add(ctx, 1, metric.WithAttributes(attribute.String("dag", dag), attribute.String("outcome", string(e.To))))
			}
		case core.EventExpired:
			m.expiries.Add(ctx, 1, metric.WithAttributes(attribute.String("dag", dag)))
		}
	}
}

// handedOut records a task's wait in the READY line.
func (m *metrics) handedOut(dag string, waited time.Duration) {
	if m == nil {
		return
	}
	m.handout.Record(context.Background(), waited.Seconds(), metric.WithAttributes(attribute.String("dag", dag)))
}

// ran records a handler's run.
func (m *metrics) ran(dag string, d time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.handler.Record(context.Background(), d.Seconds(), metric.WithAttributes(attribute.String("dag", dag), attribute.String("outcome", outcome)))
}
