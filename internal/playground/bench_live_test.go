package playground_test

import (
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

// BenchmarkOpenLive measures what a live page does with the export of a
// DAG of 100,000 tasks before it draws: the replay of its script.
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
