package practice

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dagq/dagq/internal/playground"
)

// Resume is where a learner is in the exercise practised last, kept with
// the [Progress] so that a reload comes back to the same question (a
// finished exercise stays finished), not to question 1:
//
//	"resume":{"ex":"L5/book/diamond-redrive","at":2,"graded":true,"right":[1,0,1],"said":["next hands out a","…","…"],"draft":""}
//
// Right holds, for each question answered, whether the answer was right,
// and Said the answer given as the summary shows it; their length is At,
// plus one while the answer to question At is shown (Graded). At is the
// number of questions when the exercise is done. Draft is the words
// given to a "why" whose points are being ticked.
type Resume struct {
	Exercise string   // the exercise, as [ExerciseID] names it
	At       int      // the question asked or just graded, from 0
	Graded   bool     // the answer to question At is in
	Right    []bool   // whether each answer given was right, in order
	Said     []string // each answer given, as [FormatAnswer] writes it
	Draft    string   // the words of a "why" being self-graded
}

// maxSaid bounds the length of an answer kept, in bytes: a "why" is a few
// sentences, and what the browser stores stays small.
const maxSaid = 2000

// ExerciseID names an exercise across levels and sets: "L5/book/NAME",
// "L4/random/SEED".
func ExerciseID(ex Exercise) string { return string(ex.Level) + "/" + ex.Set + "/" + ex.Name }

// ResumeLink returns the link of the exercise that the stored progress
// was last practised in, for a way into practice that names none (the
// page's Practise button) to come back to it, as a reload does; false
// when the progress keeps no place, or one of no exercise there is.
func ResumeLink(stored string) (PracticeLink, bool) {
	r := ParseProgress(stored).Resume
	if r == nil {
		return PracticeLink{}, false
	}
	parts := strings.SplitN(r.Exercise, "/", 3)
	if len(parts) != 3 {
		return PracticeLink{}, false
	}
	level, ok := playground.ParseLevel(parts[0])
	if !ok {
		return PracticeLink{}, false
	}
	switch parts[1] {
	case SetBook:
		if _, _, found := FindExercise(level, parts[2]); !found {
			return PracticeLink{}, false
		}
		return PracticeLink{Level: level, Set: SetBook, Exercise: parts[2]}, true
	case SetRandom:
		seed, err := strconv.ParseUint(parts[2], 10, 64)
		if err != nil {
			return PracticeLink{}, false
		}
		return PracticeLink{Level: level, Set: SetRandom, Seed: seed, HasSeed: true}, true
	}
	return PracticeLink{}, false
}

// resume returns where the practice is, for the progress to keep.
func (p *Practice) resume() *Resume {
	r := &Resume{Exercise: ExerciseID(p.ex), At: p.at, Graded: p.graded, Right: make([]bool, len(p.results)),
		Said: make([]string, len(p.results)), Draft: p.draft}
	for i, res := range p.results {
		r.Right[i] = res.Correct
		r.Said[i] = res.Said
	}
	return r
}

// restore moves the practice to where r says, the answers given counted
// as r says (each result as grading gave it: the right answer and the
// rule). It reports false, changing nothing, when r is not of this
// exercise or cannot be one of its places.
func (p *Practice) restore(r *Resume) bool {
	n := len(p.questions)
	switch {
	case r == nil || r.Exercise != ExerciseID(p.ex):
		return false
	case r.At < 0 || r.At > n || r.At == n && r.Graded:
		return false
	case r.Graded && len(r.Right) != r.At+1, !r.Graded && len(r.Right) != r.At:
		return false
	case r.Said != nil && len(r.Said) != len(r.Right):
		return false
	}
	p.results = p.results[:0]
	for i, right := range r.Right {
		q := p.questions[i]
		res := Result{Correct: right, Want: q.Want, Why: q.Why, Said: "(not kept)"}
		if r.Said != nil {
			res.Said = r.Said[i]
		}
		p.results = append(p.results, res)
	}
	p.at, p.graded, p.draft = r.At, r.Graded, ""
	if q, ok := p.Current(); ok && q.Kind == AskWhy && !r.Graded {
		p.draft = r.Draft
	}
	p.show()
	return true
}

// encodeResume writes r as the value of "resume".
func encodeResume(b *strings.Builder, r *Resume) {
	b.WriteString(`{"ex":`)
	quoteJSON(b, r.Exercise)
	b.WriteString(`,"at":` + strconv.Itoa(r.At) + `,"graded":` + strconv.FormatBool(r.Graded) + `,"right":[`)
	for i, right := range r.Right {
		if i > 0 {
			b.WriteByte(',')
		}
		if right {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	b.WriteString(`],"said":[`)
	for i, s := range r.Said {
		if i > 0 {
			b.WriteByte(',')
		}
		quoteJSON(b, clip(s, maxSaid))
	}
	b.WriteString(`],"draft":`)
	quoteJSON(b, clip(r.Draft, maxSaid))
	b.WriteString("}")
}

// clip cuts a text to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// parseResume reads what encodeResume wrote; nil for anything else.
// Whether it fits its exercise is checked when it is used.
func parseResume(v any) *Resume {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	ex, _ := m["ex"].(string)
	ex = strings.ToValidUTF8(ex, "\uFFFD") // as it will be written and read back
	graded, _ := m["graded"].(bool)
	right, ok := m["right"].([]any)
	if ex == "" || len(ex) > 120 || !ok || len(right) > 10_000 {
		return nil
	}
	r := &Resume{Exercise: ex, At: jsonInt(m, "at"), Graded: graded, Right: make([]bool, len(right))}
	for i, x := range right {
		f, ok := x.(float64)
		if !ok || f != 0 && f != 1 {
			return nil
		}
		r.Right[i] = f == 1
	}
	if said, ok := m["said"].([]any); ok {
		if len(said) != len(right) {
			return nil
		}
		r.Said = make([]string, len(said))
		for i, x := range said {
			s, ok := x.(string)
			if !ok {
				return nil
			}
			r.Said[i] = clip(s, maxSaid)
		}
	}
	if d, ok := m["draft"].(string); ok {
		r.Draft = clip(d, maxSaid)
	}
	return r
}
