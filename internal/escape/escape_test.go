package escape_test

import (
	"encoding/xml"
	"html"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/escape"
)

// cases are texts with everything either escaper treats specially.
var cases = []string{
	"", "plain", "a<b>&c", `say "hi" & 'bye'`, "tab\there\nline\rcr",
	"\x00\x01\x1f ctl", "bad \xff\xfe utf-8", "\uFFFD real replacement", "\uFFFE\uFFFF",
	"ok é ☃ 𝄞", "&amp; already", "<svg onload='x'>", "\xed\xa0\x80 surrogate",
}

// FuzzHTML: escape.HTML is html.EscapeString, on every text.
func FuzzHTML(f *testing.F) {
	for _, c := range cases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := escape.HTML(s), html.EscapeString(s); got != want {
			t.Errorf("HTML(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzXMLText: escape.XMLText writes what encoding/xml.EscapeText does,
// on every text.
func FuzzXMLText(f *testing.F) {
	for _, c := range cases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want strings.Builder
		if err := escape.XMLText(&got, s); err != nil {
			t.Fatal(err)
		}
		if err := xml.EscapeText(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("XMLText(%q) wrote %q, want %q", s, got.String(), want.String())
		}
	})
}

// TestHTMLReturnsTheTextItselfWhenNothingNeedsEscaping: no copy is made.
func TestHTMLReturnsTheTextItselfWhenNothingNeedsEscaping(t *testing.T) {
	s := strings.Repeat("fetch-01 ", 10)
	if n := testing.AllocsPerRun(100, func() { _ = escape.HTML(s) }); n != 0 {
		t.Errorf("HTML of a text without markup allocated %v times", n)
	}
}
