package durable_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestTheHandOutKeepsOnePlan reads the plans of dagq_next's statements as
// auto_explain logs them, on tables never analyzed, from the ninth call of
// a connection (plpgsql plans the first five with their values): the fetch
// must be planned once and for all, a generic plan whose parameters stay
// parameters (planning it at every call took most of a fetch's time), and
// must find every row it reads by an index on its whole key or by its
// ctid, with no sequential or bitmap scan, whatever the statistics say.
func TestTheHandOutKeepsOnePlan(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, durable.Options{})
	for d := range 20 {
		q, err := db.Queue(ctx, fmt.Sprint("dag", d), core.Config{MaxAttempts: 3})
		if err != nil {
			t.Fatal(err)
		}
		tasks := randomDAG(100) // edges and dependencies to read
		for i := range 40 {
			tasks = append(tasks, durable.NewTask{Name: fmt.Sprint("root", i)}) // READY
		}
		if err := q.SubmitAll(ctx, tasks); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := pgx.ParseConfig(db.Pool().Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	var plans []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { plans = append(plans, n.Message) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, s := range []string{"LOAD 'auto_explain'", "SET auto_explain.log_min_duration = 0",
		"SET auto_explain.log_nested_statements = on", "SET auto_explain.log_verbose = on",
		"SET client_min_messages = log"} {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 9 {
		for _, dag := range []any{nil, "dag3"} {
			plans = plans[:0]
			rows, err := conn.Query(ctx, "SELECT * FROM dagq_next($1, $2, $3, $4, $5, $6)", 2, nil, false, "h", dag, true)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Fatalf("call %d (dag %v): nothing handed out", i+1, dag)
			}
			if i < 8 {
				continue
			}
			nested := 0
			for _, p := range plans {
				if strings.Contains(p, "FROM dagq_next(") {
					continue
				}
				nested++
				for _, bad := range planFaults(p) {
					t.Errorf("dag %v: %s in\n%s", dag, bad, p)
				}
			}
			if nested != 2 {
				t.Errorf("dag %v: %d plans of dagq_next's statements logged, want 2 (the pick and the update):\n%s",
					dag, nested, strings.Join(plans, "\n"))
			}
		}
	}
}

// planFaults are what is wrong with a generic, key-based plan as
// auto_explain logs it (VERBOSE): a scan that is not by an index on its
// whole key or by ctid, a parameter's value in place of the parameter.
func planFaults(plan string) []string {
	// The conditions each index may be scanned with: all of its key.
	keys := map[string][]string{
		"dagq_tasks_pkey":      {".dag = ", ".name = "},
		"dagq_tasks_results":   {".dag = ", ".name = "},
		"dagq_edges_pkey":      {".dag = ", ".dep = "},
		"dagq_dags_pkey":       {".dag = "},
		"dagq_tasks_dag_ready": {".dag = $"},
		"dagq_tasks_ready":     nil, // the whole line, in order, up to the limit
		"dagq_dags_paused":     nil, // the paused DAGs
	}
	var faults []string
	// A custom plan has the parameters' values in place of the
	// parameters: the DAG's name in the pick, the time and the clock
	// (folded away) in the update.
	if strings.Contains(plan, "'dag3'") || strings.Contains(plan, "UPDATE dagq_tasks") && !strings.Contains(plan, "COALESCE($2, CASE WHEN $3 THEN") {
		faults = append(faults, "a custom plan (a parameter's value in place of the parameter)")
	}
	lines := strings.Split(plan, "\n")
	for i, line := range lines {
		switch {
		case strings.Contains(line, "Seq Scan"), strings.Contains(line, "Bitmap"):
			faults = append(faults, strings.TrimSpace(line))
		case strings.Contains(line, "Tid Scan"):
			if !strings.Contains(detail(lines, i), "TID Cond: ") {
				faults = append(faults, "a Tid Scan without a TID Cond")
			}
		case strings.Contains(line, " Scan using "):
			index := strings.Fields(line[strings.Index(line, " Scan using ")+len(" Scan using "):])[0]
			want, ok := keys[index]
			if !ok {
				faults = append(faults, "a scan of "+index)
				continue
			}
			cond := ""
			for _, l := range strings.Split(detail(lines, i), "\n") {
				if strings.Contains(l, "Index Cond: ") {
					cond = l
				}
			}
			for _, w := range want {
				if !strings.Contains(cond, w) {
					faults = append(faults, fmt.Sprintf("%s scanned without %q in its Index Cond (%q)", index, w, strings.TrimSpace(cond)))
				}
			}
		}
	}
	return faults
}

// detail is the lines that describe the plan node on line i: those after
// it up to the next node.
func detail(lines []string, i int) string {
	var out []string
	for _, l := range lines[i+1:] {
		if strings.Contains(l, "->") || strings.Contains(l, "SubPlan") || strings.Contains(l, "InitPlan") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
