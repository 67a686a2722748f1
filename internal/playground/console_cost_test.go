package playground_test

import (
	"runtime"
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// TestConsoleCopiesNoBoard: the console is drawn at every step, 20 times a
// second playing at 16×; with nothing dead it costs a few bytes, not a
// copy of the board of every task (wide-1000's is some 100 KB).
func TestConsoleCopiesNoBoard(t *testing.T) {
	p := playground.New()
	if _, _, err := p.Open("?scenario=wide-1000", ""); err != nil {
		t.Fatal(err)
	}
	s := p.Session()
	p.Seek(s.Len() / 2)
	p.Console() // warm
	var before, after runtime.MemStats
	const n = 20
	runtime.ReadMemStats(&before)
	for range n {
		p.Console()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 2048 {
		t.Errorf("Console allocates %d bytes a call at step %d of wide-1000, want at most 2 KB", per, s.Cursor())
	}
}
