package playground

import "strings"

// TokenInFragment returns the token a live view's address carries in its
// fragment (…#token=HEX; wq serve prints such an address), and whether
// there is one. The token follows the leftmost "token=" that starts the
// fragment after its '#' or comes after a '&', and that one or more of
// [0-9a-f] follow; it is all of them. This is what
// (?:^#|&)token=([0-9a-f]+) finds, the regular expression package live's
// live.js reads the token with. The cost is O(len(fragment)).
func TokenInFragment(fragment string) (string, bool) {
	const key = "token="
	for i := 0; i < len(fragment); i++ {
		before := fragment[i] == '&' || i == 0 && fragment[i] == '#'
		if !before || !strings.HasPrefix(fragment[i+1:], key) {
			continue
		}
		v := fragment[i+1+len(key):]
		n := 0
		for n < len(v) && (v[n] >= '0' && v[n] <= '9' || v[n] >= 'a' && v[n] <= 'f') {
			n++
		}
		if n > 0 {
			return v[:n], true
		}
	}
	return "", false
}
