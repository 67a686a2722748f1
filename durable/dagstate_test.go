package durable_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestStateReadsTheDAGAsData: the READY line and the dead-letter queue in
// their orders, a dead root with its blast radius and error, the tasks it
// blocks with their root, the names awaited, the tasks in arrival order.
func TestStateReadsTheDAGAsData(t *testing.T) {
	t.Parallel()
	db := openDB(t, durable.Options{VirtualClock: true})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	for _, s := range [][]string{{"fetch"}, {"parse", "fetch"}, {"report", "parse", "later"}, {"b"}, {"a"}} {
		if err := q.Submit(bg, s[0], s[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	l, _ := next(t, q) // fetch
	if _, err := q.Fail(bg, l, errors.New("HTTP 503 from 10.0.0.7")); err != nil {
		t.Fatal(err)
	}
	st, err := db.State(bg, q.DAG())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ts := range st.Tasks {
		names = append(names, ts.Name+":"+string(ts.State))
	}
	if got := strings.Join(names, " "); got != "fetch:DEAD parse:BLOCKED report:BLOCKED b:READY a:READY" {
		t.Errorf("tasks %s", got)
	}
	name := func(is []int) string {
		var out []string
		for _, i := range is {
			out = append(out, st.Tasks[i].Name)
		}
		return strings.Join(out, " ")
	}
	if got := name(st.Ready); got != "b a" {
		t.Errorf("READY line %q, want b a", got)
	}
	if got := name(st.DLQ); got != "fetch parse report" {
		t.Errorf("dead-letter queue %q, want fetch parse report", got)
	}
	f := st.Tasks[0]
	if f.Blocks != 2 || f.Error != "HTTP 503 from 10.0.0.7" || f.Reason != "failed after 1 attempt: HTTP 503 from 10.0.0.7" || f.Attempts != 1 {
		t.Errorf("fetch %+v", f)
	}
	if r := st.Tasks[2]; r.Root != "fetch" || len(r.Deps) != 2 || r.Deps[1] != "later" {
		t.Errorf("report %+v, want blocked by fetch, waiting on parse and later", r)
	}
	if len(st.Awaited) != 1 || st.Awaited[0] != "later" || st.Redrive != nil || st.Alerting {
		t.Errorf("awaited %v, redrive %v, alerting %v", st.Awaited, st.Redrive, st.Alerting)
	}
	if _, err := db.State(bg, "no-such-dag"); err == nil || !strings.Contains(err.Error(), "no DAG") {
		t.Errorf("the state of no DAG: %v", err)
	}
}
