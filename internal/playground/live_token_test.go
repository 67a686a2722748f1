package playground_test

import (
	"regexp"
	"testing"

	pg "github.com/dagq/dagq/internal/playground"
)

func TestTokenInFragment(t *testing.T) {
	t.Parallel()
	// The expression live.js reads the token with, and main.wasm did.
	re := regexp.MustCompile(`(?:^#|&)token=([0-9a-f]+)`)
	for _, c := range []struct {
		fragment, want string
		ok             bool
	}{
		{"#token=0123456789abcdef", "0123456789abcdef", true},
		{"#x=1&token=0f", "0f", true},
		{"#token=12g3", "12", true},        // the token ends where [0-9a-f] does
		{"#token=ab&token=cd", "ab", true}, // the leftmost
		{"#token=&token=9", "9", true},     // a "token=" with no token is passed by
		{"#token=zz&token=aa", "aa", true},
		{"#&token=1", "1", true},
		{"&token=1", "1", true},
		{"#token=", "", false},
		{"#token=ABC", "", false}, // lower case only
		{"token=ab", "", false},   // no '#' or '&' before it
		{"x#token=ab", "", false}, // '#' only at the start
		{"##token=ab", "", false},
		{"#xtoken=ab", "", false},
		{"#tokens=ab", "", false},
		{"#", "", false},
		{"", "", false},
	} {
		got, ok := pg.TokenInFragment(c.fragment)
		if got != c.want || ok != c.ok {
			t.Errorf("TokenInFragment(%q) = %q, %v; want %q, %v", c.fragment, got, ok, c.want, c.ok)
		}
		m := re.FindStringSubmatch(c.fragment)
		if (m != nil) != c.ok || m != nil && m[1] != c.want {
			t.Errorf("the expression finds %q in %q, not %q", m, c.fragment, c.want)
		}
	}
}
