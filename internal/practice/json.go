package practice

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The progress is read and written with this small JSON codec rather
// than encoding/json: encoding/json adds about 140 KB, gzipped, to the
// playground's WebAssembly, and progress is one small, fixed shape.

// maxJSONDepth bounds the nesting a stored value may have.
const maxJSONDepth = 16

// jsonParser reads one JSON value into nil, bool, float64, string,
// []any or map[string]any.
type jsonParser struct {
	s   string
	i   int
	bad bool
}

// parseJSON reads a JSON text; ok is false for anything that is not one
// JSON value.
func parseJSON(s string) (v any, ok bool) {
	p := &jsonParser{s: s}
	v = p.value(0)
	p.space()
	return v, !p.bad && p.i == len(p.s)
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsonParser) fail() any { p.bad = true; return nil }

func (p *jsonParser) value(depth int) any {
	p.space()
	if p.bad || p.i >= len(p.s) || depth > maxJSONDepth {
		return p.fail()
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m
		}
		for !p.bad {
			p.space()
			k, ok := p.str()
			if !ok {
				return p.fail()
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return p.fail()
			}
			p.i++
			m[k] = p.value(depth + 1)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return m
			}
			return p.fail()
		}
		return nil
	case c == '[':
		p.i++
		var a []any
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return a
		}
		for !p.bad {
			a = append(a, p.value(depth+1))
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return a
			}
			return p.fail()
		}
		return nil
	case c == '"':
		s, ok := p.str()
		if !ok {
			return p.fail()
		}
		return s
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil
	default:
		j := p.i
		for j < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[j]) >= 0 {
			j++
		}
		f, err := strconv.ParseFloat(p.s[p.i:j], 64)
		if err != nil {
			return p.fail()
		}
		p.i = j
		return f
	}
}

// str reads a JSON string at the parser's position.
func (p *jsonParser) str() (string, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false
	}
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); j++ {
		switch c := p.s[j]; c {
		case '"':
			p.i = j + 1
			return b.String(), true
		case '\\':
			if j+1 >= len(p.s) {
				return "", false
			}
			j++
			switch e := p.s[j]; e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if j+4 >= len(p.s) {
					return "", false
				}
				n, err := strconv.ParseUint(p.s[j+1:j+5], 16, 16)
				if err != nil {
					return "", false
				}
				b.WriteRune(rune(n))
				j += 4
			default:
				return "", false
			}
		default:
			if c < 0x20 {
				return "", false
			}
			b.WriteByte(c)
		}
	}
	return "", false
}

// quoteJSON writes a string as JSON.
func quoteJSON(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == utf8.RuneError:
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r&0xffff), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// jsonInt reads a whole number of a parsed object; 0 if it is not one.
func jsonInt(m map[string]any, key string) int {
	f, ok := m[key].(float64)
	if !ok || f != f || f > 1e9 || f < -1e9 {
		return 0
	}
	return int(f)
}
