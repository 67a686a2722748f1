package playground

import (
	"html"
	"strconv"
	"strings"
)

// The practice panel's changing parts as HTML, for the page to set whole:
// one string per part costs the WebAssembly far less than building each
// element with its own calls into the browser, and the markup is tested
// here. Every text is escaped.

// esc escapes a text for HTML, attributes included.
func esc(s string) string { return html.EscapeString(s) }

// InputsHTML returns the inputs a question asks with: radio buttons named
// "choice" (next, reason, timer; accepted/refused for a cycle, with a text
// input named "path"), or one select per task, data-task its name, whose
// value is a state or "" for no change (changes), or a root or "" for
// released (redrive).
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
		b.WriteString(`<select data-task="` + esc(task) + `" aria-label="` + esc(task) + `">`)
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
		radio("", "nothing (no task is READY)")
	case AskReason, AskTimer:
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
	case AskCycle:
		radio("accepted", "accepted")
		radio("refused", "refused")
		b.WriteString(`<label class="path">The cycle, if any: <input name="path" type="text" placeholder="e.g. c → a → b → c" autocomplete="off" spellcheck="false"></label>`)
	case AskRedrive:
		for _, t := range q.Tasks {
			opts := [][2]string{{"", "released"}}
			for _, r := range q.Roots {
				opts = append(opts, [2]string{r, "stays blocked by " + r})
			}
			row(t, "", opts)
		}
	}
	return b.String()
}

// ResultHTML returns a graded answer as the page shows it: a verdict
// (class "verdict": "Right." or "Not quite." with the right answer) and
// the why (class "why").
func (q Question) ResultHTML(r Result) string {
	verdict := "Right."
	if !r.Correct {
		verdict = "Not quite. The answer: " + FormatAnswer(q, r.Want) + "."
	}
	return `<p class="verdict">` + esc(verdict) + `</p><p class="why">` + esc(r.Why) + `</p>`
}

// ProbeHTML returns what the interviewer's view shows with a question:
// the right answer, and what to probe next.
func (q Question) ProbeHTML() string {
	return `<p>Answer: ` + esc(FormatAnswer(q, q.Want)) + `.</p><p>Probe next: ` + esc(q.Probe) + `</p>`
}

// HTML returns the summary as the page shows it: the score, a sentence,
// the topics missed most, and each missed step with a link to it in the
// playground (relative to the page) and the rule it missed.
func (s Summary) HTML() string {
	var b strings.Builder
	b.WriteString(`<h3>` + esc(s.Title) + `: ` + strconv.Itoa(s.Right) + ` of ` + strconv.Itoa(s.Total) + ` right (` + strconv.Itoa(s.Percent) + `%)</h3>`)
	b.WriteString(`<p>` + esc(s.Message) + `</p>`)
	if len(s.Topics) > 0 {
		var parts []string
		for _, tc := range s.Topics {
			parts = append(parts, tc.Name+" ("+strconv.Itoa(tc.Count)+")")
		}
		b.WriteString(`<p class="muted">Missed most: ` + esc(strings.Join(parts, ", ")) + `</p>`)
	}
	if len(s.Missed) > 0 {
		b.WriteString(`<ol class="missed">`)
		for _, m := range s.Missed {
			b.WriteString(`<li><a href="./` + esc(m.Link) + `" target="_blank" rel="noopener">step ` + strconv.Itoa(m.Step) + `: ` + esc(m.Command) +
				`</a><p class="why">` + esc(m.Topic.Name()+" — "+m.Why) + `</p></li>`)
		}
		b.WriteString(`</ol>`)
	}
	return b.String()
}
