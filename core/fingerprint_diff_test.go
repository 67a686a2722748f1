package core

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The tests of this file hold Fingerprint to fingerprintByRegexp, the
// rules as regular expressions, on texts chosen to be tricky, on random
// texts made of the characters the rules look at, on long texts that a
// scanner reading too much would take quadratic time on, and under the
// fuzzer.

var fingerprintSeed = flag.Uint64("fingerprint.seed", 0, "the seed of TestFingerprintRandomTexts (0: one from the clock)")

// fingerprintTrickyTexts are texts where a scanner that matched a little
// differently from the regular expressions would go wrong, with what they
// become.
var fingerprintTrickyTexts = []struct{ text, want string }{
	// A quote before a value opens it; the closing quote of one does not
	// open the next.
	{"'a''b'", "'*''b'"},
	{"x 'a' 'b' y", "x '*' '*' y"},
	{"'\n'x'", "' '*'"},
	{"can't won't", "can't won't"},
	{"é'x'", "é'*'"},
	{"\xff'x'", "\xff'*'"},
	// Escapes in "…": an escaped quote that does not close opens nothing.
	{`"a\"b\n"c"`, `"*"c"`},
	{`"a\\"b"`, `"*"b"`},
	{"\"a\\\n\"", "\"a\\ \""},
	{`"\`, `"\`},
	{"\"\xff\"", `"*"`},
	{"\"\\€\"", `"*"`},
	{"`a`b`", "`*`b`"},
	{"`a\n`b`", "`a `*`"},
	// UUIDs end words.
	{"x3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b", "<id>-7d4a-4e5f-9a6b-<id>"},
	{"3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b_", "<id>-7d4a-4e5f-9a6b-<id>_"},
	// Addresses.
	{"[fe80::1%eth0]:443", "<addr>"},
	{"[1.2.3.4]", "[<addr>]"},
	{"[::1%]", "[<addr>%]"},
	{"[::1]:x", "<addr>:x"},
	{"[[::1]]", "[<addr>]"},
	{"1.2.3.4:80x", "<addr>:80x"},
	{"1.2.3.4:123456", "<addr>:<n>"},
	{"1.2.3.4:12345", "<addr>"},
	{"1.2.3.4:80_", "<addr>:80_"},
	{"1.2.3.4.5", "<addr>.<n>"},
	{"1234.1.1.1", "<n>.<n>"},
	{"1.2.3.4x", "<n>.<n>.4x"},
	{"a1.2.3.4", "a1.<n>.<n>"},
	{"::1:2g", "<addr>:2g"},
	{"::12345", "<addr><n>"},
	{"1:2:3:4:5:6:7:8g", "<n>:<n>:<n>:<n>:<n>:<n>:<n>:8g"},
	{"1:2:3:4:5:6:7:8:9", "<addr>:<n>"},
	{"1:::", "<addr>:"},
	{"::1::2", "<addr><addr>"},
	{"g1::", "g1<addr>"},
	{"12345::1", "<n><addr>"},
	// Hexadecimal numbers end words.
	{"0x1fg", "0x1fg"},
	{"a0x1f", "a0x1f"},
	{"0X1F.", "<hex>."},
	// Durations: the units in their order, and what follows a match.
	{"1ms5s", "<dur>"},
	{"1s2", "1s2"},
	{"1mx", "1mx"},
	{"30s.", "<dur>."},
	{"10µs", "<dur>"},
	{"1.s", "<n>.s"},
	// Numbers and statuses.
	{"1.5x", "<n>.5x"},
	{"HTTP/1.1 200", "HTTP/1.1 <n>"},
	{"HTTP 1.5", "HTTP 1.5"},
	{"xHTTP 503", "xHTTP <n>"},
	{"STATUS 200", "STATUS 200"},
	{"HTTP 600", "HTTP <n>"},
	// 'ſ' folds to 's' but is no word character: \b before it needs one.
	{"ſtatus 200", "ſtatus <n>"},
	{"xſtatus 200", "xſtatus 200"},
	{"ſtatuſ 200", "ſtatuſ <n>"},
	// Spaces are unicode.IsSpace's.
	{"  a \u00a0 b\u0085", "a b"},
	{"\xff \xff", "\xff \xff"},
}

func TestFingerprintTrickyTexts(t *testing.T) {
	t.Parallel()
	for _, c := range fingerprintTrickyTexts {
		if got := Fingerprint(c.text); got != c.want {
			t.Errorf("Fingerprint(%q)\n = %q\nwant %q", c.text, got, c.want)
		}
		if want := fingerprintByRegexp(c.text); want != c.want {
			t.Errorf("the regular expressions make %q of %q, not %q", want, c.text, c.want)
		}
	}
}

// fingerprintPieces are what random texts are made of: the characters
// the rules look at, alone and in the words and shapes they look for.
var fingerprintPieces = []string{
	"0", "1", "2", "5", "9", "a", "c", "f", "A", "F", "x", "X", "g", "_", "-",
	":", "::", ".", "[", "]", "%", "'", `"`, "`", `\`, "\n", " ", " ", "\t",
	"s", "m", "h", "n", "u", "µ", "ſ", "µs", "ms", "=", "/", "\xff", "é", "\u00a0",
	"HTTP", "http", "status", "code", "Code", "0x", "1.5", "503", "404",
	"1.2.3.4", "fe80", "1:2:3:4:5:6:7:", "3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b",
	"12345", "123456", ":80", "8f3a9c2b", "ſtatus", "tatus", "ſTATUſ",
}

// randomFingerprintText returns a text of up to 30 pieces.
func randomFingerprintText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(31) {
		b.WriteString(fingerprintPieces[r.IntN(len(fingerprintPieces))])
	}
	return b.String()
}

func TestFingerprintRandomTexts(t *testing.T) {
	t.Parallel()
	seed := *fingerprintSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (-fingerprint.seed=%d replays it)", seed, seed)
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for range n {
		s := randomFingerprintText(r)
		if got, want := Fingerprint(s), fingerprintByRegexp(s); got != want {
			t.Fatalf("-fingerprint.seed=%d: Fingerprint(%q)\n = %q\nwant %q", seed, s, got, want)
		}
	}
}

// longTexts are 100 KB texts made to make a scanner that reads a text
// more than a few times over take quadratic time.
func longTexts() []struct {
	name, text string
	// quadraticByRegexp: the regular expressions take quadratic time on
	// the text, so they are compared on its first 10 KB.
	quadraticByRegexp bool
} {
	const size = 100 << 10
	long := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return []struct {
		name, text string
		// quadraticByRegexp: the regular expressions take quadratic
		// time on the text, so they are compared on its first 10 KB.
		quadraticByRegexp bool
	}{
		{"ChainOfGroups", long("1:")[:size-1], false},
		{"ChainOfGroupsEndingInAWord", long("1:") + "1g", false},
		{"SevenGroupsThenAWord", long("1:2:3:4:5:6:7g "), false},
		{"ChainOfLongGroups", long("12345:"), false},
		{"DoubleColons", long("::1:"), false},
		{"OpenBrackets", long("[1:"), false},
		{"SingleQuotedSpaces", long(" '"), false},
		{"OpenSingleQuote", "'" + long("a "), false},
		{"EscapedDoubleQuotes", long(`"\`), false},
		{"OpenDoubleQuote", `"` + long("a "), false},
		{"OpenBackQuote", "`" + long("a "), false},
		{"Digits", long("1"), false},
		{"DigitsWithDots", long("1."), false},
		{"Decimals", long("1.5"), false},
		{"Addresses", long("1.2.3.4."), false},
		{"DurationThatGoesOn", long("1.5ms"), false},
		{"DurationsFollowedByALetter", long("1.5x "), false},
		{"HexDigits", "0x" + long("f") + "g", false},
		{"AlmostUUIDs", long("3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5"), false},
		// The status expression is searched in all the text before each
		// number that could be a status.
		{"Statuses", long("HTTP 200 "), true},
		{"SpacesBeforeAStatus", "HTTP" + long(" ") + "200", false},
		{"Spaces", long(" \u00a0"), false},
	}
}

// TestFingerprintLongTexts: on the long texts Fingerprint agrees with the
// regular expressions; BenchmarkFingerprintLong shows its time linear.
func TestFingerprintLongTexts(t *testing.T) {
	for _, c := range longTexts() {
		t.Run(c.name, func(t *testing.T) {
			compared := c.text
			if c.quadraticByRegexp {
				compared = c.text[:10<<10]
			}
			if got, want := Fingerprint(compared), fingerprintByRegexp(compared); got != want {
				t.Fatalf("Fingerprint differs from the regular expressions on %d bytes of %q…: at byte %d", len(compared), compared[:20], firstDifference(got, want))
			}
		})
	}
}

// BenchmarkFingerprintLong fingerprints each 100 KB long text: a
// scanner that reads a text more than a few times over takes seconds.
//
//	go test ./core -run '^$' -bench FingerprintLong
func BenchmarkFingerprintLong(b *testing.B) {
	for _, c := range longTexts() {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				Fingerprint(c.text)
			}
		})
	}
}

// firstDifference returns the first byte at which a and b differ.
func firstDifference(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func FuzzFingerprint(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fingerprint(s), fingerprintByRegexp(s); got != want {
			t.Errorf("Fingerprint(%q)\n = %q\nwant %q", s, got, want)
		}
	})
}
