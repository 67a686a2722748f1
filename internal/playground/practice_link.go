package playground

import (
	"fmt"
	"strconv"
)

// PracticeLink is the practice part of a playground address:
// ?practice=L5&set=book&ex=3 for a written exercise (ex by number or
// name), ?practice=L5&set=random&seed=42 for a generated one, and
// &interviewer=1 for the interviewer's view.
type PracticeLink struct {
	Level       Level  // practice=L4|L5|L6; "" when not practising
	Set         string // set=book|random; "" means book, or random with a seed
	Exercise    string // ex=N|NAME in the book; "" means the first
	Seed        uint64 // seed=N, for a random exercise, when HasSeed
	HasSeed     bool
	Interviewer bool // interviewer=1
}

// On reports whether the link asks for practice mode.
func (pl PracticeLink) On() bool { return pl.Level != "" }

// parsePractice reads the practice parameters of a link, reporting each
// one it cannot read through bad and leaving it out.
func parsePractice(params map[string]string, l *Link, bad func(param, value, msg string)) {
	pl := &l.Practice
	v, ok := params["practice"]
	if !ok {
		return
	}
	lvl, ok := ParseLevel(v)
	if !ok {
		bad("practice", v, fmt.Sprintf("unknown level %q (want L4, L5 or L6)", clipParam(v)))
		return
	}
	pl.Level = lvl
	if v, ok := params["set"]; ok {
		switch v {
		case SetBook, SetRandom:
			pl.Set = v
		default:
			bad("set", v, fmt.Sprintf("unknown set %q (want %s or %s)", clipParam(v), SetBook, SetRandom))
		}
	}
	if v, ok := params["seed"]; ok {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			pl.Seed, pl.HasSeed = n, true
		} else {
			bad("seed", v, fmt.Sprintf("must be a whole number, got %q", clipParam(v)))
		}
	}
	if pl.Set == "" && pl.HasSeed {
		pl.Set = SetRandom
	}
	if v, ok := params["ex"]; ok && pl.Set != SetRandom {
		if _, _, found := FindExercise(lvl, v); found {
			pl.Exercise = v
		} else {
			bad("ex", v, fmt.Sprintf("no exercise %q at %s (want 1 to %d, or a name)", clipParam(v), lvl, len(Exercises(lvl))))
		}
	}
	if v, ok := params["interviewer"]; ok {
		switch v {
		case "1", "true", "":
			pl.Interviewer = true
		case "0", "false":
		default:
			bad("interviewer", v, fmt.Sprintf("must be 1 or 0, got %q", clipParam(v)))
		}
	}
}

// params writes the practice parameters of a link.
func (pl PracticeLink) params(add func(k, v string)) {
	if !pl.On() {
		return
	}
	add("practice", string(pl.Level))
	switch {
	case pl.Set == SetRandom:
		add("set", SetRandom)
		if pl.HasSeed {
			add("seed", strconv.FormatUint(pl.Seed, 10))
		}
	default:
		add("set", SetBook)
		if pl.Exercise != "" {
			add("ex", pl.Exercise)
		}
	}
	if pl.Interviewer {
		add("interviewer", "1")
	}
}

// Resolve returns the exercise the link names: the book's exercise (the
// first when none is named), or the random one of its seed, seed being
// used when the link has none. It returns the link with the seed filled
// in and the exercise named by its number, for the address bar.
func (pl PracticeLink) Resolve(seed uint64) (Exercise, PracticeLink) {
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
