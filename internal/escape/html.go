package escape

import "strings"

// HTML escapes the five characters that markup gives meaning, <, >, &, '
// and ", as &lt;, &gt;, &amp;, &#39; and &#34;: the text is then safe in an
// element's content and in an attribute's quoted value. It is
// html.EscapeString. O(len(s)); s itself when nothing needs escaping.
func HTML(s string) string {
	i := strings.IndexAny(s, `<>&'"`)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '"':
			b.WriteString("&#34;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
