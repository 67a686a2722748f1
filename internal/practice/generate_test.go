package practice

import (
	"github.com/dagq/dagq/internal/playground"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// TestGenerateRunsCleanAndRepeats makes exercises at every level for many
// seeds: each parses, runs without a failed expect, has 6 to 12 tasks, a
// submit refused for a cycle, a retry, a death and a redrive, ends with
// every task SUCCEEDED, and is the same when made again from its seed.
func TestGenerateRunsCleanAndRepeats(t *testing.T) {
	t.Parallel()
	for _, l := range Levels() {
		for seed := range uint64(300) {
			ex := Generate(l, seed)
			if again := Generate(l, seed); again.Text != ex.Text {
				t.Fatalf("%s seed %d: two different scripts", l, seed)
			}
			s, err := session.New(ex.Text, scenario.Options{})
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", l, seed, err, ex.Text)
			}
			if s.Stopped() != nil {
				t.Fatalf("%s seed %d: stopped: %v", l, seed, s.Stopped())
			}
			s.Seek(playground.StepEnd)
			states := s.States()
			if n := len(states); n < 6 || n > 12 {
				t.Errorf("%s seed %d: %d tasks", l, seed, n)
			}
			for task, st := range states {
				if st != core.Succeeded {
					t.Errorf("%s seed %d: %s ends %s\n%s", l, seed, task, st, ex.Text)
				}
			}
			var cycle, retry, dead, redrive bool
			for k := 1; k <= s.Len(); k++ {
				st := s.Step(k)
				cycle = cycle || s.Cycle(k) != nil
				for _, e := range st.Events {
					retry = retry || e.Kind == core.EventRetried || e.Kind == core.EventDelayed
					dead = dead || e.Kind == core.EventDead
					redrive = redrive || e.Kind == core.EventRedriven
				}
			}
			if !cycle || !retry || !dead || !redrive {
				t.Errorf("%s seed %d: cycle %v retry %v dead %v redrive %v\n%s", l, seed, cycle, retry, dead, redrive, ex.Text)
			}
			if ex.Title == "" || ex.Goal == "" || ex.Set != SetRandom {
				t.Errorf("%s seed %d: title %q goal %q set %q", l, seed, ex.Title, ex.Goal, ex.Set)
			}
		}
	}
}
