package durable

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dagq/dagq/core"
)

// DAGSummary is what an operator sees of a DAG at a glance.
type DAGSummary struct {
	DAG string
	// Counts are its tasks by state; Awaited is how many names its tasks
	// wait on that were never submitted.
	Counts  map[core.State]int
	Awaited int
	// DLQ is the size of its dead-letter queue (DEAD and BLOCKED).
	DLQ int
	// Age is how long ago it was created, on the database's clock;
	// OldestReady how long its oldest READY task has waited (0: none).
	Age, OldestReady time.Duration
	// Alerting is whether its DLQ growth alert (Config.Alert) is raised,
	// as Queue.Alerting reports it.
	Alerting bool
}

// DAGs summarises every DAG of the database, by name. One statement;
// O(tasks) rows read.
func (db *DB) DAGs(ctx context.Context) ([]DAGSummary, error) {
	rows, err := db.pool.Query(ctx, `SELECT d.dag, coalesce(t.state, ''), count(t.name),
			extract(epoch FROM now() - d.created)::float8, d.alert_on,
			coalesce(extract(epoch FROM now() - min(t.changed) FILTER (WHERE t.state = 'READY')), 0)::float8
		FROM dagq_dags d LEFT JOIN dagq_tasks t ON t.dag = d.dag
		GROUP BY d.dag, d.created, d.alert_on, t.state ORDER BY d.dag, t.state`)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	var out []DAGSummary
	var dag, state string
	var n int
	var age, oldest float64
	var alerting bool
	_, err = pgx.ForEachRow(rows, []any{&dag, &state, &n, &age, &alerting, &oldest}, func() error {
		if len(out) == 0 || out[len(out)-1].DAG != dag {
			out = append(out, DAGSummary{DAG: dag, Counts: map[core.State]int{}, Age: seconds(age), Alerting: alerting})
		}
		s := &out[len(out)-1]
		switch core.State(state) {
		case "":
			s.Awaited += n
		case core.Dead, core.Blocked:
			s.DLQ += n
			s.Counts[core.State(state)] = n
		case core.Ready:
			s.OldestReady = seconds(oldest)
			s.Counts[core.Ready] = n
		default:
			s.Counts[core.State(state)] = n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	for i := range out {
		if out[i].Counts[""] == 0 {
			delete(out[i].Counts, "")
		}
	}
	return out, nil
}

// seconds is a number of seconds as a Duration, to the millisecond.
func seconds(s float64) time.Duration { return time.Duration(s*1000) * time.Millisecond }

// TaskView is a task as an operator sees it: its state and, while it
// waits, the dependencies it waits on (those not SUCCEEDED).
type TaskView struct {
	Name    string
	State   core.State
	WaitsOn []string
}

// Tasks returns the DAG's tasks in the order they arrived, with what each
// waits on, and the names its tasks wait on that were never submitted
// (awaited), by name. One statement; O(tasks + edges) rows.
func (q *Queue) Tasks(ctx context.Context) (tasks []TaskView, awaited []string, err error) {
	rows, err := q.db.pool.Query(ctx, `SELECT t.name, t.state,
			coalesce((SELECT array_agg(d.name ORDER BY d.name) FROM unnest(t.deps) AS dep(n)
				JOIN dagq_tasks d ON d.dag = t.dag AND d.name = dep.n WHERE d.state <> 'SUCCEEDED'), '{}')
		FROM dagq_tasks t WHERE t.dag = $1 ORDER BY t.arrival NULLS LAST, t.name`, q.dag)
	if err != nil {
		return nil, nil, fmt.Errorf("durable: %w", err)
	}
	var tv TaskView
	var state string
	_, err = pgx.ForEachRow(rows, []any{&tv.Name, &state, &tv.WaitsOn}, func() error {
		if state == "" {
			awaited = append(awaited, tv.Name)
			return nil
		}
		tv.State = core.State(state)
		tasks = append(tasks, tv)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("durable: %w", err)
	}
	return tasks, awaited, nil
}
