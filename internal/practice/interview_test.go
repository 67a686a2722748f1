package practice

import (
	"maps"
	"strings"
	"testing"
	"time"
)

const minute = int64(time.Minute / time.Millisecond)

// TestInterviewClockWalksTheLevels: a 45-minute interview spends 12
// minutes at L4, 15 at L5, 15 at L6 and 3 on the wrap-up, each stage
// beginning at its minute; a clock behind the start reads the start; a
// shorter interview scales every stage.
func TestInterviewClockWalksTheLevels(t *testing.T) {
	const start = 1_700_000_000_000
	iv := NewInterview(start, Interviewer)
	for _, c := range []struct {
		at    int64 // ms after the start
		stage int
		want  string
	}{
		{-5000, 0, "45:00 left · L4 · one worker, 12:00 left in it"},
		{0, 0, "45:00 left · L4 · one worker, 12:00 left in it"},
		{12*minute - 1, 0, "33:01 left · L4 · one worker, 0:01 left in it"},
		{12 * minute, 1, "33:00 left · L5 · failure as a first-class path, 15:00 left in it"},
		{27*minute + 30_000, 2, "17:30 left · L6 · production, 14:30 left in it"},
		{42 * minute, 3, "3:00 left · Wrap-up, 3:00 left in it"},
		{45 * minute, 4, "Time is up (45:00)"},
		{90 * minute, 4, "Time is up (90:00)"},
	} {
		got := iv.ClockAt(start + c.at)
		if got.Stage != c.stage || got.String() != c.want {
			t.Errorf("at %+dms: stage %d %q, want %d %q", c.at, got.Stage, got, c.stage, c.want)
		}
	}
	iv.Length = 30 * time.Minute
	if c := iv.ClockAt(start + 8*minute); c.Stage != 1 || c.StageLeft != 10*time.Minute {
		t.Errorf("30 minutes, at 8: %+v, want L5 with 10:00 left in it", c)
	}
	total := 0
	for _, st := range InterviewStages() {
		total += st.Share
	}
	if total != 45 {
		t.Errorf("the stages' shares add up to %d, want 45", total)
	}
}

// TestInterviewLinksForAPair: the interviewer's link keeps the marks and
// reads back to the same interview; the candidate's carries none and
// shows no sheet; a link that cannot be read is told, and the rest holds.
func TestInterviewLinksForAPair(t *testing.T) {
	iv := NewInterview(1_700_000_000_000, Interviewer)
	iv.Length = 60 * time.Minute
	for id, m := range map[string]Mark{"count": Heard, "fifo": Partly, "jitter": NotHeard} {
		if err := iv.Mark(id, m); err != nil {
			t.Fatal(err)
		}
	}
	q := iv.Query(Interviewer)
	if q != "?interview=1700000000000&len=60m&role=interviewer&marks=count:h,fifo:p,jitter:n" {
		t.Errorf("interviewer's link %s", q)
	}
	back, ok, errs := ParseInterview(q, "")
	if !ok || len(errs) > 0 || back.Start != iv.Start || back.Length != iv.Length || back.Role != Interviewer || !maps.Equal(back.Marks, iv.Marks) {
		t.Errorf("%s reads back as %+v %v %v", q, back, ok, errs)
	}
	cq := iv.Query(Candidate)
	if cq != "?interview=1700000000000&len=60m&role=candidate" {
		t.Errorf("candidate's link %s", cq)
	}
	cand, _, _ := ParseInterview(cq, "")
	if cand.Role != Candidate || len(cand.Marks) > 0 {
		t.Errorf("the candidate's view %+v", cand)
	}
	if err := cand.Mark("count", Heard); err == nil || len(cand.Marks) > 0 {
		t.Errorf("the candidate's view took a mark: %v", err)
	}
	if strings.Contains(cand.SheetHTML(0), `aria-pressed="true"`) {
		t.Errorf("the candidate's view has marks")
	}

	fresh, ok, errs := ParseInterview("?interview=new", "")
	if !ok || len(errs) > 0 || fresh.Start != 0 || fresh.Role != Interviewer || fresh.Length != DefaultInterviewLength {
		t.Errorf("interview=new: %+v %v %v", fresh, ok, errs)
	}
	bad, ok, errs := ParseInterview("?interview=soon&len=2m&role=boss&marks=count:h,nope:h,fifo:x", "#role=interviewer")
	var params []string
	for _, e := range errs {
		params = append(params, strings.SplitN(e.Error(), ": ", 4)[2])
	}
	if !ok || strings.Join(params, " ") != "interview len marks marks" || bad.Start != 0 || bad.Length != DefaultInterviewLength ||
		!maps.Equal(bad.Marks, map[string]Mark{"count": Heard}) {
		t.Errorf("a bad link: %+v, errors %q", bad, errs)
	}
	if _, ok, _ := ParseInterview("?scenario=two-roots", ""); ok {
		t.Error("a link without interview= asks for one")
	}
}

// TestInterviewSheetAndSummary: a click marks, a second click on the same
// mark takes it back; the sheet shows the level under way first, the
// marks pressed; the summary keeps every point and its mark, and the level
// the marks reach.
func TestInterviewSheetAndSummary(t *testing.T) {
	iv := NewInterview(1_700_000_000_000, Interviewer)
	if err := iv.Toggle("count", "h"); err != nil || iv.Marks["count"] != Heard {
		t.Fatalf("a click on heard: %v %v", err, iv.Marks)
	}
	if err := iv.Toggle("count", "h"); err != nil || len(iv.Marks) != 0 {
		t.Fatalf("a second click: %v %v", err, iv.Marks)
	}
	for _, bad := range [][2]string{{"count", "x"}, {"nope", "h"}} {
		if err := iv.Toggle(bad[0], bad[1]); err == nil || len(iv.Marks) != 0 {
			t.Errorf("Toggle(%q, %q) = %v, marks %v", bad[0], bad[1], err, iv.Marks)
		}
	}
	for _, rl := range Rubric()[:1] {
		for _, p := range rl.Points {
			iv.Toggle(p.ID, "h")
		}
	}
	iv.Toggle("block", "p")
	iv.Toggle("jitter", "n")
	if got := iv.Reached(); got != "Mid-level (L4)" {
		t.Errorf("reached %q", got)
	}
	sheet := iv.SheetHTML(1)
	if i, j := strings.Index(sheet, `data-level="L5"`), strings.Index(sheet, `data-level="L4"`); i < 0 || j < i {
		t.Errorf("the sheet at L5's stage does not show L5 first")
	}
	if !strings.Contains(sheet, `data-point="block" data-mark="p" aria-pressed="true"`) ||
		!strings.Contains(sheet, `data-point="block" data-mark="h" aria-pressed="false"`) {
		t.Errorf("the sheet does not show block as partly:\n%s", sheet)
	}
	sum := iv.Summary(iv.Start + 20*minute)
	for _, want := range []string{"Mock interview, 20:00 of 45:00\n", "Reached: Mid-level (L4)\n",
		"Mid-level (L4): 5 heard, 0 partly, 0 not, 0 unmarked\n", "Senior (L5): 0 heard, 1 partly, 0 not, 3 unmarked\n",
		"  partly   block: Blocks everything downstream", "  not      jitter: ", "  unmarked cost: "} {
		if !strings.Contains(sum, want) {
			t.Errorf("the summary lacks %q:\n%s", want, sum)
		}
	}
	if n := strings.Count(sum, "\n  "); n != 16 {
		t.Errorf("the summary lists %d points, want the rubric's 16", n)
	}
}
