package practice

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/internal/escape"
	"github.com/dagq/dagq/internal/wording"
)

// The practice panel's changing parts as HTML, for the page to set whole:
// one string per part costs the WebAssembly far less than building each
// element with its own calls into the browser, and the markup is tested
// here. Every text is escaped.

// esc escapes a text for HTML, attributes included.
func esc(s string) string { return escape.HTML(s) }

// InputsHTML returns the inputs a question asks with, nothing picked:
// radio buttons named "choice" (next, with "nothing" valued "*"; reason,
// timer, pick; accepted/refused for a cycle, with a text input named
// "path" whose hint names no task); one select per task named
// "task:NAME", data-task its name, whose value is a state or "" for no
// change (changes, with a "nothing changes" checkbox named "nothing"), or
// "+" for released, a root, or "" for not answered yet (redrive); a
// textarea named "text" (why). [Question.ParseAnswer] reads them back.
func (q Question) InputsHTML() string {
	var b strings.Builder
	radio := func(value, label string) {
		b.WriteString(`<label class="choice"><input type="radio" name="choice" value="` + esc(value) + `"> ` + esc(label) + `</label>`)
	}
	row := func(task, note string, options [][2]string) {
		b.WriteString(`<label class="task-row"><span class="task-name">` + esc(task) + `</span>`)
		if note != "" {
			b.WriteString(`<span class="muted small">` + esc(note) + `</span>`)
		}
		b.WriteString(`<select name="` + esc(fieldTask+task) + `" data-task="` + esc(task) + `" aria-label="` + esc(task) + `">`)
		for _, o := range options {
			b.WriteString(`<option value="` + esc(o[0]) + `">` + esc(o[1]) + `</option>`)
		}
		b.WriteString(`</select></label>`)
	}
	switch q.Kind {
	case AskNext:
		for _, c := range q.Choices {
			radio(c, c)
		}
		radio(nothingValue, "nothing (no task is READY)")
	case AskReason, AskTimer, AskPick:
		for _, c := range q.Choices {
			radio(c, c)
		}
	case AskChanges:
		for _, t := range q.Tasks {
			was := q.was[t]
			note := "now " + string(was)
			if was == "" {
				note = "arriving"
			}
			opts := [][2]string{{"", "no change"}}
			for _, s := range q.States {
				if s != was {
					opts = append(opts, [2]string{string(s), "→ " + string(s)})
				}
			}
			row(t, note, opts)
		}
		b.WriteString(`<label class="choice nothing"><input type="checkbox" name="nothing" value="1"> nothing changes</label>`)
	case AskCycle:
		radio(VerdictAccepted, "accepted")
		radio(VerdictRefused, "refused")
		b.WriteString(`<label class="path">The cycle, if any: <input name="path" type="text" placeholder="the tasks along the loop, in order" autocomplete="off" spellcheck="false"></label>`)
		b.WriteString(`<p class="muted small form-hint">` + esc(CycleForm) + `</p>`)
	case AskRedrive:
		for _, t := range q.Tasks {
			opts := [][2]string{{"", "choose…"}, {releaseValue, "released"}}
			for _, r := range q.Roots {
				opts = append(opts, [2]string{r, "stays blocked by " + r})
			}
			row(t, "", opts)
		}
	case AskWhy:
		b.WriteString(`<label class="why-text">Your answer, as you would say it: <textarea name="text" rows="4" spellcheck="true"></textarea></label>`)
	}
	return b.String()
}

// InputsHTML returns the inputs of the current question as the page shows
// them: [Question.InputsHTML], except for a "why" whose words are given:
// then the words, the model answer, and a checkbox named "heard" per
// point, valued its number, none ticked.
func (p *Practice) InputsHTML() string {
	q, ok := p.Current()
	if !ok {
		return ""
	}
	if q.Kind != AskWhy || p.draft == "" {
		return q.InputsHTML()
	}
	var b strings.Builder
	b.WriteString(`<div class="why-reveal"><p class="muted small">You said:</p><blockquote class="said">` + esc(p.draft) + `</blockquote>`)
	b.WriteString(`<p class="muted small">A model answer:</p><blockquote class="model">` + esc(q.Model) + `</blockquote>`)
	b.WriteString(`<p>Tick each point your answer made, as an interviewer would hear it:</p>`)
	for i, pt := range q.Points {
		b.WriteString(`<label class="choice point"><input type="checkbox" name="heard" value="` + strconv.Itoa(i) + `"> ` + esc(pt) + `</label>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// CheckLabel returns what the Check button says: "Grade my answer" once a
// "why" shows its points to tick, else "Check".
func (p *Practice) CheckLabel() string {
	if q, ok := p.Current(); ok && q.Kind == AskWhy && p.draft != "" && !p.graded {
		return "Grade my answer"
	}
	return "Check"
}

// ResultHTML returns a graded answer as the page shows it: a verdict
// (class "verdict": "Right." or "Not quite." with the answer given and
// the right one), what was wrong with it (class "mistake"), the form a
// cycle is written in when one was wrong, and the why (class "why"). A
// "why" shows the points made and missed, and the model answer.
func (q Question) ResultHTML(r Result) string {
	var b strings.Builder
	if q.Kind == AskWhy {
		n := len(r.Given.Heard)
		verdict := "Right: you made " + strconv.Itoa(n) + " of " + wording.Plural(len(q.Points), "point") + "."
		if !r.Correct {
			verdict = "Not quite: you made " + strconv.Itoa(n) + " of " + wording.Plural(len(q.Points), "point") + "; an interviewer listens for at least half."
		}
		b.WriteString(`<p class="verdict">` + esc(verdict) + `</p><ul class="points">`)
		for i, pt := range q.Points {
			mark, class := "✗ ", "missed"
			if slices.Contains(r.Given.Heard, i) {
				mark, class = "✓ ", "made"
			}
			b.WriteString(`<li class="` + class + `">` + esc(mark+pt) + `</li>`)
		}
		b.WriteString(`</ul><p class="why">` + esc(r.Why) + `</p>`)
		return b.String()
	}
	verdict := "Right."
	if !r.Correct {
		verdict = "Not quite. You said: " + FormatAnswer(q, r.Given) + ". The answer: " + FormatAnswer(q, r.Want) + "."
	}
	b.WriteString(`<p class="verdict">` + esc(verdict) + `</p>`)
	if r.Mistake != "" {
		b.WriteString(`<p class="mistake">` + esc(r.Mistake) + `</p>`)
	}
	b.WriteString(`<p class="why">` + esc(r.Why) + `</p>`)
	return b.String()
}

// ProbeHTML returns what the interviewer's view shows with a question:
// the right answer, for a "why" the points to listen for, and what to
// probe next.
func (q Question) ProbeHTML() string {
	out := `<p>Answer: ` + esc(FormatAnswer(q, q.Want)) + `</p>`
	if len(q.Points) > 0 {
		out += `<p>Listen for:</p><ul>`
		for _, pt := range q.Points {
			out += `<li>` + esc(pt) + `</li>`
		}
		out += `</ul>`
	}
	return out + `<p>Probe next: ` + esc(q.Probe) + `</p>`
}

// HTML returns the summary as the page shows it: the score and whether
// it passes, a sentence, the topics missed most, every answer given beside
// the right one (class "answers", ✓ or ✗ each), and each missed step with
// a link to it in the playground (relative to the page) and the rule it
// missed.
func (s Summary) HTML() string {
	var b strings.Builder
	pass := "not passed"
	if s.Passed {
		pass = "passed"
	}
	b.WriteString(`<h3>` + esc(s.Title) + `: ` + strconv.Itoa(s.Right) + ` of ` + strconv.Itoa(s.Total) + ` right (` + strconv.Itoa(s.Percent) + `%), ` + pass + `</h3>`)
	b.WriteString(`<p>` + esc(s.Message) + `</p>`)
	if len(s.Topics) > 0 {
		var parts []string
		for _, tc := range s.Topics {
			parts = append(parts, tc.Name+" ("+strconv.Itoa(tc.Count)+")")
		}
		b.WriteString(`<p class="muted">Missed most: ` + esc(strings.Join(parts, ", ")) + `</p>`)
	}
	if len(s.Answers) > 0 {
		b.WriteString(`<ol class="answers">`)
		for _, a := range s.Answers {
			mark, class := "✗", "wrong"
			if a.Correct {
				mark, class = "✓", "right"
			}
			b.WriteString(`<li class="` + class + `"><span class="mark">` + mark + `</span> <span class="prompt">` + esc(a.Prompt) + `</span>`)
			b.WriteString(`<br><span class="said">You: ` + esc(a.Said) + `</span>`)
			if !a.Correct {
				b.WriteString(`<br><span class="want">Answer: ` + esc(a.Want) + `</span>`)
			}
			b.WriteString(`</li>`)
		}
		b.WriteString(`</ol>`)
	}
	if len(s.Missed) > 0 {
		b.WriteString(`<ol class="missed">`)
		for _, m := range s.Missed {
			label := "step " + strconv.Itoa(m.Step) + ": " + m.Command
			if k := m.Question.Kind; k == AskWhy || k == AskPick {
				label = "after step " + strconv.Itoa(m.Step) + ": " + m.Prompt
			}
			b.WriteString(`<li><a href="./` + esc(m.Link) + `" target="_blank" rel="noopener">` + esc(label) +
				`</a><p class="why">` + esc(m.Topic.Name()+" — "+m.Why) + `</p></li>`)
		}
		b.WriteString(`</ol>`)
	}
	return b.String()
}
