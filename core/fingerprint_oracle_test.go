package core

import (
	"regexp"
	"strings"
	"sync"
)

// fingerprintByRegexp is Fingerprint as it was written with package
// regexp, one expression per rule: the oracle the scanners of
// fingerprint.go are compared with. Fingerprints are stored and compared
// across processes, so the two must agree on every input, byte for byte.
func fingerprintByRegexp(text string) string {
	re := fingerprintOracleREs()
	s := text
	s = re.singleQuoted.ReplaceAllString(s, "$1'*'")
	s = re.doubleQuoted.ReplaceAllString(s, `"*"`)
	s = re.backQuoted.ReplaceAllString(s, "`*`")
	s = re.uuid.ReplaceAllString(s, "<uuid>")
	s = re.ipv6Bracket.ReplaceAllString(s, "<addr>")
	s = re.ipv4.ReplaceAllString(s, "<addr>")
	s = re.ipv6.ReplaceAllString(s, "<addr>")
	s = re.hex.ReplaceAllString(s, "<hex>")
	s = oracleReplaceWhole(re.duration, s, "<dur>")
	s = re.token.ReplaceAllStringFunc(s, func(t string) string {
		if len(t) >= 8 && strings.ContainsAny(t, "0123456789") && strings.IndexFunc(t, oracleIsLetter) >= 0 {
			return "<id>"
		}
		return t
	})
	s = oracleReplaceNumbers(re, s)
	return strings.Join(strings.Fields(s), " ")
}

type fingerprintOracleRE struct {
	singleQuoted, doubleQuoted, backQuoted *regexp.Regexp
	uuid, ipv6Bracket, ipv4, ipv6, hex     *regexp.Regexp
	duration, token, number, status        *regexp.Regexp
}

var fingerprintOracleREs = sync.OnceValue(func() *fingerprintOracleRE {
	return &fingerprintOracleRE{
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

func oracleIsLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func oracleReplaceNumbers(re *fingerprintOracleRE, s string) string {
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

func oracleReplaceWhole(re *regexp.Regexp, s, repl string) string {
	idx := re.FindAllStringIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if m[1] < len(s) {
			if c := s[m[1]]; c == '_' || c >= '0' && c <= '9' || oracleIsLetter(rune(c)) {
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
