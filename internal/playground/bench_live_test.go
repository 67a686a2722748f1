package playground_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// bigLive is a script as the live view's export writes it of a DAG of n
// tasks: every task but the first hundred waits on one of them.
func bigLive(n int) string {
	var b strings.Builder
	b.WriteString("attempts 3\n")
	for i := range n {
		b.WriteString("submit t-" + strconv.Itoa(i))
		if i >= 100 {
			b.WriteString(" t-" + strconv.Itoa(i%100))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// bigLiveState is the state of bigLive's DAG as its server sends it: the
// first hundred tasks READY, the others PENDING.
func bigLiveState(n int) string {
	st := playground.LiveState{DAG: "big", Tasks: make([][]string, n), Ready: []int{}, DLQ: []playground.LiveEntry{}}
	for i := range n {
		st.Tasks[i] = []string{"t-" + strconv.Itoa(i), "READY"}
		if i >= 100 {
			st.Tasks[i] = []string{"t-" + strconv.Itoa(i), "PENDING", "t-" + strconv.Itoa(i%100)}
		} else {
			st.Ready = append(st.Ready, i)
		}
	}
	data, err := json.Marshal(st)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// BenchmarkOpenLive measures what a live page did with the export of a
// DAG of 100,000 tasks before it drew: the replay of its script.
func BenchmarkOpenLive(b *testing.B) {
	text := bigLive(100_000)
	b.ReportAllocs()
	for b.Loop() {
		p := playground.New()
		if err := p.OpenLive("big", text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenLiveState measures what a live page does with the state
// of the same DAG before it draws: the JSON's parse and the model built
// from it (Page.OpenLiveState).
func BenchmarkOpenLiveState(b *testing.B) {
	data := bigLiveState(100_000)
	b.ReportAllocs()
	b.ReportMetric(float64(len(data)), "bytes-sent")
	for b.Loop() {
		p := playground.New()
		if err := p.OpenLiveState("big", data); err != nil {
			b.Fatal(err)
		}
	}
}
