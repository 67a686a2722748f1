package playground

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Level is a practice level, as an address names it and an interview
// ladder has them: L4 (the rules of order, FIFO, retries and cycles), L5
// (cycles through earlier tasks, blocking, root causes, redrive) and L6
// (time and operating the dead-letter queue: leases, fencing, backoff,
// permanent errors, bulk redrive, poison pills). The trainer, package
// practice, asks them; the playground only reads them from an address.
type Level string

// The practice levels.
const (
	L4 Level = "L4"
	L5 Level = "L5"
	L6 Level = "L6"
)

// Levels returns the practice levels, in order.
func Levels() []Level { return []Level{L4, L5, L6} }

// ParseLevel reads a level, in any case ("l5" is L5).
func ParseLevel(s string) (Level, bool) {
	l := Level(strings.ToUpper(s))
	return l, slices.Contains(Levels(), l)
}

// The sets of exercises of a level: the written ones, and those the
// trainer generates from a seed.
const (
	SetBook   = "book"
	SetRandom = "random"
)

// PracticeLink is the practice part of a playground address, as written
// (the trainer checks that the exercise it names exists):
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
		pl.Exercise = v // the trainer checks that it exists
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
