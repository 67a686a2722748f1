package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

// film draws a → b through four frames: nothing, a READY (b, named, drawn
// plain), a RUNNING, a DEAD with b BLOCKED; a and b highlighted in the
// third.
func film(t *testing.T) string {
	t.Helper()
	nodes := []Node{{Name: "a"}, {Name: "b", Deps: []string{"a"}}}
	frames := []Frame{
		{Caption: "nothing yet"},
		{States: map[string]core.State{"a": core.Ready, "b": core.Pending}, Caption: "a arrives"},
		{States: map[string]core.State{"a": core.Running, "b": core.Pending}, Highlight: map[string]bool{"a": true, "b": true}, Caption: "a runs"},
		{States: map[string]core.State{"a": core.Dead, "b": core.Blocked}, Caption: "a dies; b is blocked"},
	}
	var buf bytes.Buffer
	if err := WriteAnimatedSVG(&buf, nodes, LayOut(nodes), frames, AnimateOptions{Title: "a film"}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// keyframesOf returns the keyframes the element with this opening tag
// prefix plays.
func keyframesOf(t *testing.T, svg, element string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(element) + ` an (k\d+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no animated %s in\n%s", element, svg)
	}
	k := regexp.MustCompile(`@keyframes ` + m[1] + `\{(.*)\}\n`).FindStringSubmatch(svg)
	if k == nil {
		t.Fatalf("no @keyframes %s", m[1])
	}
	return k[1]
}

func TestWriteAnimatedSVG(t *testing.T) {
	t.Parallel()
	svg := film(t)
	total := 4*DefaultFrame + DefaultHold // 7.8 s
	t.Run("PlaysForEveryFrameThenHoldsAndLoops", func(t *testing.T) {
		if !strings.Contains(svg, "svg.dagq-film .an{animation:7800ms step-end infinite}") {
			t.Errorf("no 7,800 ms looping animation (frames %v each, hold %v: %v)", DefaultFrame, DefaultHold, total)
		}
	})
	t.Run("ABoxTakesEachStateColourInTurn", func(t *testing.T) {
		got := keyframesOf(t, svg, `<rect class="box`)
		want := "15.38%{fill:" + StyleOf(core.Ready).Fill + ";stroke:" + StyleOf(core.Ready).Stroke + "}" +
			"30.77%{fill:" + StyleOf(core.Running).Fill + ";stroke:" + StyleOf(core.Running).Stroke + "}" +
			"46.15%{fill:" + StyleOf(core.Dead).Fill + ";stroke:" + StyleOf(core.Dead).Stroke + "}"
		if got != want {
			t.Errorf("a's box plays\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("ATaskAppearsWhenItOrATaskWaitingOnItArrives", func(t *testing.T) {
		if got := keyframesOf(t, svg, `<g class="task`); got != "0.00%{opacity:0}15.38%{opacity:1}" {
			t.Errorf("a appears with %s", got)
		}
	})
	t.Run("EachStateHasItsLabelShownOnlyWhileInIt", func(t *testing.T) {
		for _, label := range []string{"● READY", "▶ RUNNING", "✗ DEAD", "… PENDING", "⊘ BLOCKED"} {
			if !strings.Contains(svg, ">"+label+"</text>") {
				t.Errorf("no label %q", label)
			}
		}
		running := regexp.MustCompile(`class="state an (k\d+)"[^>]*>▶ RUNNING<`).FindStringSubmatch(svg)
		if running == nil {
			t.Fatal("RUNNING's label is not animated")
		}
		if k := regexp.MustCompile(`@keyframes ` + running[1] + `\{(.*)\}`).FindStringSubmatch(svg); k == nil || k[1] != "0.00%{opacity:0}30.77%{opacity:1}46.15%{opacity:0}" {
			t.Errorf("RUNNING's label plays %v", k)
		}
	})
	t.Run("TheHighlightIsOnlyInItsFrame", func(t *testing.T) {
		if got := keyframesOf(t, svg, `<rect class="halo`); got != "0.00%{opacity:0}30.77%{opacity:1}46.15%{opacity:0}" {
			t.Errorf("the halo plays %s", got)
		}
	})
	t.Run("SameTimelinesShareKeyframes", func(t *testing.T) {
		// a, b and the edge appear together; both halos, RUNNING's label
		// and the third caption show in the third frame only; and so on:
		// 16 animated elements, 8 timelines.
		if n, els := strings.Count(svg, "@keyframes"), strings.Count(svg, ` an k`); n != 8 || els != 16 {
			t.Errorf("%d keyframes for %d animated elements, want 8 for 16", n, els)
		}
	})
	t.Run("WithoutMotionTheLastFrameShows", func(t *testing.T) {
		if !strings.Contains(svg, "@media (prefers-reduced-motion:reduce){svg.dagq-film .an{animation:none}}") {
			t.Error("no reduced-motion rule")
		}
		// The base attributes are the last frame's.
		if !strings.Contains(svg, `data-task="a" data-state="DEAD"`) || !strings.Contains(svg, `fill="`+StyleOf(core.Blocked).Fill+`"`) {
			t.Error("the base drawing is not the last frame")
		}
		if !regexp.MustCompile(`<text class="caption an k\d+"><tspan[^>]*>a dies; b is blocked</tspan>`).MatchString(svg) {
			t.Error("the last caption is not shown without animation")
		}
		if !regexp.MustCompile(`<text class="caption an k\d+" opacity="0"><tspan[^>]*>a runs</tspan>`).MatchString(svg) {
			t.Error("an earlier caption is shown without animation")
		}
	})
	t.Run("NoScriptNoExternalReference", func(t *testing.T) {
		for _, bad := range []string{"<script", "href=", "http://www.w3.org/1999/xlink", "@import", "url(http"} {
			if strings.Contains(svg, bad) {
				t.Errorf("the film holds %q", bad)
			}
		}
	})
}

func TestWriteAnimatedSVGRefuses(t *testing.T) {
	t.Parallel()
	nodes := []Node{{Name: "a"}}
	var buf bytes.Buffer
	if err := WriteAnimatedSVG(&buf, nodes, LayOut(nodes), nil, AnimateOptions{}); err == nil || buf.Len() > 0 {
		t.Errorf("no frames: err %v, wrote %d bytes", err, buf.Len())
	}
	if err := WriteAnimatedSVG(&buf, append(nodes, Node{Name: "x"}), LayOut(nodes), []Frame{{}}, AnimateOptions{}); err == nil || buf.Len() > 0 {
		t.Errorf("a task with no position: err %v, wrote %d bytes", err, buf.Len())
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text        string
		width, most int
		want        []string
	}{
		{"", 10, 3, nil},
		{"a b c", 10, 3, []string{"a b c"}},
		{"one two three four", 9, 3, []string{"one two", "three", "four"}},
		{"one two three four five", 9, 2, []string{"one two", "three…"}},
		{"abcdefghijkl", 5, 3, []string{"abcd…"}},
		{"é é é é", 3, 3, []string{"é é", "é é"}},
	}
	for _, tt := range tests {
		if got := wrap(tt.text, tt.width, tt.most); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrap(%q, %d, %d) = %q, want %q", tt.text, tt.width, tt.most, got, tt.want)
		}
	}
}
