package playground

import (
	"errors"
	"strings"

	"github.com/dagq/dagq/core/scenario"
)

// EditorOffset returns where line and col (1-based, as in a
// [scenario.SyntaxError]) fall in text, counted in UTF-16 code units as a
// browser's text field counts them: the offset to select. A column past
// the end of its line gives the line's end; a line past the end, the
// text's end.
//
// The cost is O(len(text)).
func EditorOffset(text string, line, col int) int {
	off := 0
	for i, l := range strings.Split(text, "\n") {
		if i+1 < line {
			off += utf16Len(l) + 1
			continue
		}
		c := 1
		for _, r := range l {
			if c >= col {
				break
			}
			off += utf16Width(r)
			c++
		}
		return off
	}
	return utf16Len(text)
}

// Selection is a span of the editor to select, in UTF-16 code units, and
// the line it is on (1-based), to scroll to.
type Selection struct {
	Start, End int
	Line       int
}

// ErrorSelection returns the span of text an error of the script points
// at: the word at the line and column of a [*scenario.SyntaxError] or a
// [*scenario.ExpectError], or one character if there is no word there.
// ok is false for an error that points nowhere.
func ErrorSelection(text string, err error) (sel Selection, ok bool) {
	var line, col int
	var se *scenario.SyntaxError
	var ee *scenario.ExpectError
	switch {
	case errors.As(err, &se):
		line, col = se.Line, se.Col
	case errors.As(err, &ee):
		line, col = ee.Line, ee.Col
	default:
		return Selection{}, false
	}
	start := EditorOffset(text, line, col)
	end := start + 1
	if lines := strings.Split(text, "\n"); line >= 1 && line <= len(lines) {
		runes := []rune(lines[line-1])
		c := col - 1
		for c >= 0 && c < len(runes) && runes[c] != ' ' && runes[c] != '\t' {
			c++
		}
		if c > col-1 {
			end = EditorOffset(text, line, c+1)
		}
	}
	return Selection{Start: start, End: end, Line: line}, true
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Width(r)
	}
	return n
}

func utf16Width(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
