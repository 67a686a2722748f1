package practice

import (
	"strconv"
	"strings"
)

// nameList joins names with commas, at most eight of them, saying how many
// more there are: the trainer's sentences list tasks as the playground's
// explanations do.
func nameList(names []string) string {
	const most = 8
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + " and " + strconv.Itoa(len(names)-most) + " more"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// plural says n nouns: "1 task", "3 tasks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
