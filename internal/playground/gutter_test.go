package playground_test

import (
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

func TestGutterFor(t *testing.T) {
	t.Parallel()
	const lineH, h = 20.0, 400.0 // 20 lines in view
	m := playground.GutterMargin
	t.Run("NumbersTheViewAndAMarginOnly", func(t *testing.T) {
		g, redraw := playground.GutterFor(15000, 1000*lineH, h, lineH, playground.Gutter{})
		if !redraw {
			t.Fatal("a gutter not drawn yet must be drawn")
		}
		if g.From != 1001-m || g.To != 1021+m {
			t.Fatalf("lines %d…%d, want %d…%d", g.From, g.To, 1001-m, 1021+m)
		}
		if g.Above != float64(g.From-1)*lineH || g.Below != float64(15000-g.To)*lineH {
			t.Fatalf("above %v below %v do not keep the gutter as tall as 15,000 lines", g.Above, g.Below)
		}
		if lines := strings.Count(g.Text(), "\n"); lines != g.To-g.From+1 {
			t.Fatalf("Text has %d lines, want %d", lines, g.To-g.From+1)
		}
		if g.Digits() != 5 {
			t.Fatalf("Digits = %d, want 5", g.Digits())
		}
	})
	t.Run("ScrollingWithinTheMarginDrawsNothing", func(t *testing.T) {
		g, _ := playground.GutterFor(15000, 1000*lineH, h, lineH, playground.Gutter{})
		if _, redraw := playground.GutterFor(15000, 1100*lineH, h, lineH, g); redraw {
			t.Fatal("a scroll of 100 lines within a margin of 150 redrew the gutter")
		}
		if g2, redraw := playground.GutterFor(15000, 1200*lineH, h, lineH, g); !redraw || g2.To < 1221 {
			t.Fatalf("a scroll past the margin: redraw %v, lines %d…%d", redraw, g2.From, g2.To)
		}
	})
	t.Run("AnotherLineCountRedraws", func(t *testing.T) {
		g, _ := playground.GutterFor(30, 0, h, lineH, playground.Gutter{})
		if g.From != 1 || g.To != 30 || g.Above != 0 || g.Below != 0 {
			t.Fatalf("a short script: %+v, want every line", g)
		}
		if g2, redraw := playground.GutterFor(31, 0, h, lineH, g); !redraw || g2.To != 31 {
			t.Fatalf("a line added: redraw %v, to %d", redraw, g2.To)
		}
	})
	t.Run("ScrolledPastTheEnd", func(t *testing.T) {
		g, _ := playground.GutterFor(10, 5000, h, lineH, playground.Gutter{})
		if g.From != 1 || g.To != 10 {
			t.Fatalf("lines %d…%d, want 1…10", g.From, g.To)
		}
	})
}

func TestGutterLines(t *testing.T) {
	t.Parallel()
	text := "submit a\nsubmit b a\n\nnext\ncomplete a"
	starts := playground.LineStarts(text)
	if len(starts) != 5 {
		t.Fatalf("LineStarts: %d lines, want 5", len(starts))
	}
	tests := []struct {
		name     string
		from, to int
		want     string
	}{
		{"TheFirstLine", 1, 1, "submit a\n"},
		{"AnEmptyLineKept", 2, 4, "submit b a\n\nnext\n"},
		{"TheLastLineGetsItsNewline", 5, 5, "complete a\n"},
		{"All", 1, 5, text + "\n"},
		{"NoneOutOfRange", 9, 12, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := playground.Gutter{N: 5, From: tt.from, To: tt.to}
			if got := g.Lines(text, starts); got != tt.want {
				t.Fatalf("Lines(%d…%d) = %q, want %q", tt.from, tt.to, got, tt.want)
			}
		})
	}
	// The view numbers exactly the lines it shows.
	long := strings.Repeat("next\n", 9000) + "next"
	g, _ := playground.GutterFor(9001, 4000*20, 400, 20, playground.Gutter{})
	if got := strings.Count(g.Lines(long, playground.LineStarts(long)), "\n"); got != g.To-g.From+1 {
		t.Fatalf("the view of lines %d…%d has %d lines", g.From, g.To, got)
	}
}
