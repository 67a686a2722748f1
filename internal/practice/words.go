package practice

import "github.com/dagq/dagq/internal/wording"

// nameList joins names with commas, at most eight of them, saying how many
// more there are: the trainer's sentences list tasks as the playground's
// explanations do.
func nameList(names []string) string { return wording.Names(names, 8) }
