// Package wording holds the few words the playground's and the trainer's
// English sentences share: a list of task names cut short, "is" or "are",
// and a count with its noun.
package wording
