package durable

import (
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
)

// BenchmarkExportScript measures the export's script of a DAG of 100,000
// tasks as read from the database (the snapshot), without the reads:
// every task but the first hundred, which are READY, waits on one of them.
func BenchmarkExportScript(b *testing.B) {
	const n = 100_000
	s := &exportSnapshot{dag: "big", cfg: core.Config{MaxAttempts: 3}, byName: make(map[string]*exportTask, n)}
	for i := range n {
		t := &exportTask{name: "t-" + strconv.Itoa(i), state: core.Pending, ord: int64(i + 1), arrival: int64(i + 1)}
		if i < 100 {
			seq := int64(i + 1)
			t.state, t.readySeq = core.Ready, &seq
		} else {
			t.deps = []string{"t-" + strconv.Itoa(i%100)}
		}
		s.tasks = append(s.tasks, t)
		s.byName[t.name] = t
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.script(); err != nil {
			b.Fatal(err)
		}
	}
}
