package practice

import (
	"github.com/dagq/dagq/internal/playground"
	"slices"
	"strconv"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"

	"github.com/dagq/dagq/internal/wording"
)

// Practice is one exercise being practised: its session, the questions
// asked before the steps that change something, and the answers graded
// so far. The page shows the session at the step before the current
// question, takes an answer ([Practice.Answer]), plays the step and shows
// the result, then moves on ([Practice.Next]). A Practice is not safe for
// concurrent use.
//
// Its states, decided in [Practice.Answer] and [Practice.Next] only:
// asking (a question waits for its answer), graded (the answer's result is
// shown, the step played), done (every question answered: the summary).
type Practice struct {
	ex          Exercise
	s           *session.Session
	questions   []Question
	results     []Result
	at          int  // the question being asked or just graded
	graded      bool // the answer to questions[at] is in
	interviewer bool
	// draft is, for an AskWhy question, the learner's words once given:
	// the model answer and its points are then shown, to tick.
	draft string
}

// NewPractice starts practising an exercise: the questions of its steps
// ([Questions]), at most a third of them about dependency counting or
// FIFO order ([balance]), then, for a written exercise, the questions
// written for it ([WrittenQuestions]). With interviewer set, the page
// shows the answers and a hint of what to probe next. It fails only
// for a script that does not run, which no exercise of the book or of
// [Generate] is.
//
// The cost is that of running the script and of [Questions] on each step.
func NewPractice(ex Exercise, interviewer bool) (*Practice, error) {
	s, err := session.New(ex.Text, scenario.Options{})
	if err != nil {
		return nil, err
	}
	p := &Practice{ex: ex, s: s, interviewer: interviewer}
	for k := 1; k <= s.Len(); k++ {
		p.questions = append(p.questions, Questions(s, k)...)
	}
	if ex.Set == SetBook {
		p.questions = append(p.questions, WrittenQuestions(ex.Level, ex.Name, s.Len())...)
	}
	p.questions = balance(p.questions)
	for i := range p.questions {
		p.questions[i].Rubric = RubricFor(ex.Level, p.questions[i])
	}
	p.show()
	return p, nil
}

// Exercise returns the exercise practised.
func (p *Practice) Exercise() Exercise { return p.ex }

// Session returns the session the page draws; its cursor is where the
// practice is.
func (p *Practice) Session() *session.Session { return p.s }

// Interviewer reports whether the answers and the probes are shown.
func (p *Practice) Interviewer() bool { return p.interviewer }

// Questions returns every question of the exercise, in order.
func (p *Practice) Questions() []Question { return p.questions }

// Len returns how many questions the exercise asks.
func (p *Practice) Len() int { return len(p.questions) }

// Index returns the number of the current question, from 0.
func (p *Practice) Index() int { return p.at }

// Current returns the question being asked, or whose result is shown;
// false when the exercise is done.
func (p *Practice) Current() (Question, bool) {
	if p.at >= len(p.questions) {
		return Question{}, false
	}
	return p.questions[p.at], true
}

// Graded returns the result of the current question once it is answered.
func (p *Practice) Graded() (Result, bool) {
	if !p.graded || p.at >= len(p.questions) {
		return Result{}, false
	}
	return p.results[p.at], true
}

// Done reports whether every question is answered.
func (p *Practice) Done() bool { return p.at >= len(p.questions) }

// Answer grades the answer to the current question and plays its step:
// the session shows what really happened. A second answer to the same
// question changes nothing and returns the first result; so does an
// answer once the exercise is done (with ok false).
func (p *Practice) Answer(a Answer) (r Result, ok bool) {
	q, ok := p.Current()
	if !ok {
		return Result{}, false
	}
	if p.graded {
		return p.results[p.at], true
	}
	r = q.Grade(a)
	r.Said = said(q, a)
	p.results = append(p.results, r)
	p.graded = true
	p.draft = ""
	p.show()
	return r, true
}

// Next moves on to the next question once the current one is graded: the
// steps up to just before its step play. It reports false when the
// current question waits for its answer, or when the exercise is done.
func (p *Practice) Next() bool {
	if !p.graded || p.Done() {
		return false
	}
	p.at++
	p.graded = false
	p.draft = ""
	p.show()
	return true
}

// show moves the session's cursor to where the practice is: before the
// current question's step while it is asked, at it once graded, at the
// end when done.
func (p *Practice) show() {
	switch q, ok := p.Current(); {
	case !ok:
		p.s.Seek(playground.StepEnd)
	case p.graded:
		p.s.Seek(q.Step)
	default:
		p.s.Seek(q.AskedAt())
	}
}

// AskedAt returns the step the page shows while the question is asked:
// the one before its step, or, for a written question, asked once every
// step has played, its step, the last.
func (q Question) AskedAt() int {
	if q.Kind == AskWhy || q.Kind == AskPick {
		return q.Step
	}
	return q.Step - 1
}

// Score returns the answers right and the answers given so far.
func (p *Practice) Score() (right, answered int) {
	for _, r := range p.results {
		if r.Correct {
			right++
		}
	}
	return right, len(p.results)
}

// Streak returns how many answers in a row were right, up to the last one.
func (p *Practice) Streak() int {
	n := 0
	for i := len(p.results) - 1; i >= 0 && p.results[i].Correct; i-- {
		n++
	}
	return n
}

// Passed reports whether the answers so far pass the exercise: at least
// [PassPercent] of them right, and at least one given.
func (p *Practice) Passed() bool {
	right, total := p.Score()
	return total > 0 && 100*right >= PassPercent*total
}

// percent returns right of total as a percentage rounded to the nearest
// (2 of 3 is 67%), but never up to the pass mark when short of it; 0 of
// none is 0.
func percent(right, total int) int {
	if total <= 0 {
		return 0
	}
	pc := (200*right + total) / (2 * total)
	if 100*right < PassPercent*total {
		pc = min(pc, PassPercent-1)
	}
	return pc
}

// PassPercent is the share of right answers, in percent, that passes an
// exercise: what the picker's ✓ needs.
const PassPercent = 80

// Answered is a question answered, for the summary: what it asked, the
// answer given and the right one.
type Answered struct {
	Index   int // the question's number, from 0
	Step    int
	Command string
	Prompt  string
	Kind    Kind
	Said    string // the answer given, as [FormatAnswer] writes it
	Want    string // the right answer, written the same way
	Correct bool
}

// Missed is a question answered wrong, for the summary: what it asked,
// the rule, and a link to the step in the playground.
type Missed struct {
	Index    int    // the question's number, from 0
	Step     int    // the step it asked about
	Command  string // the command of that step
	Prompt   string
	Topic    Topic
	Why      string
	Link     string // a playground address showing the exercise at that step
	Question Question
}

// TopicCount is how often a topic was missed.
type TopicCount struct {
	Topic Topic
	Name  string
	Count int
}

// Summary is the end of an exercise: the score, and what was missed.
type Summary struct {
	Title   string
	Right   int
	Total   int
	Percent int
	Passed  bool         // [Practice.Passed]
	Answers []Answered   // every answer given, in order
	Missed  []Missed     // in order of the questions
	Topics  []TopicCount // the topics missed, most often first
	Message string       // one sentence to close with
}

// Summary returns the summary of the answers so far (the end-of-set
// summary once [Practice.Done]).
func (p *Practice) Summary() Summary {
	right, total := p.Score()
	sum := Summary{Title: p.ex.Title, Right: right, Total: total, Passed: p.Passed()}
	sum.Percent = percent(right, total)
	var missed []Topic
	for i, r := range p.results {
		q := p.questions[i]
		sum.Answers = append(sum.Answers, Answered{Index: i, Step: q.Step, Command: q.Command, Prompt: q.Prompt, Kind: q.Kind,
			Said: r.Said, Want: FormatAnswer(q, q.Want), Correct: r.Correct})
		if r.Correct {
			continue
		}
		link := playground.Link{Script: p.ex.Text, HasScript: true, Step: q.Step, HasStep: true}
		sum.Missed = append(sum.Missed, Missed{Index: i, Step: q.Step, Command: q.Command, Prompt: q.Prompt,
			Topic: q.Topic, Why: r.Why, Link: link.Fragment(), Question: q})
		missed = append(missed, q.Topic)
	}
	sum.Topics = countTopics(missed)
	switch {
	case total == 0:
		sum.Message = "No answers yet."
	case right == total:
		sum.Message = "All " + strconv.Itoa(total) + " right: passed. Try the next exercise, or a random one."
	case sum.Passed:
		sum.Message = strconv.Itoa(right) + " of " + strconv.Itoa(total) + " right: passed. Open a missed step to see it again, with its explanation."
	default:
		sum.Message = strconv.Itoa(right) + " of " + strconv.Itoa(total) + " right: not passed yet (" + strconv.Itoa(PassPercent) + "% passes). Open a missed step to see it again, with its explanation, and try it again."
	}
	return sum
}

// countTopics counts topics, most often first, ties in the order of
// [Topics].
func countTopics(ts []Topic) []TopicCount {
	var out []TopicCount
	for _, t := range Topics() {
		n := 0
		for _, u := range ts {
			if u == t {
				n++
			}
		}
		if n > 0 {
			out = append(out, TopicCount{Topic: t, Name: t.Name(), Count: n})
		}
	}
	sortCounts(out)
	return out
}

// sortCounts sorts topic counts most often first, ties kept in order.
func sortCounts(c []TopicCount) {
	slices.SortStableFunc(c, func(a, b TopicCount) int { return b.Count - a.Count })
}

// minCounting is how many counting or FIFO questions [balance] keeps
// however few other questions an exercise asks: an exercise about FIFO
// order asks about it.
const minCounting = 1

// balance keeps about a third of a practice's questions about dependency
// counting or FIFO order: with O other questions it keeps the O/2 of them,
// or [minCounting] if more, with most to decide (the longest READY line for a next, the
// most changes for a changes question, the first of each kind on ties),
// in their order. Every other question is kept.
//
// The cost is O(n log n) for n questions.
func balance(qs []Question) []Question {
	counting := func(q Question) bool { return q.Counting() }
	var idx []int
	for i, q := range qs {
		if counting(q) {
			idx = append(idx, i)
		}
	}
	keep := max((len(qs)-len(idx))/2, minCounting)
	if len(idx) <= keep {
		return qs
	}
	weight := func(q Question) int {
		if q.Kind == AskNext {
			return 2 * len(q.line)
		}
		return 2*len(q.Want.Changes) + 1
	}
	slices.SortStableFunc(idx, func(a, b int) int { return weight(qs[b]) - weight(qs[a]) })
	kept := map[int]bool{}
	for _, i := range idx[:keep] {
		kept[i] = true
	}
	var out []Question
	for i, q := range qs {
		if !counting(q) || kept[i] {
			out = append(out, q)
		}
	}
	return out
}

// Counting reports whether a question asks about dependency counting or
// FIFO order from a step: what [balance] keeps to a third. A written
// question, asking the reason behind the rule, never does.
func (q Question) Counting() bool {
	return q.Kind != AskWhy && q.Kind != AskPick && (q.Topic == TopicOrder || q.Topic == TopicFIFO)
}

// said writes an answer given, for the summary: as [FormatAnswer] does,
// and for a "why", with the points ticked.
func said(q Question, a Answer) string {
	out := FormatAnswer(q, a)
	if q.Kind == AskWhy {
		out += " (" + strconv.Itoa(len(a.Heard)) + " of " + wording.Plural(len(q.Points), "point") + " made)"
	}
	return out
}
