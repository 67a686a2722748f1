package practice

import (
	"slices"
	"strconv"
	"strings"
)

// ProgressKey is the key under which the page keeps a learner's
// [Progress] in the browser's localStorage.
const ProgressKey = "dagq.practice"

// Progress is what a learner did, per level, kept by the page in the
// browser between visits as JSON ([Progress.Encode], [ParseProgress]):
//
//	{"levels":{"L5":{"right":3,"answered":4,"streak":1,"best":2,"missed":{"6":1},"done":["book/diamond-redrive"]}},
//	 "resume":{"ex":"L5/book/diamond-redrive","at":2,"graded":false,"right":[1,0]}}
//
// where the keys of missed are [Topic] numbers, and resume is where the
// learner is in the exercise practised last ([Resume]).
type Progress struct {
	Levels map[Level]*LevelProgress
	// Resume is where the learner is in the exercise practised last
	// (stored as "resume" beside "levels"); nil when none is kept.
	Resume *Resume
}

// LevelProgress is the progress at one level.
type LevelProgress struct {
	Right    int           // answers right
	Answered int           // answers given
	Streak   int           // right answers in a row, up to the last
	Best     int           // the longest streak
	Missed   map[Topic]int // answers wrong, by topic
	Done     []string      // exercises passed ([Practice.Passed]), as "set/name", first first
}

// maxDone caps the exercises remembered as finished per level, so that
// stored progress stays small however long one practises random ones.
const maxDone = 200

// ParseProgress reads progress as [Progress.Encode] writes it. It is
// tolerant: stored data that is not JSON, or not progress, reads as no
// progress; levels and topics it does not know are left out; counts that
// cannot be (negative, more right than answered) are mended. It never
// fails.
func ParseProgress(data string) Progress {
	clean := Progress{Levels: map[Level]*LevelProgress{}}
	v, _ := parseJSON(data)
	root, _ := v.(map[string]any)
	levels, _ := root["levels"].(map[string]any)
	for _, l := range Levels() {
		m, ok := levels[string(l)].(map[string]any)
		if !ok {
			continue
		}
		lp := &LevelProgress{Right: jsonInt(m, "right"), Answered: jsonInt(m, "answered"),
			Streak: jsonInt(m, "streak"), Best: jsonInt(m, "best"), Missed: map[Topic]int{}}
		lp.Answered = max(lp.Answered, 0)
		lp.Right = min(max(lp.Right, 0), lp.Answered)
		lp.Streak = min(max(lp.Streak, 0), lp.Right)
		lp.Best = max(min(lp.Best, lp.Right), lp.Streak)
		missed, _ := m["missed"].(map[string]any)
		for _, t := range Topics() {
			if n := jsonInt(missed, strconv.Itoa(int(t))); n > 0 {
				lp.Missed[t] = n
			}
		}
		done, _ := m["done"].([]any)
		for _, d := range done {
			// Bytes that are not UTF-8 are written as U+FFFD, three
			// bytes each: mend them first, so that the length and the
			// duplicates are those that will be read back.
			s, ok := d.(string)
			s = strings.ToValidUTF8(s, "\uFFFD")
			if ok && s != "" && len(s) <= 80 && !slices.Contains(lp.Done, s) {
				lp.Done = append(lp.Done, s)
			}
		}
		if len(lp.Done) > maxDone {
			lp.Done = lp.Done[len(lp.Done)-maxDone:]
		}
		clean.Levels[l] = lp
	}
	clean.Resume = parseResume(root["resume"])
	return clean
}

// Encode writes progress as JSON, for the page to store.
func (p Progress) Encode() string {
	var b strings.Builder
	b.WriteString(`{"levels":{`)
	first := true
	for _, l := range Levels() {
		lp := p.Levels[l]
		if lp == nil {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		quoteJSON(&b, string(l))
		b.WriteString(`:{"right":` + strconv.Itoa(lp.Right) + `,"answered":` + strconv.Itoa(lp.Answered) +
			`,"streak":` + strconv.Itoa(lp.Streak) + `,"best":` + strconv.Itoa(lp.Best) + `,"missed":{`)
		sep := ""
		for _, t := range Topics() {
			if n := lp.Missed[t]; n > 0 {
				b.WriteString(sep + `"` + strconv.Itoa(int(t)) + `":` + strconv.Itoa(n))
				sep = ","
			}
		}
		b.WriteString(`},"done":[`)
		for i, d := range lp.Done {
			if i > 0 {
				b.WriteByte(',')
			}
			quoteJSON(&b, d)
		}
		b.WriteString("]}")
	}
	b.WriteString("}")
	if p.Resume != nil {
		b.WriteString(`,"resume":`)
		encodeResume(&b, p.Resume)
	}
	b.WriteString("}")
	return b.String()
}

// Level returns the progress at a level, made empty if there is none.
func (p *Progress) Level(l Level) *LevelProgress {
	if p.Levels == nil {
		p.Levels = map[Level]*LevelProgress{}
	}
	lp := p.Levels[l]
	if lp == nil {
		lp = &LevelProgress{Missed: map[Topic]int{}}
		p.Levels[l] = lp
	}
	if lp.Missed == nil {
		lp.Missed = map[Topic]int{}
	}
	return lp
}

// Record counts one graded answer at a level.
func (p *Progress) Record(l Level, q Question, r Result) {
	lp := p.Level(l)
	lp.Answered++
	if r.Correct {
		lp.Right++
		lp.Streak++
		lp.Best = max(lp.Best, lp.Streak)
		return
	}
	lp.Streak = 0
	lp.Missed[q.Topic]++
}

// Finish counts an exercise as passed at its level, once.
func (p *Progress) Finish(ex Exercise) {
	lp := p.Level(ex.Level)
	id := ex.Set + "/" + ex.Name
	if !slices.Contains(lp.Done, id) {
		lp.Done = append(lp.Done, id)
		if len(lp.Done) > maxDone {
			lp.Done = lp.Done[1:]
		}
	}
}

// Finished reports whether an exercise was passed before.
func (p Progress) Finished(ex Exercise) bool {
	lp := p.Levels[ex.Level]
	return lp != nil && slices.Contains(lp.Done, ex.Set+"/"+ex.Name)
}

// TopMissed returns the topics missed most at a level, most often first.
func (p Progress) TopMissed(l Level) []TopicCount {
	lp := p.Levels[l]
	if lp == nil {
		return nil
	}
	var out []TopicCount
	for _, t := range Topics() {
		if n := lp.Missed[t]; n > 0 {
			out = append(out, TopicCount{Topic: t, Name: t.Name(), Count: n})
		}
	}
	sortCounts(out)
	return out
}
