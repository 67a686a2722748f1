package site_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	pg "github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/practice"
)

// fillAnswer sets the practice form to an answer, as a learner would by
// clicking, picking and typing; for a "why", the words only.
func fillAnswer(t *testing.T, ctx context.Context, q practice.Question, a practice.Answer) {
	t.Helper()
	js := func(expr string) { eval[bool](t, ctx, "(() => { "+expr+"; return true })()") }
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	pick := func(v string) {
		js(`document.querySelector('#practice-inputs input[name=choice][value=' + CSS.escape(` + quote(v) + `) + ']').click()`)
	}
	setSel := func(task, v string) {
		js(`const s = document.querySelector('#practice-inputs select[data-task=' + CSS.escape(` + quote(task) + `) + ']'); s.value = ` + quote(v))
	}
	switch q.Kind {
	case practice.AskNext:
		if a.Nothing {
			pick("*")
		} else {
			pick(a.Task)
		}
	case practice.AskReason, practice.AskTimer, practice.AskPick:
		pick(a.Choice)
	case practice.AskChanges:
		for task, st := range a.Changes {
			setSel(task, string(st))
		}
		if a.Nothing {
			js(`document.querySelector('#practice-inputs input[name=nothing]').click()`)
		}
	case practice.AskCycle:
		pick(a.Verdict)
		js(`document.querySelector('#practice-inputs input[name=path]').value = ` + quote(strings.Join(a.Path, " → ")))
	case practice.AskRedrive:
		for _, task := range a.Released {
			setSel(task, "+")
		}
		for task, root := range a.Stay {
			setSel(task, root)
		}
	case practice.AskWhy:
		js(`document.querySelector('#practice-inputs textarea[name=text]').value = ` + quote(a.Text))
	}
}

// answerInPage gives an answer and checks it, as a learner does: for a
// "why", the words, Check, then the points ticked and Check again.
func answerInPage(t *testing.T, ctx context.Context, q practice.Question, a practice.Answer) {
	t.Helper()
	fillAnswer(t, ctx, q, a)
	click(t, ctx, "#practice-check")
	if q.Kind != practice.AskWhy {
		return
	}
	waitFor(t, ctx, `document.querySelectorAll('#practice-inputs input[name=heard]').length > 0`)
	if got := text(t, ctx, "#practice-check"); got != "Grade my answer" {
		t.Errorf("a why's second Check says %q", got)
	}
	for _, n := range a.Heard {
		click(t, ctx, `#practice-inputs input[name=heard][value="`+strconv.Itoa(n)+`"]`)
	}
	click(t, ctx, "#practice-check")
}

// wrongFor returns a wrong answer to a question, as a learner might give.
func wrongFor(q practice.Question) practice.Answer {
	w := q.Want
	switch q.Kind {
	case practice.AskNext:
		for _, c := range q.Choices {
			if c != w.Task {
				return practice.Answer{Task: c}
			}
		}
		return practice.Answer{Nothing: true}
	case practice.AskReason, practice.AskTimer, practice.AskPick:
		for _, c := range q.Choices {
			if c != w.Choice {
				return practice.Answer{Choice: c}
			}
		}
	case practice.AskChanges:
		if len(w.Changes) > 0 {
			return practice.Answer{Nothing: true}
		}
		for _, task := range q.Tasks {
			for _, st := range q.States {
				if st != q.Was(task) {
					return practice.Answer{Changes: map[string]core.State{task: st}}
				}
			}
		}
	case practice.AskCycle:
		if w.Verdict == practice.VerdictAccepted {
			return practice.Answer{Verdict: practice.VerdictRefused}
		}
		return practice.Answer{Verdict: practice.VerdictAccepted}
	case practice.AskRedrive:
		if len(w.Stay) > 0 {
			return practice.Answer{Released: q.Tasks}
		}
		stay := map[string]string{}
		for _, task := range q.Tasks {
			stay[task] = q.Roots[0]
		}
		return practice.Answer{Stay: stay}
	case practice.AskWhy:
		return practice.Answer{Text: "I am not sure."}
	}
	return practice.Answer{}
}

// TestPracticeL5ExerciseScoresExplainsAndKeepsProgress answers a whole
// L5 exercise in the page, some answers left blank (wrong) and the rest
// right, and checks the score, the explanations, the summary's links, and
// that the progress survives a reload; then it touches every other
// control of practice mode.
func TestPracticeL5ExerciseScoresExplainsAndKeepsProgress(t *testing.T) {
	ctx, base := playground(t)
	ex, n, _ := practice.FindExercise(pg.L5, "diamond-with-another-dead-root")
	p, err := practice.NewPractice(ex, false)
	if err != nil {
		t.Fatal(err)
	}
	open(t, ctx, base, "/?practice=L5&set=book&ex="+strconv.Itoa(n))
	eval[bool](t, ctx, `(localStorage.removeItem("`+practice.ProgressKey+`"), true)`)
	waitFor(t, ctx, `document.body.classList.contains("practicing") && !document.querySelector("#practice").hidden`)
	if got := eval[string](t, ctx, `document.querySelector('#practice-title').textContent`); got != ex.Title {
		t.Fatalf("practice title %q, want %q", got, ex.Title)
	}

	right, wrong, clicked, pointed := 0, 0, 0, 0
	for i, q := range p.Questions() {
		waitFor(t, ctx, `document.querySelector('#practice-prompt').textContent === `+strconv.Quote(q.Prompt)+` && !document.querySelector('#practice-check').hidden`)
		asked := q.AskedAt()
		if step := stepShown(t, ctx); step != asked {
			t.Errorf("question %d is asked at step %d, want %d", i, step, asked)
		}
		if q.Kind == practice.AskChanges && i > 0 {
			// A click on a drawn task picks its row, and acts on nothing.
			task := q.Tasks[0]
			if eval[bool](t, ctx, `!!document.querySelector('#graph g[data-task="`+task+`"]:not(.ghost)')`) {
				click(t, ctx, `#graph g[data-task="`+task+`"]`)
				clicked++
				if got := eval[string](t, ctx, `document.activeElement.dataset.task || ""`); got != task {
					t.Errorf("question %d: a click on %s focused %q", i, task, got)
				}
				if step := stepShown(t, ctx); step != q.Step-1 {
					t.Errorf("question %d: a click on %s moved the page to step %d", i, task, step)
				}
			}
		}
		answerWrong := i%3 == 1
		if i == 1 {
			// A blank Check grades nothing: it says what the answer needs.
			click(t, ctx, "#practice-check")
			waitFor(t, ctx, `!document.querySelector('#practice-result').hidden`)
			need := q.Missing(practice.Answer{})
			if got := text(t, ctx, "#practice-result"); got != need {
				t.Errorf("a blank Check says %q, want %q", got, need)
			}
			if bg := eval[string](t, ctx, `getComputedStyle(document.querySelector('#practice-result')).backgroundColor`); bg != "rgb(255, 246, 224)" {
				t.Errorf("the need is drawn on %s", bg)
			}
			if h := eval[float64](t, ctx, `document.querySelector('#practice-result').getBoundingClientRect().height`); h < 10 {
				t.Errorf("the need is %v px high", h)
			}
			if !shown(t, ctx, "#practice-check") || shown(t, ctx, "#practice-next") || stepShown(t, ctx) != q.AskedAt() {
				t.Error("a blank Check moved the exercise on")
			}
		}
		a := q.Want
		if answerWrong {
			a = wrongFor(q)
			wrong++
		} else {
			right++
		}
		answerInPage(t, ctx, q, a)
		waitFor(t, ctx, `!document.querySelector('#practice-result').hidden && !document.querySelector('#practice-next').hidden`)
		verdict := eval[string](t, ctx, `document.querySelector('#practice-result .verdict').textContent`)
		why := eval[string](t, ctx, `document.querySelector('#practice-result .why').textContent`)
		if answerWrong && q.Kind != practice.AskWhy && !strings.Contains(verdict, "You said: "+practice.FormatAnswer(q, a)) {
			t.Errorf("question %d (%s): the verdict %q does not say the answer given", i, q.Kind, verdict)
		}
		// A wrong answer's feedback points at the tasks it is about, drawn
		// with a thick orange border; nothing else is marked.
		want := slices.Sorted(slices.Values(q.Grade(a).Point))
		var got []string
		for try := 0; try < 20; try++ { // the border's colour and width take 0.35 s to change
			got = eval[[]string](t, ctx, `[...document.querySelectorAll('#graph g.task')].filter(g => {
				const s = getComputedStyle(g.querySelector('rect')); return s.strokeWidth === "4px" && s.stroke === "rgb(213, 94, 0)" }).map(g => g.dataset.task).sort()`)
			if strings.Join(got, " ") == strings.Join(want, " ") {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("question %d (%s): the drawing marks %v, want %v", i, q.Kind, got, want)
		}
		pointed += len(got)
		if answerWrong != strings.HasPrefix(verdict, "Not quite") || why != q.Why {
			t.Errorf("question %d (%s): verdict %q, why %q; want wrong=%v and why %q", i, q.Kind, verdict, why, answerWrong, q.Why)
		}
		if step := stepShown(t, ctx); step != q.Step {
			t.Errorf("question %d graded at step %d, want %d", i, step, q.Step)
		}
		click(t, ctx, "#practice-next")
	}
	if clicked == 0 {
		t.Error("no task was clicked during a question")
	}
	if pointed == 0 {
		t.Error("no wrong answer pointed at the drawing")
	}
	waitFor(t, ctx, `!document.querySelector('#practice-summary').hidden`)
	want := strconv.Itoa(right) + "/" + strconv.Itoa(right+wrong)
	if got := eval[string](t, ctx, `document.body.dataset.practiceScore`); got != want {
		t.Errorf("score %s, want %s", got, want)
	}
	if links := eval[int](t, ctx, `document.querySelectorAll('#practice-summary .missed a[href*="#script="]').length`); links != wrong {
		t.Errorf("the summary links %d missed steps, want %d", links, wrong)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#practice-summary .answers li').length`); n != right+wrong {
		t.Errorf("the summary lists %d answers, want %d", n, right+wrong)
	}
	if n := eval[int](t, ctx, `[...document.querySelectorAll('#practice-summary .answers li.wrong')].filter(li => li.textContent.includes("You: ") && li.textContent.includes("Answer: ")).length`); n != wrong {
		t.Errorf("the summary shows %d wrong answers beside the right one, want %d", n, wrong)
	}

	if eval[bool](t, ctx, `document.querySelector('#practice-done').hidden`) {
		t.Error("no way on from the summary")
	}
	click(t, ctx, "#practice-again")
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith("Question 1 of")`)

	// The progress is kept across a reload.
	open(t, ctx, base, "/?practice=L5&set=book&ex="+strconv.Itoa(n))
	status := eval[string](t, ctx, `document.querySelector('#practice-level-status').textContent`)
	if !strings.Contains(status, strconv.Itoa(right)+" of "+strconv.Itoa(right+wrong)+" right") {
		t.Errorf("after a reload the level says %q", status)
	}
	// Ticked only when passed: here a third of the answers are wrong.
	if got := eval[string](t, ctx, `document.querySelector('#practice-exercise').selectedOptions[0].textContent`); strings.Contains(got, "✓") != (100*right >= practice.PassPercent*(right+wrong)) {
		t.Errorf("finished with %d of %d right, the exercise reads %q", right, right+wrong, got)
	}

	// Every other control: the interviewer view, the level, the exercise,
	// a random exercise, restart, the rubric link, and the mode switch.
	click(t, ctx, "#practice-interviewer")
	waitFor(t, ctx, `location.search.includes("interviewer=1") && !document.querySelector('#practice-probe').hidden`)
	if probe := eval[string](t, ctx, `document.querySelector('#practice-probe').textContent`); !strings.Contains(probe, "Probe next:") || !strings.Contains(probe, "Answer:") {
		t.Errorf("interviewer view says %q", probe)
	}
	eval[bool](t, ctx, `(s => (s.value = "L6", s.dispatchEvent(new Event("change")), true))(document.querySelector('#practice-level'))`)
	waitFor(t, ctx, `location.search.includes("practice=L6")`)
	eval[bool](t, ctx, `(s => (s.value = "3", s.dispatchEvent(new Event("change")), true))(document.querySelector('#practice-exercise'))`)
	waitFor(t, ctx, `location.search.includes("ex=3")`)
	click(t, ctx, "#practice-random")
	waitFor(t, ctx, `location.search.includes("set=random") && location.search.includes("seed=")`)
	click(t, ctx, "#practice-restart")
	waitFor(t, ctx, `document.querySelector('#practice-status').textContent.startsWith("Question 1 of")`)
	if href := eval[string](t, ctx, `document.querySelector('#practice-rubric').getAttribute('href')`); href != "rubric" {
		t.Errorf("rubric link %q", href)
	}
	// Keys do not step past the question.
	before := stepShown(t, ctx)
	eval[bool](t, ctx, `(document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true})), true)`)
	if stepShown(t, ctx) != before {
		t.Error("→ stepped the timeline while practising")
	}
	// A short exercise answered right, then on to the next one.
	short, _, _ := practice.FindExercise(pg.L4, "5")
	sp, _ := practice.NewPractice(short, false)
	open(t, ctx, base, "/?practice=L4&ex=5")
	for _, q := range sp.Questions() {
		waitFor(t, ctx, `document.querySelector('#practice-prompt').textContent === `+strconv.Quote(q.Prompt)+` && !document.querySelector('#practice-check').hidden`)
		answerInPage(t, ctx, q, q.Want)
		waitFor(t, ctx, `!document.querySelector('#practice-next').hidden`)
		click(t, ctx, "#practice-next")
	}
	waitFor(t, ctx, `!document.querySelector('#practice-summary').hidden`)
	if got, want := eval[string](t, ctx, `document.body.dataset.practiceScore`), strconv.Itoa(sp.Len())+"/"+strconv.Itoa(sp.Len()); got != want {
		t.Errorf("all right scores %s, want %s", got, want)
	}
	click(t, ctx, "#practice-next-exercise")
	waitFor(t, ctx, `location.search === "?practice=L4&set=book&ex=6"`)

	click(t, ctx, "#mode-watch")
	waitFor(t, ctx, `!document.body.classList.contains("practicing") && document.querySelector('#practice').hidden`)
	click(t, ctx, "#mode-practice")
	waitFor(t, ctx, `document.body.classList.contains("practicing") && location.search.includes("practice=L4")`)
}
