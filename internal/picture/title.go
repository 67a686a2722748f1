package picture

import "strings"

// Title returns what a script's first line says when it is a comment, as
// the library's scenarios open with their title ("# A diamond dies…"); ""
// otherwise.
func Title(script string) string {
	first, _, _ := strings.Cut(script, "\n")
	t, ok := strings.CutPrefix(strings.TrimSpace(first), "#")
	if !ok {
		return ""
	}
	return strings.TrimSpace(t)
}
