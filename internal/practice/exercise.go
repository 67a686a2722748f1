package practice

import (
	"embed"
	"io/fs"
	"path"
	"strings"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// Level is a practice level (see [playground.Level]): L4, L5 or L6.
type Level = playground.Level

// The practice levels.
const (
	L4 = playground.L4
	L5 = playground.L5
	L6 = playground.L6
)

// Levels returns the practice levels, in order.
func Levels() []Level { return playground.Levels() }

// ParseLevel reads a level, in any case ("l5" is L5).
func ParseLevel(s string) (Level, bool) { return playground.ParseLevel(s) }

// Exercise is a small scenario to practise on: a title, a goal, and a
// script whose steps are asked about one by one.
type Exercise struct {
	Level Level
	Set   string // SetBook for the written exercises, SetRandom for generated ones
	Name  string // the exercise's name in its set, e.g. "retry-goes-last"
	Seed  uint64 // for a generated exercise, the seed it was made from
	Title string
	Goal  string
	Text  string // the script
}

// The sets of exercises of a level: the written ones, and those the
// generator makes from a seed.
const (
	SetBook   = playground.SetBook
	SetRandom = playground.SetRandom
)

//go:embed exercises
var exerciseFiles embed.FS

// Exercises returns the written exercises of a level, in order: at least
// eight per level, each a small scenario with a title and a goal.
func Exercises(l Level) []Exercise {
	dir := path.Join("exercises", string(l))
	entries, err := fs.ReadDir(exerciseFiles, dir)
	if err != nil {
		return nil
	}
	var out []Exercise
	for _, e := range entries {
		data, err := fs.ReadFile(exerciseFiles, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".dagq")
		if _, rest, ok := strings.Cut(name, "-"); ok {
			name = rest // the number only orders the files
		}
		out = append(out, exercise(l, SetBook, name, string(data)))
	}
	return out
}

// exercise makes an exercise of a script whose opening comment holds its
// title and a paragraph starting "Goal:".
func exercise(l Level, set, name, text string) Exercise {
	ex := Exercise{Level: l, Set: set, Name: name, Title: scenario.Title(text), Text: text}
	for _, p := range strings.Split(playground.About(text), "\n\n") {
		if g, ok := strings.CutPrefix(p, "Goal: "); ok {
			ex.Goal = g
		}
	}
	return ex
}

// FindExercise returns a written exercise of a level by its name or its
// number in the set, from 1.
func FindExercise(l Level, ref string) (Exercise, int, bool) {
	all := Exercises(l)
	if n, ok := playground.ParseStep(ref); ok && n >= 1 && n <= len(all) {
		return all[n-1], n, true
	}
	for i, e := range all {
		if e.Name == ref {
			return e, i + 1, true
		}
	}
	return Exercise{}, 0, false
}
