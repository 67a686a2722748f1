package render

import (
	"fmt"
	"io"
	"testing"
)

// BenchmarkLayOut lays out each shape at each size; crossings/op counts
// the pairs of edges that cross, drawn straight between box centres (a
// measure of the drawing, comparable with BenchmarkAutog's; counted for
// n ≤ 300 only, as it is quadratic in the edges).
func BenchmarkLayOut(b *testing.B) {
	for _, s := range shapes {
		for _, n := range []int{50, 100, 300, 1000} {
			b.Run(fmt.Sprintf("shape=%s/n=%d", s.name, n), func(b *testing.B) {
				nodes := s.make(n, 1)
				b.ReportAllocs()
				var l Layout
				for b.Loop() {
					l = LayOut(nodes)
				}
				if n <= 300 {
					b.ReportMetric(float64(layoutCrossings(nodes, l)), "crossings/op")
				}
			})
		}
	}
}

// BenchmarkWriteSVG writes the drawing of each shape at 1,000 tasks.
func BenchmarkWriteSVG(b *testing.B) {
	for _, s := range shapes {
		b.Run(fmt.Sprintf("shape=%s/n=1000", s.name), func(b *testing.B) {
			nodes := s.make(1000, 1)
			l := LayOut(nodes)
			b.ReportAllocs()
			for b.Loop() {
				if err := WriteSVG(io.Discard, nodes, l, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
