package playground

import (
	"math"
	"strconv"
	"strings"
)

// Gutter is the part of the editor's line numbers that is drawn: lines
// From…To of N, with the space above and below them that keeps the
// gutter as tall as the text, so that it scrolls with the editor. Only the
// lines near the view are numbered, so that a script of 15,000 lines costs
// the page a few hundred numbers to lay out, not 15,000.
type Gutter struct {
	N, From, To  int     // the script's lines, and the first and last numbered (1-based; To < From when N is 0)
	Above, Below float64 // pixels above From and below To
}

// GutterMargin is how many lines beyond each edge of the view the gutter
// numbers, so that scrolling redraws it seldom.
const GutterMargin = 150

// GutterFor returns the gutter for an editor of n lines, each lineH pixels
// tall, scrolled to top and h pixels high, and whether drawn (the gutter
// on the page) must be redrawn to be it: only when the count changed or
// the view came within sight of drawn's edge. The cost is O(1).
func GutterFor(n int, top, h, lineH float64, drawn Gutter) (Gutter, bool) {
	first := int(math.Floor(top/lineH)) + 1
	last := int(math.Ceil((top+h)/lineH)) + 1
	first, last = max(1, min(first, n)), max(1, min(last, n))
	if drawn.N == n && drawn.From <= first && last <= drawn.To {
		return drawn, false
	}
	g := Gutter{N: n, From: max(1, first-GutterMargin), To: min(n, last+GutterMargin)}
	g.Above = float64(g.From-1) * lineH
	g.Below = float64(n-g.To) * lineH
	return g, true
}

// ViewAbove is the length of script, in lines, from which the editor
// shows the script as a view of the lines in sight (the lines of a
// [Gutter]) until someone edits it: a browser's text field lays out every
// line of its text, 15,000 lines in the better part of a second, while the
// view costs the lines in sight.
const ViewAbove = 2000

// Lines returns the text of lines g.From…g.To of text (whose lines start at
// starts, as [LineStarts] gives them), each ending in a newline.
func (g Gutter) Lines(text string, starts []int) string {
	if g.From < 1 || g.To < g.From || g.From > len(starts) {
		return ""
	}
	end := len(text)
	if g.To < len(starts) {
		end = starts[g.To]
	}
	out := text[starts[g.From-1]:end]
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// LineStarts returns where each line of text starts, in bytes: the first
// at 0, the others after each newline. The cost is O(len(text)).
func LineStarts(text string) []int {
	starts := make([]int, 1, strings.Count(text, "\n")+1)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Text returns the gutter's numbers, a line each.
func (g Gutter) Text() string {
	var b strings.Builder
	for i := g.From; i <= g.To; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// Digits returns how many digits the widest line number has, so that the
// gutter keeps one width whichever lines it numbers.
func (g Gutter) Digits() int { return len(strconv.Itoa(max(g.N, 1))) }
