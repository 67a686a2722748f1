package picture

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

func openSession(t *testing.T, name string) (*session.Session, string) {
	t.Helper()
	e, ok := scenario.Lookup(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	s, err := session.New(e.Text, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, e.Text
}

func TestFrames(t *testing.T) {
	t.Parallel()
	if got := Frames(3); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Frames(3) = %v", got)
	}
	got := Frames(3000)
	if len(got) != MaxFrames || got[0] != 0 || got[len(got)-1] != 3000 || !slices.IsSorted(got) {
		t.Errorf("Frames(3000) = %d frames from %d to %d", len(got), got[0], got[len(got)-1])
	}
	if got := Frames(MaxFrames - 1); len(got) != MaxFrames {
		t.Errorf("Frames(%d) has %d frames, want every step", MaxFrames-1, len(got))
	}
}

// TestStaticShowsTheStep: the picture of a step has its states, its
// caption, and at a refused cycle the cycle's path highlighted.
func TestStaticShowsTheStep(t *testing.T) {
	t.Parallel()
	s, text := openSession(t, "tricky-cycle")
	refused := 0
	for k := 1; k <= s.Len(); k++ {
		if len(s.Cycle(k)) > 0 {
			refused = k
			break
		}
	}
	if refused == 0 {
		t.Fatal("tricky-cycle refuses no cycle")
	}
	var b bytes.Buffer
	if err := Draw(context.Background(), &b, text, scenario.Options{}, scenario.Limits{}, refused, false); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, task := range s.Cycle(refused) {
		if !strings.Contains(svg, `data-task="`+task+`" data-state="`+string(s.BoardAt(refused).State(task))+`" data-highlight="true"`) {
			t.Errorf("%s, on the refused cycle, is not drawn highlighted in its state", task)
		}
	}
	if !strings.Contains(svg, "step "+itoa(refused)+" of "+itoa(s.Len())+":") || !strings.Contains(svg, "is refused") {
		t.Errorf("no caption for step %d", refused)
	}
	if !strings.Contains(svg, "<title>"+scenario.Title(text)+"</title>") {
		t.Errorf("not titled %q", scenario.Title(text))
	}
	if s.Cursor() != 0 {
		t.Errorf("the session's cursor moved to %d", s.Cursor())
	}
}

// TestAnimatedSizes holds every library scenario's pictures to their
// budgets: 40 KB for the diamond, 1 MB for the biggest (GitHub's image
// proxy refuses 5 MB).
func TestAnimatedSizes(t *testing.T) {
	t.Parallel()
	budget := map[string]int{"diamond-redrive": 40 << 10}
	for _, e := range scenario.Library() {
		s, _ := openSession(t, e.Name)
		var anim, static bytes.Buffer
		if err := Draw(context.Background(), &anim, e.Text, scenario.Options{}, scenario.Limits{}, 0, true); err != nil {
			t.Fatal(err)
		}
		if err := Draw(context.Background(), &static, e.Text, scenario.Options{}, scenario.Limits{}, scenario.StepEnd, false); err != nil {
			t.Fatal(err)
		}
		limit, ok := budget[e.Name]
		if !ok {
			limit = 1 << 20
		}
		t.Logf("%-20s %4d steps: static %7d bytes, animated %7d bytes", e.Name, s.Len(), static.Len(), anim.Len())
		if anim.Len() > limit {
			t.Errorf("%s: the animation is %d bytes, over %d", e.Name, anim.Len(), limit)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
