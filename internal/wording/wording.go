package wording

import (
	"strconv"
	"strings"
)

// Names joins names with commas, at most most of them, saying how many
// more there are: "a, b and 3 more".
func Names(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + " and " + strconv.Itoa(len(names)-most) + " more"
}

// IsAre is "is" for one, "are" for any other count.
func IsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// Plural says n nouns: "1 task", "3 tasks".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
