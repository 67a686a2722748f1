package practice

import (
	"fmt"
	"strconv"

	"github.com/dagq/dagq/internal/playground"
)

// PracticeLink is the practice part of a playground address (see
// [playground.PracticeLink]).
type PracticeLink = playground.PracticeLink

// ReadLink reads the practice part of an address, as [playground.ParseLink]
// does, and checks that the exercise it names exists: one that does not is
// reported as a *playground.LinkError and left out, after the errors of
// the address itself.
func ReadLink(query, fragment string) (PracticeLink, []error) {
	l, errs := playground.ParseLink(query, fragment)
	pl, err := CheckLink(l.Practice)
	if err != nil {
		errs = append(errs, err)
	}
	return pl, errs
}

// CheckLink checks that the exercise a practice link already read names
// exists: one that does not is reported as a *playground.LinkError and
// left out.
func CheckLink(pl PracticeLink) (PracticeLink, error) {
	if pl.On() && pl.Set != SetRandom && pl.Exercise != "" {
		if _, _, found := FindExercise(pl.Level, pl.Exercise); !found {
			err := &playground.LinkError{Param: "ex", Value: pl.Exercise,
				Msg: fmt.Sprintf("no exercise %q at %s (want 1 to %d, or a name)", clip(pl.Exercise, 40), pl.Level, len(Exercises(pl.Level)))}
			pl.Exercise = ""
			return pl, err
		}
	}
	return pl, nil
}

// Resolve returns the exercise a link names: the book's exercise (the
// first when none is named), or the random one of its seed, seed being
// used when the link has none. It returns the link with the seed filled
// in and the exercise named by its number, for the address bar.
func Resolve(pl PracticeLink, seed uint64) (Exercise, PracticeLink) {
	if pl.Set == SetRandom {
		if !pl.HasSeed {
			pl.Seed, pl.HasSeed = seed, true
		}
		return Generate(pl.Level, pl.Seed), pl
	}
	pl.Set = SetBook
	ref := pl.Exercise
	if ref == "" {
		ref = "1"
	}
	ex, n, ok := FindExercise(pl.Level, ref)
	if !ok {
		ex, n, _ = FindExercise(pl.Level, "1")
	}
	pl.Exercise = strconv.Itoa(n)
	pl.HasSeed, pl.Seed = false, 0
	return ex, pl
}
