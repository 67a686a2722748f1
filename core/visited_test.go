package core_test

import (
	"slices"
	"testing"

	"github.com/dagq/dagq/core"
)

// TestEventsNameTheVisitedTasks: a submit's event says which tasks its
// cycle check reached, as many visits as it counts.
func TestEventsNameTheVisitedTasks(t *testing.T) {
	tests := []struct {
		strategy string
		want     []string
	}{
		{"dfs", []string{"c", "b", "a"}}, // the textbook search walks every ancestor
		{"twoway", []string{"c"}},        // nobody waits on d: only its own edge
	}
	for _, tt := range tests {
		var last core.Event
		// Without Visited, nothing is gathered.
		var plain core.Event
		p, _ := core.New(core.Config{MaxAttempts: 1, Strategy: tt.strategy, OnEvent: func(e core.Event) { plain = e }})
		ops(t, p, "submit a\nsubmit b a\nsubmit c b\nsubmit d c")
		if plain.Visited != nil || plain.Visits == 0 {
			t.Errorf("%s: without Config.Visited the event names %v (visits %d), want nil and the count", tt.strategy, plain.Visited, plain.Visits)
		}
		q, _ := core.New(core.Config{MaxAttempts: 1, Strategy: tt.strategy, OnEvent: func(e core.Event) { last = e }, Visited: true})
		ops(t, q, "submit a\nsubmit b a\nsubmit c b\nsubmit d c")
		if last.Kind != core.EventSubmitted || !slices.Equal(last.Visited, tt.want) {
			t.Errorf("%s: %v visited %v, want %v", tt.strategy, last.Kind, last.Visited, tt.want)
		}
		if last.Visits != uint64(len(tt.want)) {
			t.Errorf("%s: %d visits for %d tasks reached", tt.strategy, last.Visits, len(tt.want))
		}
		// A refused submit names what its check reached, too.
		q.Submit("x", "y")
		q.Submit("y", "x")
		if last.Kind != core.EventRejected || !slices.Contains(last.Visited, "x") {
			t.Errorf("%s: the refused submit visited %v, want x among them", tt.strategy, last.Visited)
		}
	}
}
