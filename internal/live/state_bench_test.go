package live_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/live"
)

// BenchmarkStateOf measures what the server does with the state of a DAG
// of 100,000 tasks once read (durable.DB.State): StateOf and its JSON,
// every task but the first hundred (READY) waiting on one of them. It is
// what replaced the export of the DAG as a script (durable's
// BenchmarkExportScript) for the live view.
func BenchmarkStateOf(b *testing.B) {
	const n = 100_000
	st := durable.DAGState{DAG: "big", Config: core.Config{MaxAttempts: 3}, Tasks: make([]durable.TaskState, n)}
	for i := range n {
		t := durable.TaskState{Name: "t-" + strconv.Itoa(i), State: core.Pending}
		if i < 100 {
			t.State = core.Ready
			st.Ready = append(st.Ready, i)
		} else {
			t.Deps = []string{"t-" + strconv.Itoa(i%100)}
		}
		st.Tasks[i] = t
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(live.StateOf(st)); err != nil {
			b.Fatal(err)
		}
	}
}
