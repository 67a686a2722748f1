package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fingerprint normalises an error text so that errors with one root cause
// fall together: the parts that vary from one occurrence to the next are
// replaced by placeholders, the words that say what went wrong are kept.
// The rules apply in this order, each to what the ones before left:
//
//  1. Quoted values — '…', "…" and `…` — become '*', "*" and `*`. A single
//     quote opens a value only after a character that is not a letter or a
//     digit, so "can't" stays as it is.
//  2. UUIDs (8-4-4-4-12 hex digits) become <uuid>.
//  3. Network addresses, with their port if any, become <addr>: IPv4
//     (10.0.3.7, 10.0.3.7:5432), IPv6 in brackets ([fe80::1]:443) or bare
//     with "::" or all eight groups (2001:db8::7, ::1).
//  4. Hexadecimal numbers written 0x… become <hex>.
//  5. Durations in Go's notation — 250ms, 1.5s, 30s, 2m, 1h30m, 10µs —
//     become <dur>.
//  6. Long tokens that mix letters and digits (8 characters or more of
//     [A-Za-z0-9], with both kinds: request ids, hashes, hex ids such as
//     8f3a9c2b) become <id>. Shorter ones (S3, v2, sha256, e2e) stay.
//  7. Numbers standing alone (not glued to a letter, like the 3 of S3)
//     become <n>, decimals included (1.5), except an HTTP status: a number
//     from 100 to 599 right after "HTTP", "status" or "code" (any case,
//     then spaces, ':', '=' or '/') stays, so HTTP 503 and HTTP 404 are two
//     causes, not one. So does a decimal of three characters there, as
//     the 1.1 of HTTP/1.1.
//  8. Runs of spaces become one space, and the text is trimmed.
//
// So "HTTP 503 from 10.0.3.7:8080 after 250ms" and "HTTP 503 from
// 10.0.9.1:8080 after 1.2s" both read "HTTP 503 from <addr> after <dur>",
// while "HTTP 500 …" stays apart. The cost is O(len(text)).
//
// Each rule replaces what the regular expression in its doc comment
// matches, as package regexp's ReplaceAllString would: the leftmost match
// first, alternatives and repetitions tried in Perl's order, matches that
// do not overlap, \b the ASCII word boundary ([0-9A-Za-z_] on one side
// only) read in the whole text. Fingerprints are stored and compared
// across processes: a rule that matched a little differently would part
// errors that fell together yesterday.
func Fingerprint(text string) string {
	s := text
	s = replaceSingleQuoted(s)
	s = replaceDoubleQuoted(s)
	s = replaceBackQuoted(s)
	s = replaceUUIDs(s)
	s = replaceBracketedIPv6(s)
	s = replaceIPv4(s)
	s = replaceIPv6(s)
	s = replaceHex(s)
	s = replaceDurations(s)
	s = replaceIDs(s)
	s = replaceNumbers(s)
	return collapseSpaces(s)
}

// textEdit builds what a rule leaves of a text s: the parts between the
// matches it replaces, copied as they are. Matches are replaced in order
// and never overlap. It allocates at the first replacement only, so a rule
// that finds nothing returns s itself.
type textEdit struct {
	b    strings.Builder
	last int // s[:last] is written or replaced; 0 until a (non-empty) match is
}

// replace replaces s[i:j], a match at or after the end of the last one.
func (e *textEdit) replace(s string, i, j int, repl string) {
	if e.last == 0 {
		e.b.Grow(len(s) + len(repl))
	}
	e.b.WriteString(s[e.last:i])
	e.b.WriteString(repl)
	e.last = j
}

// result is s with the matches replaced.
func (e *textEdit) result(s string) string {
	if e.last == 0 {
		return s
	}
	e.b.WriteString(s[e.last:])
	return e.b.String()
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isLetter(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool    { return isDigit(c) || isLetter(c) }
func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isWordByte reports whether c is a word character of \b: [0-9A-Za-z_].
// A byte of a multi-byte or invalid UTF-8 sequence is not one, as the
// rune it belongs to is not.
func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// startsWord reports whether \b holds at s[i], a word character: the
// character before it, if any, is not one.
func startsWord(s string, i int) bool { return i == 0 || !isWordByte(s[i-1]) }

// endsWord reports whether \b holds at i, after a word character: the
// text ends there or the character there is not one.
func endsWord(s string, i int) bool { return i == len(s) || !isWordByte(s[i]) }

// runLen returns the length of the run of bytes in class at s[i:], but at
// most limit: a scanner that asks whether a run is longer than n digits
// reads n+1 of them, not the whole run.
func runLen(s string, i, limit int, class func(byte) bool) int {
	n := 0
	for n < limit && i+n < len(s) && class(s[i+n]) {
		n++
	}
	return n
}

// replaceSingleQuoted is rule 1 for '…': it replaces the matches of
// (^|[^A-Za-z0-9])'[^'\n]*' with $1'*'. The character before the opening
// quote is part of the match, so it lies at or after the end of the last
// match: the closing quote of one value does not open the next one, and
//
//	'a''b'  becomes  '*''b'
//
// A quote with no closing quote before the next newline opens nothing,
// and neither does any quote before that newline, so each byte is read
// once or twice: the cost is O(len(s)).
func replaceSingleQuoted(s string) string {
	var e textEdit
	end := 0 // the end of the last match: where the search resumed
	for q := 0; ; {
		k := strings.IndexByte(s[q:], '\'')
		if k < 0 {
			break
		}
		q += k
		// q opens a value after ^ or after a character that is not a
		// letter or a digit (a non-ASCII byte belongs to such a rune),
		// and that character is not in the last match.
		if q > 0 && (q == end || isAlnum(s[q-1])) {
			q++
			continue
		}
		k = strings.IndexAny(s[q+1:], "'\n")
		if k < 0 {
			break
		}
		c := q + 1 + k
		if s[c] == '\n' {
			q = c + 1
			continue
		}
		e.replace(s, q, c+1, "'*'") // $1 stays as it is, before q
		end, q = c+1, c+1
	}
	return e.result(s)
}

// replaceDoubleQuoted is rule 1 for "…": it replaces the matches of
// "(?:[^"\\\n]|\\.)*" with "*". From an opening quote the text reads as
// escapes (\ and any character but a newline) and single characters, the
// first unescaped quote closing the value; a newline, a \ before a newline
// or the end of the text first means no value opens there. Nor does one
// open at any quote read on the way, which were all escaped: from the
// character after each, the text reads the same to the same end. So the
// search goes on from where the reading stopped, and the cost is
// O(len(s)).
func replaceDoubleQuoted(s string) string {
	var e textEdit
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			break
		}
		a := i + k
		j, closed := a+1, false
	read:
		for j < len(s) {
			switch s[j] {
			case '"':
				closed = true
				j++
				break read
			case '\n':
				break read
			case '\\':
				// An escape takes the next character whole; the bytes
				// after a multi-byte one's first are never " \ or \n,
				// so taking one byte reads the same.
				if j+1 == len(s) || s[j+1] == '\n' {
					break read
				}
				j += 2
			default:
				j++
			}
		}
		if closed {
			e.replace(s, a, j, `"*"`)
		}
		i = j
	}
	return e.result(s)
}

// replaceBackQuoted is rule 1 for `…`: it replaces the matches of
// `[^`\n]*` with `*`. A back quote with no other before the next newline
// opens nothing, nor does any before that newline: the cost is
// O(len(s)).
func replaceBackQuoted(s string) string {
	var e textEdit
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		a := i + k
		k = strings.IndexAny(s[a+1:], "`\n")
		if k < 0 {
			break
		}
		c := a + 1 + k
		if s[c] == '`' {
			e.replace(s, a, c+1, "`*`")
		}
		i = c + 1
	}
	return e.result(s)
}

// uuidLen is the length of a UUID: 8-4-4-4-12 hex digits.
const uuidLen = 36

// replaceUUIDs is rule 2: it replaces the matches of
// \b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b
// with <uuid>. A match has its first '-' 8 bytes in, so the search looks
// for each '-' and reads at most the 36 bytes around it: the cost is
// O(len(s)).
func replaceUUIDs(s string) string {
	var e textEdit
	end := 0
	for d := 8; d < len(s); {
		k := strings.IndexByte(s[d:], '-')
		if k < 0 {
			break
		}
		d += k
		if a := d - 8; a >= end && isUUIDAt(s, a) {
			e.replace(s, a, a+uuidLen, "<uuid>")
			end = a + uuidLen
			d = end + 8
			continue
		}
		d++
	}
	return e.result(s)
}

// isUUIDAt reports whether the UUID pattern, \b on both sides, matches at
// s[a:].
func isUUIDAt(s string, a int) bool {
	if a+uuidLen > len(s) || !startsWord(s, a) || !endsWord(s, a+uuidLen) {
		return false
	}
	for i := range uuidLen {
		switch i {
		case 8, 13, 18, 23:
			if s[a+i] != '-' {
				return false
			}
		default:
			if !isHexDigit(s[a+i]) {
				return false
			}
		}
	}
	return true
}

// replaceBracketedIPv6 is rule 3 for IPv6 in brackets: it replaces the
// matches of \[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(?:%[0-9A-Za-z]+)?\](?::[0-9]+)?
// with <addr>. After the '[', the run of [0-9a-fA-F:.] must hold a ':'
// and be followed by ']' or by a zone, '%' and letters or digits, then
// ']'; a port, ':' and digits, is taken if there is one. No '[' lies in
// what is read from a '[' that opens nothing: the cost is O(len(s)).
func replaceBracketedIPv6(s string) string {
	var e textEdit
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '[')
		if k < 0 {
			break
		}
		a := i + k
		if j, ok := bracketedIPv6End(s, a); ok {
			e.replace(s, a, j, "<addr>")
			i = j
		} else {
			i = a + 1
		}
	}
	return e.result(s)
}

// bracketedIPv6End returns the end of the match of rule 3's bracketed
// IPv6 at s[a], a '[', and whether there is one.
func bracketedIPv6End(s string, a int) (int, bool) {
	j, colon := a+1, false
	for j < len(s) && (isHexDigit(s[j]) || s[j] == ':' || s[j] == '.') {
		colon = colon || s[j] == ':'
		j++
	}
	if !colon || j == len(s) {
		return 0, false
	}
	if s[j] == '%' {
		z := j + 1
		for z < len(s) && isAlnum(s[z]) {
			z++
		}
		if z == j+1 {
			return 0, false
		}
		j = z
	}
	if j == len(s) || s[j] != ']' {
		return 0, false
	}
	j++
	if j+1 < len(s) && s[j] == ':' && isDigit(s[j+1]) {
		j += 2
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	return j, true
}

// replaceIPv4 is rule 3 for IPv4: it replaces the matches of
// \b[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(?::[0-9]{1,5})?\b with
// <addr>. Each group is a whole run of 1 to 3 digits (fewer would leave a
// digit where a '.' or \b must be). The port is taken when its run has 1
// to 5 digits and ends a word; else the address ends before the ':', so
// "1.2.3.4:80x" leaves ":80x". Each start reads at most 22 bytes: the
// cost is O(len(s)).
func replaceIPv4(s string) string {
	if strings.IndexByte(s, '.') < 0 {
		return s
	}
	var e textEdit
	for a := 0; a < len(s); a++ {
		if !isDigit(s[a]) || !startsWord(s, a) {
			continue
		}
		if j, ok := ipv4End(s, a); ok {
			e.replace(s, a, j, "<addr>")
			a = j - 1
		}
	}
	return e.result(s)
}

// ipv4End returns the end of the match of rule 3's IPv4 at s[a], a digit
// that starts a word, and whether there is one.
func ipv4End(s string, a int) (int, bool) {
	j := a
	for g := range 4 {
		if g > 0 {
			if j == len(s) || s[j] != '.' {
				return 0, false
			}
			j++
		}
		n := runLen(s, j, 4, isDigit)
		if n == 0 || n > 3 {
			return 0, false
		}
		j += n
	}
	if j+1 < len(s) && s[j] == ':' {
		if n := runLen(s, j+1, 6, isDigit); n >= 1 && n <= 5 && endsWord(s, j+1+n) {
			return j + 1 + n, true
		}
	}
	return j, endsWord(s, j)
}

// replaceIPv6 is rule 3 for bare IPv6: it replaces the matches of
//
//	\b(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}\b                          (A)
//	|(?:\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?::
//	 (?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*\b)?                         (B)
//
// with <addr>. A match starts at a hex digit that starts a word (A, or B
// with its head) or at "::" (B without one). Its groups are whole runs of
// 1 to 4 hex digits, one ':' apart. A is tried first: eight groups and an
// end of word. B's head is groups up to a "::"; B's tail is the longest
// run of groups after it that ends a word, so "::1:2g" leaves ":2g", or
// none, so "::12345" leaves "12345".
//
// Each start reads a bounded number of bytes, but for the tail of B,
// which its match takes: where A fails, the groups from that start number
// at most eight (a ninth would follow the eighth with a ':', and A would
// match), so B's head reads at most eight groups. The cost is
// O(len(s)).
func replaceIPv6(s string) string {
	if strings.IndexByte(s, ':') < 0 {
		return s
	}
	var e textEdit
	for a := 0; a < len(s); a++ {
		var j int
		var ok bool
		switch {
		case s[a] == ':':
			if a+1 < len(s) && s[a+1] == ':' {
				j, ok = ipv6TailEnd(s, a+2), true
			}
		case isHexDigit(s[a]) && startsWord(s, a):
			if j, ok = ipv6FullEnd(s, a); !ok {
				if j, ok = ipv6HeadEnd(s, a); ok {
					j = ipv6TailEnd(s, j+2)
				}
			}
		}
		if ok {
			e.replace(s, a, j, "<addr>")
			a = j - 1
		}
	}
	return e.result(s)
}

// ipv6Group returns the length of the hex run at s[i:] if it is 1 to 4
// long (a whole group), else 0.
func ipv6Group(s string, i int) int {
	if n := runLen(s, i, 5, isHexDigit); n <= 4 {
		return n
	}
	return 0
}

// ipv6FullEnd returns the end of alternative A of rule 3's bare IPv6 at
// s[a], and whether it matches there: eight groups, then an end of word.
func ipv6FullEnd(s string, a int) (int, bool) {
	j := a
	for g := range 8 {
		if g > 0 {
			if j == len(s) || s[j] != ':' {
				return 0, false
			}
			j++
		}
		n := ipv6Group(s, j)
		if n == 0 {
			return 0, false
		}
		j += n
	}
	return j, endsWord(s, j)
}

// ipv6HeadEnd returns where the "::" after the head of alternative B of
// rule 3's bare IPv6 at s[a] is, and whether there is one: groups one ':'
// apart, the last followed by "::".
func ipv6HeadEnd(s string, a int) (int, bool) {
	j := a
	for {
		n := ipv6Group(s, j)
		if n == 0 {
			return 0, false
		}
		j += n
		switch {
		case j+1 < len(s) && s[j] == ':' && s[j+1] == ':':
			return j, true
		case j < len(s) && s[j] == ':':
			j++
		default:
			return 0, false
		}
	}
}

// ipv6TailEnd returns the end of alternative B of rule 3's bare IPv6
// whose "::" ends at t: the end of the last of the groups from t, one ':'
// apart, that ends a word (all but the last are followed by a ':'), or t.
func ipv6TailEnd(s string, t int) int {
	end := t
	for j := t; ; j++ {
		n := ipv6Group(s, j)
		if n == 0 {
			return end
		}
		j += n
		if endsWord(s, j) {
			end = j
		}
		if j+1 >= len(s) || s[j] != ':' || !isHexDigit(s[j+1]) {
			return end
		}
	}
}

// replaceHex is rule 4: it replaces the matches of \b0[xX][0-9a-fA-F]+\b
// with <hex>: the hex digits are the whole run, which must end a word. No
// match starts inside what a failed start read: the cost is O(len(s)).
func replaceHex(s string) string {
	var e textEdit
	for a := 0; ; {
		k := strings.IndexByte(s[a:], '0')
		if k < 0 {
			break
		}
		a += k
		if !startsWord(s, a) || a+2 >= len(s) || s[a+1] != 'x' && s[a+1] != 'X' {
			a++
			continue
		}
		j := a + 2
		for j < len(s) && isHexDigit(s[j]) {
			j++
		}
		if j > a+2 && endsWord(s, j) {
			e.replace(s, a, j, "<hex>")
		}
		a = j
	}
	return e.result(s)
}

// replaceDurations is rule 5: it finds the matches of
// \b(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h))+ and replaces those that
// no letter, digit or '_' follows with <dur>: "30s" in "after 30s." but
// not the "5m" of "5min", whose match is skipped, not searched again. A
// start that matches nothing is followed by no other within its whole
// digits: the cost is O(len(s)).
func replaceDurations(s string) string {
	var e textEdit
	for a := 0; a < len(s); a++ {
		if !isDigit(s[a]) || !startsWord(s, a) {
			continue
		}
		j := a
		for {
			n := runLen(s, j, len(s), isDigit)
			if n == 0 {
				break
			}
			k := j + n
			if k+1 < len(s) && s[k] == '.' && isDigit(s[k+1]) {
				k += 1 + runLen(s, k+1, len(s), isDigit)
			}
			u := durationUnitLen(s[k:])
			if u == 0 {
				break
			}
			j = k + u
		}
		if j == a {
			a += runLen(s, a, len(s), isDigit) - 1
			continue
		}
		if j == len(s) || !isAlnum(s[j]) && s[j] != '_' {
			e.replace(s, a, j, "<dur>")
		}
		a = j - 1
	}
	return e.result(s)
}

// durationUnitLen returns the length of the unit that s starts with, the
// first of ns, us, µs, ms, s, m and h that matches, or 0 for none.
func durationUnitLen(s string) int {
	for _, u := range [...]string{"ns", "us", "µs", "ms", "s", "m", "h"} {
		if strings.HasPrefix(s, u) {
			return len(u)
		}
	}
	return 0
}

// replaceIDs is rule 6: of the runs of [A-Za-z0-9], those of 8 bytes or
// more with a letter and a digit become <id>. The cost is O(len(s)).
func replaceIDs(s string) string {
	var e textEdit
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			i++
			continue
		}
		j, digit, letter := i, false, false
		for ; j < len(s) && isAlnum(s[j]); j++ {
			digit = digit || isDigit(s[j])
			letter = letter || isLetter(s[j])
		}
		if j-i >= 8 && digit && letter {
			e.replace(s, i, j, "<id>")
		}
		i = j
	}
	return e.result(s)
}

// replaceNumbers is rule 7: it replaces the matches of
// \b[0-9]+(?:\.[0-9]+)?\b with <n>, but for a match of three bytes
// starting with 1 to 5 (an HTTP status, or a decimal such as 1.5) that
// follows HTTP, status or code (see followsStatusWord). The fraction is
// taken when it ends a word; else the number ends before the '.', so
// "1.5x" leaves ".5x". The cost is O(len(s)).
func replaceNumbers(s string) string {
	var e textEdit
	for a := 0; a < len(s); a++ {
		if !isDigit(s[a]) || !startsWord(s, a) {
			continue
		}
		j := a + runLen(s, a, len(s), isDigit)
		match := false
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			if f := j + 1 + runLen(s, j+1, len(s), isDigit); endsWord(s, f) {
				j, match = f, true
			}
		}
		match = match || endsWord(s, j)
		if !match {
			a = j - 1
			continue
		}
		if num := s[a:j]; len(num) != 3 || num[0] < '1' || num[0] > '5' || !followsStatusWord(s[:a]) {
			e.replace(s, a, j, "<n>")
		}
		a = j - 1
	}
	return e.result(s)
}

// followsStatusWord reports whether (?i)\b(?:http|status|code)[ :=/]*$
// matches t: t ends with HTTP, status or code, in any case, and then
// spaces, ':', '=' or '/'. The word ends where that trailing run begins,
// as none of its letters is one of those. Case is Go's simple folding,
// so the s of status may be 'ſ' (U+017F), which is not a word character:
// \b before "ſtatus" needs a word character before it. The cost is
// O(len(t)) for the trailing run, O(1) past it.
func followsStatusWord(t string) bool {
	j := len(t)
	for j > 0 && strings.IndexByte(" :=/", t[j-1]) >= 0 {
		j--
	}
	for _, w := range [...]string{"http", "status", "code"} {
		if i, ok := foldedSuffix(t[:j], w); ok && startsWord(t, i) == isWordByte(t[i]) {
			return true
		}
	}
	return false
}

// foldedSuffix reports whether t ends with word, a lower-case ASCII word,
// under simple case folding, and where that suffix begins.
func foldedSuffix(t, word string) (int, bool) {
	i := len(t)
	for k := len(word) - 1; k >= 0; k-- {
		r, n := utf8.DecodeLastRuneInString(t[:i])
		if n == 0 || !foldsTo(r, word[k]) {
			return 0, false
		}
		i -= n
	}
	return i, true
}

// foldsTo reports whether r is the lower-case ASCII letter c under Go's
// simple case folding, as (?i) and strings.EqualFold match: c, its upper
// case, and for 's' and 'k' also 'ſ' (U+017F) and the Kelvin sign
// (U+212A).
func foldsTo(r rune, c byte) bool {
	return r == rune(c) || r == rune(c)-'a'+'A' || c == 's' && r == 'ſ' || c == 'k' && r == 'K'
}

// collapseSpaces is rule 8: strings.Join(strings.Fields(s), " "), with
// unicode.IsSpace for space, without allocating when s has no run of
// spaces, no space but ' ' and none at either end. The cost is
// O(len(s)).
func collapseSpaces(s string) string {
	clean, space := true, true // space: the last rune was a space, or none yet
	for _, r := range s {
		isSpace := unicode.IsSpace(r)
		if isSpace && (space || r != ' ') {
			clean = false
			break
		}
		space = isSpace
	}
	if clean && !space || s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	field := -1 // where the current field began, or -1 between fields
	for i, r := range s {
		switch isSpace := unicode.IsSpace(r); {
		case isSpace && field >= 0:
			b.WriteString(s[field:i])
			field = -1
		case !isSpace && field < 0:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			field = i
		}
	}
	if field >= 0 {
		b.WriteString(s[field:])
	}
	return b.String()
}
