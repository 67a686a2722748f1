package playground_test

import (
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// BenchmarkStep measures what the page asks of a Page for one step forward
// on wide-1000, in the middle of its run: the decisions behind a drawing.
func BenchmarkStep(b *testing.B) {
	p := playground.New()
	p.Open("?scenario=wide-1000", "")
	s := p.Session()
	mid := s.Len() / 2
	for b.Loop() {
		p.Seek(mid)
		p.Seek(mid + 1)
		k := mid + 1
		reasons := p.Reasons()
		for _, t := range p.Changed(mid, k) {
			p.Task(t, reasons[t])
		}
		p.Banner(k, true)
		p.Visited(k)
		p.Focus(k)
		p.ReadyLine(false)
		p.DLQ(false)
		p.Log()
		p.Visits()
		p.Counts()
		p.Timeline()
		p.Caption()
		p.Address()
		p.FullAddress()
		s.GraphAt(playground.StepEnd)
	}
}
