package practice

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/internal/escape"
)

// DefaultInterviewLength is how long a mock interview lasts unless its
// link says otherwise.
const DefaultInterviewLength = 45 * time.Minute

// Role is who looks at a mock interview: the candidate sees the clock and
// what is asked; the interviewer sees besides the probes, the scoring
// sheet and the summary.
type Role string

// The roles of a mock interview.
const (
	Candidate   Role = "candidate"
	Interviewer Role = "interviewer"
)

// Mark is what the interviewer heard of a rubric point.
type Mark uint8

// The marks of the scoring sheet; Unmarked until the interviewer says.
const (
	Unmarked Mark = iota
	Heard         // the candidate said it, unprompted or nearly
	Partly        // part of it, or only when led to it
	NotHeard      // not at all
)

// markCodes are the marks as a link writes them.
var markCodes = map[Mark]string{Heard: "h", Partly: "p", NotHeard: "n"}

// String returns "heard", "partly", "not" or "unmarked".
func (m Mark) String() string {
	switch m {
	case Heard:
		return "heard"
	case Partly:
		return "partly"
	case NotHeard:
		return "not"
	}
	return "unmarked"
}

// Stage is one part of a mock interview, as an interviewer runs it: the
// level it is about (none for the wrap-up), its share of the time, the
// question asked, and the follow-ups an interviewer probes with.
type Stage struct {
	Level  Level // "" for the wrap-up
	Title  string
	Share  int // of the time, in 45ths: 12, 15, 15 and 3
	Ask    string
	Probes []string
}

// InterviewStages returns the stages of a mock interview, in order: L4,
// L5, L6 and a wrap-up. Their shares add up to 45.
func InterviewStages() []Stage {
	return []Stage{
		{L4, "L4 · one worker", 12,
			"Design a work queue whose tasks wait on other tasks: submit with dependencies, next, complete, and fail with retries. What does each task keep, and what does each operation do?",
			[]string{"Two tasks are READY and the first fails: which goes next, and why?",
				"A task names a dependency that has not been submitted yet: what happens?",
				"How do you find a loop of waits, and what does a refused submit change?",
				"What happens to a task that keeps failing?"}},
		{L5, "L5 · failure as a first-class path", 15,
			"A task dies at its last attempt, three levels above others that wait on it. What happens to them, and what does an operator see and do?",
			[]string{"Which task do you name as the cause of a blocked task three levels down?",
				"A task arrives waiting on a dead one: what state is it in?",
				"A diamond has two dead roots and one is redriven: what is released, and what stays?",
				"Why is checking for a cycle from the new task alone enough?"}},
		{L6, "L6 · production", 15,
			"Workers run on many machines and crash; a service your tasks call is down for ten minutes. What changes in your design?",
			[]string{"A worker holding a task crashes: how does the task come back?",
				"The slow worker comes back and completes the task: what stops it?",
				"The service comes back: what do a thousand retries do to it?",
				"Four hundred tasks died in the outage: how does an operator get them back, and not the one that will never succeed?",
				"What does your cycle check cost on a 10,000-task chain?",
				"Where do the tasks live so that a crash loses none, and whose clock decides a lease?"}},
		{"", "Wrap-up", 3,
			"What would you change with more time? Questions for the interviewer?",
			[]string{"Fill in the points not marked yet, and keep the summary."}},
	}
}

// Interview is a mock interview: when it began, how long it lasts, who is
// looking, and the interviewer's marks. Its link ([Interview.Query]) is
// how a pair shares it: each opens their view of the same clock.
type Interview struct {
	Start  int64         // when it began, in Unix milliseconds; 0: not yet (the page starts it)
	Length time.Duration // DefaultInterviewLength when the link says nothing
	Role   Role
	Marks  map[string]Mark // rubric point ID → mark, the interviewer's
}

// NewInterview begins a mock interview at start (Unix milliseconds), of
// the default length, seen by role.
func NewInterview(start int64, role Role) Interview {
	return Interview{Start: start, Length: DefaultInterviewLength, Role: role, Marks: map[string]Mark{}}
}

// InterviewClock is where a mock interview is at a moment.
type InterviewClock struct {
	Stage     int           // the stage under way; len(InterviewStages()) once over
	Elapsed   time.Duration // since the start, whole seconds
	Left      time.Duration // of the whole interview, 0 once over
	StageLeft time.Duration // of the stage under way
	Over      bool
}

// ClockAt returns where the interview is at now (Unix milliseconds): the
// stages follow each other, each lasting its share of the length; before
// the start (a clock a little behind the other browser's) it is at the
// start. O(stages).
func (iv Interview) ClockAt(now int64) InterviewClock {
	elapsed := time.Duration(max(now-iv.Start, 0)) * time.Millisecond
	elapsed -= elapsed % time.Second
	c := InterviewClock{Elapsed: elapsed}
	end := time.Duration(0)
	for i, st := range InterviewStages() {
		end += iv.Length * time.Duration(st.Share) / 45
		if elapsed < end {
			c.Stage, c.StageLeft, c.Left = i, end-elapsed, iv.Length-elapsed
			return c
		}
	}
	c.Stage, c.Over = len(InterviewStages()), true
	return c
}

// String says the clock as the page shows it: "31:05 left · L5 · failure
// as a first-class path, 3:05 left in it", or "Time is up (45:00)".
func (c InterviewClock) String() string {
	if c.Over {
		return "Time is up (" + minSec(c.Elapsed) + ")"
	}
	return minSec(c.Left) + " left · " + InterviewStages()[c.Stage].Title + ", " + minSec(c.StageLeft) + " left in it"
}

// minSec writes a duration as minutes and seconds, "7:05".
func minSec(d time.Duration) string {
	s := int(d / time.Second)
	return strconv.Itoa(s/60) + ":" + fmt.Sprintf("%02d", s%60)
}

// Mark records what the interviewer heard of a rubric point; Unmarked
// takes a mark back. It refuses, changing nothing, an unknown point and
// the candidate's view, which has no sheet.
func (iv *Interview) Mark(point string, m Mark) error {
	if iv.Role != Interviewer {
		return errors.New("practice: the candidate's view has no scoring sheet")
	}
	if _, ok := rubricPoint(point); !ok {
		return fmt.Errorf("practice: no rubric point %q", point)
	}
	if m > NotHeard {
		return fmt.Errorf("practice: mark %d", m)
	}
	if iv.Marks == nil {
		iv.Marks = map[string]Mark{}
	}
	if m == Unmarked {
		delete(iv.Marks, point)
	} else {
		iv.Marks[point] = m
	}
	return nil
}

// Toggle is a click on the sheet's button of a point and a mark (as
// [Interview.SheetHTML] names them): the mark, or, if the point has it
// already, no mark. It refuses what Mark refuses, and a code that is no
// mark, changing nothing.
func (iv *Interview) Toggle(point, code string) error {
	m, ok := MarkCode(code)
	if !ok {
		return fmt.Errorf("practice: mark %q: want h, p or n", clip(code, 40))
	}
	if iv.Marks[point] == m {
		m = Unmarked
	}
	return iv.Mark(point, m)
}

// rubricPoint finds a point of the rubric by ID, with its level.
func rubricPoint(id string) (RubricLevel, bool) {
	for _, rl := range Rubric() {
		if slices.ContainsFunc(rl.Points, func(p RubricPoint) bool { return p.ID == id }) {
			return rl, true
		}
	}
	return RubricLevel{}, false
}

// Query returns the link of the interview for a role: "?interview=START"
// with its length when not the default, the role, and for the
// interviewer the marks ("marks=count:h,fifo:p"), so that the link keeps
// the sheet. The candidate's link carries no marks.
func (iv Interview) Query(role Role) string {
	q := "?interview=" + strconv.FormatInt(iv.Start, 10)
	if iv.Length != DefaultInterviewLength && iv.Length > 0 {
		q += "&len=" + strconv.Itoa(int(iv.Length/time.Minute)) + "m"
	}
	q += "&role=" + string(role)
	if role == Interviewer && len(iv.Marks) > 0 {
		var marks []string
		for _, rl := range Rubric() {
			for _, p := range rl.Points {
				if m := iv.Marks[p.ID]; m != Unmarked {
					marks = append(marks, p.ID+":"+markCodes[m])
				}
			}
		}
		q += "&marks=" + strings.Join(marks, ",")
	}
	return q
}

// ParseInterview reads a mock interview from an address's query and
// fragment (a parameter in the fragment wins): interview=START (Unix
// milliseconds, or "new" to begin now: Start 0), len=Nm (5 to 180
// minutes), role=candidate|interviewer (the interviewer by default) and
// marks. ok is false when the address asks for no interview. A value
// that cannot be read is reported and left out; the rest holds.
func ParseInterview(query, fragment string) (iv Interview, ok bool, errs []error) {
	params := url.Values{}
	for _, part := range []string{query, fragment} {
		v, _ := url.ParseQuery(strings.TrimLeft(part, "?#"))
		for k, vs := range v {
			params[k] = vs
		}
	}
	start, asked := params["interview"]
	if !asked {
		return Interview{}, false, nil
	}
	iv = NewInterview(0, Interviewer)
	bad := func(param, msg string) {
		errs = append(errs, fmt.Errorf("practice: interview link: %s: %s", param, msg))
	}
	if s := start[0]; s != "new" && s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			bad("interview", fmt.Sprintf("want a start in Unix milliseconds or new, got %q", clip(s, 40)))
		} else {
			iv.Start = n
		}
	}
	if v := params.Get("len"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 5*time.Minute || d > 3*time.Hour {
			bad("len", fmt.Sprintf("want 5m to 180m, got %q", clip(v, 40)))
		} else {
			iv.Length = d
		}
	}
	switch v := params.Get("role"); v {
	case "", string(Interviewer):
	case string(Candidate):
		iv.Role = Candidate
	default:
		bad("role", fmt.Sprintf("want candidate or interviewer, got %q", clip(v, 40)))
	}
	if v := params.Get("marks"); v != "" && iv.Role == Interviewer {
		for _, kv := range strings.Split(v, ",") {
			id, code, _ := strings.Cut(kv, ":")
			m, _ := MarkCode(code)
			if err := iv.Mark(id, m); err != nil || m == Unmarked {
				bad("marks", fmt.Sprintf("%q is no point:mark (h, p or n)", clip(kv, 40)))
			}
		}
	}
	return iv, true, errs
}

// levelPasses reports whether the marks of a level's points make it: two
// thirds heard or more, and none not heard.
func (iv Interview) levelPasses(rl RubricLevel) bool {
	heard := 0
	for _, p := range rl.Points {
		switch iv.Marks[p.ID] {
		case Heard:
			heard++
		case NotHeard:
			return false
		}
	}
	return 3*heard >= 2*len(rl.Points)
}

// Reached returns the highest level the marks make, counting up from L4
// (a level passes with two thirds of its points heard and none not
// heard); "" if not even L4.
func (iv Interview) Reached() string {
	reached := ""
	for _, rl := range Rubric() {
		if !iv.levelPasses(rl) {
			break
		}
		reached = rl.Name + " (" + string(rl.Level) + ")"
	}
	return reached
}

// Summary writes the interview for the interviewer to keep, as plain
// text: the time, the level reached, and every point of the rubric with
// its mark, level by level.
func (iv Interview) Summary(now int64) string {
	c := iv.ClockAt(now)
	var b strings.Builder
	fmt.Fprintf(&b, "Mock interview, %s of %s", minSec(c.Elapsed), minSec(iv.Length))
	if c.Over {
		b.WriteString(" (time is up)")
	}
	reached := iv.Reached()
	if reached == "" {
		reached = "not yet L4"
	}
	fmt.Fprintf(&b, "\nReached: %s\n", reached)
	for _, rl := range Rubric() {
		count := map[Mark]int{}
		for _, p := range rl.Points {
			count[iv.Marks[p.ID]]++
		}
		fmt.Fprintf(&b, "\n%s (%s): %d heard, %d partly, %d not, %d unmarked\n", rl.Name, rl.Level,
			count[Heard], count[Partly], count[NotHeard], count[Unmarked])
		for _, p := range rl.Points {
			fmt.Fprintf(&b, "  %-8s %s: %s\n", iv.Marks[p.ID], p.ID, p.Text)
		}
	}
	return b.String()
}

// SheetHTML returns the interviewer's scoring sheet as HTML: every point
// of the rubric, level by level (the level of stage first), each with
// three buttons, heard, partly and not, the one marked pressed
// (aria-pressed) and each naming its point and mark in data attributes,
// for the page to forward a click to [Interview.Mark].
func (iv Interview) SheetHTML(stage int) string {
	var cur Level
	if stages := InterviewStages(); stage < len(stages) {
		cur = stages[stage].Level
	}
	levels := Rubric()
	slices.SortStableFunc(levels, func(a, b RubricLevel) int {
		switch {
		case a.Level == cur && b.Level != cur:
			return -1
		case b.Level == cur && a.Level != cur:
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, rl := range levels {
		class := "interview-level"
		if rl.Level == cur {
			class += " current"
		}
		fmt.Fprintf(&b, `<section class="%s" data-level="%s"><h4>%s <span class="muted">· %s</span></h4><ul>`,
			class, rl.Level, escape.HTML(rl.Name), rl.Level)
		for _, p := range rl.Points {
			id := escape.HTML(p.ID)
			fmt.Fprintf(&b, `<li data-point="%s"><span class="interview-point">%s</span><span class="interview-marks" role="group" aria-label="%s">`,
				id, escape.HTML(p.Text), id)
			for _, m := range []Mark{Heard, Partly, NotHeard} {
				fmt.Fprintf(&b, `<button type="button" data-point="%s" data-mark="%s" aria-pressed="%t">%s</button>`,
					id, markCodes[m], iv.Marks[p.ID] == m, m)
			}
			b.WriteString("</span></li>")
		}
		b.WriteString("</ul></section>")
	}
	return b.String()
}

// MarkCode reads a mark as SheetHTML's buttons name it ("h", "p", "n").
func MarkCode(code string) (Mark, bool) {
	for m, c := range markCodes {
		if c == code {
			return m, true
		}
	}
	return Unmarked, false
}
