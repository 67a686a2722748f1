package core

import (
	"regexp"
	"strings"
	"sync"
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
//     causes, not one.
//  8. Runs of spaces become one space, and the text is trimmed.
//
// So "HTTP 503 from 10.0.3.7:8080 after 250ms" and "HTTP 503 from
// 10.0.9.1:8080 after 1.2s" both read "HTTP 503 from <addr> after <dur>",
// while "HTTP 500 …" stays apart. The cost is O(len(text)).
func Fingerprint(text string) string {
	re := fingerprintREs()
	s := text
	s = re.singleQuoted.ReplaceAllString(s, "$1'*'")
	s = re.doubleQuoted.ReplaceAllString(s, `"*"`)
	s = re.backQuoted.ReplaceAllString(s, "`*`")
	s = re.uuid.ReplaceAllString(s, "<uuid>")
	s = re.ipv6Bracket.ReplaceAllString(s, "<addr>")
	s = re.ipv4.ReplaceAllString(s, "<addr>")
	s = re.ipv6.ReplaceAllString(s, "<addr>")
	s = re.hex.ReplaceAllString(s, "<hex>")
	s = replaceWhole(re.duration, s, "<dur>")
	s = re.token.ReplaceAllStringFunc(s, func(t string) string {
		if len(t) >= 8 && strings.ContainsAny(t, "0123456789") && strings.IndexFunc(t, isLetter) >= 0 {
			return "<id>"
		}
		return t
	})
	s = replaceNumbers(s)
	return strings.Join(strings.Fields(s), " ")
}

// fingerprintRE holds the regular expressions of the rules, compiled the
// first time a text is fingerprinted rather than when the package starts:
// a program that never meets a dead task (the playground opening a
// script) does not pay for them.
type fingerprintRE struct {
	singleQuoted *regexp.Regexp
	doubleQuoted *regexp.Regexp
	backQuoted   *regexp.Regexp
	uuid         *regexp.Regexp
	ipv6Bracket  *regexp.Regexp
	ipv4         *regexp.Regexp
	ipv6         *regexp.Regexp
	hex          *regexp.Regexp
	duration     *regexp.Regexp
	token        *regexp.Regexp
	number       *regexp.Regexp
	status       *regexp.Regexp
}

var fingerprintREs = sync.OnceValue(func() *fingerprintRE {
	return &fingerprintRE{
		singleQuoted: regexp.MustCompile(`(^|[^A-Za-z0-9])'[^'\n]*'`),
		doubleQuoted: regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`),
		backQuoted:   regexp.MustCompile("`[^`\n]*`"),
		uuid:         regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`),
		ipv6Bracket:  regexp.MustCompile(`\[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(?:%[0-9A-Za-z]+)?\](?::[0-9]+)?`),
		ipv4:         regexp.MustCompile(`\b[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(?::[0-9]{1,5})?\b`),
		ipv6:         regexp.MustCompile(`(?:\b(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}\b|(?:\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?::(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*\b)?)`),
		hex:          regexp.MustCompile(`\b0[xX][0-9a-fA-F]+\b`),
		duration:     regexp.MustCompile(`\b(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h))+`),
		token:        regexp.MustCompile(`[A-Za-z0-9]+`),
		number:       regexp.MustCompile(`\b[0-9]+(?:\.[0-9]+)?\b`),
		status:       regexp.MustCompile(`(?i)\b(?:http|status|code)[ :=/]*$`),
	}
})

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// replaceNumbers is rule 7: numbers alone become <n>, but an HTTP status
// after HTTP, status or code stays.
func replaceNumbers(s string) string {
	re := fingerprintREs()
	idx := re.number.FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		num := s[m[0]:m[1]]
		if len(num) == 3 && num[0] >= '1' && num[0] <= '5' && re.status.MatchString(s[:m[0]]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString("<n>")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// replaceWhole replaces the matches of re that a letter, digit or '_' does
// not follow (RE2 cannot look ahead): "30s" in "after 30s." but not the
// "5m" of "5min".
func replaceWhole(re *regexp.Regexp, s, repl string) string {
	idx := re.FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if m[1] < len(s) {
			if c := s[m[1]]; c == '_' || c >= '0' && c <= '9' || isLetter(rune(c)) {
				continue
			}
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(repl)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
