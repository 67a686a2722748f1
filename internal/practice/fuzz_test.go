package practice

import (
	"slices"
	"testing"
)

// FuzzParseProgress: whatever the browser has stored, reading it never
// fails, gives counts that can be, and reads back the same once written.
// The seed corpus is in testdata/fuzz/FuzzParseProgress.
func FuzzParseProgress(f *testing.F) {
	f.Add(`{"levels":{"L5":{"right":3,"answered":4,"streak":1,"best":2,"missed":{"6":1},"done":["book/diamond-redrive"]}}}`)
	f.Add(`{"levels":{"L4":{"right":1e300,"answered":-0,"missed":{"1":"x"},"done":[null,"\u00e9"]}}}`)
	f.Fuzz(func(t *testing.T, data string) {
		p := ParseProgress(data)
		for l, lp := range p.Levels {
			if !slices.Contains(Levels(), l) || lp.Right < 0 || lp.Right > lp.Answered || lp.Streak > lp.Best || lp.Best > lp.Right {
				t.Fatalf("%q: %s %+v", data, l, lp)
			}
		}
		again := ParseProgress(p.Encode())
		if again.Encode() != p.Encode() {
			t.Fatalf("%q: reads back as %s, not %s", data, again.Encode(), p.Encode())
		}
	})
}

// FuzzParsePath: a typed cycle never holds an empty name or a separator.
func FuzzParsePath(f *testing.F) {
	f.Add("c → a → b → c")
	f.Add("a->b, c")
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range ParsePath(s) {
			if name == "" || slices.Contains([]string{"→", "->", ","}, name) {
				t.Fatalf("%q: name %q", s, name)
			}
		}
	})
}
