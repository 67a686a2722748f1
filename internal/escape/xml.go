package escape

import (
	"io"
	"unicode/utf8"
)

// XMLText writes s to w escaped for XML's text and quoted attribute values:
// ", ', &, < and > as &#34;, &#39;, &amp;, &lt; and &gt;, tab, line feed
// and carriage return as &#x9;, &#xA; and &#xD;, and every character XML
// cannot hold (other control characters, surrogates, U+FFFE and U+FFFF,
// and each byte of s that is not UTF-8) as U+FFFD. It is
// encoding/xml.EscapeText, and returns w's first error. O(len(s)).
func XMLText(w io.Writer, s string) error {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if inXML(r) && (r != utf8.RuneError || width != 1) {
				i += width
				continue
			}
			esc = "\uFFFD"
		}
		if _, err := io.WriteString(w, s[last:i]); err != nil {
			return err
		}
		if _, err := io.WriteString(w, esc); err != nil {
			return err
		}
		i += width
		last = i
	}
	_, err := io.WriteString(w, s[last:])
	return err
}

// inXML says whether XML 1.0 can hold r (its production Char).
func inXML(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
