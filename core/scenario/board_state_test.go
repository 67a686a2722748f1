package scenario

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// stateOf reads a queue's state as NewBoard takes it, and the alert's rule
// from the board folded from its events (the queue does not say it).
func stateOf(q *core.Queue, folded *Board) BoardState {
	st := BoardState{Tasks: q.Tasks(), Ready: q.ReadyTasks(), DLQ: q.DeadLetters(), Alerting: q.Stats().Alerting}
	st.AlertCount, st.AlertWindow = folded.AlertRule()
	for _, t := range st.Tasks {
		info, _ := q.Info(t)
		st.States = append(st.States, info.State)
		if info.Timer != 0 {
			if st.Timers == nil {
				st.Timers = map[string]time.Duration{}
			}
			st.Timers[t] = info.Timer
		}
	}
	return st
}

// TestNewBoardAgreesWithTheQueue: after every random script, the board
// made of the queue's state agrees with the queue as the board folded from
// its events does, counts included.
func TestNewBoardAgreesWithTheQueue(t *testing.T) {
	t.Parallel()
	const seed, scripts = 20261202, 1000
	rng := rand.New(rand.NewPCG(seed, seed))
	dead, blocked := 0, 0
	for i := range scripts {
		src := randomScript(rng)
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("seed %d, script %d: %v", seed, i, err)
		}
		r, err := NewRunner(s, Options{})
		if err != nil {
			t.Fatalf("seed %d, script %d: %v", seed, i, err)
		}
		var folded Board
		for _, c := range s.Commands {
			folded.ApplyAll(r.Exec(c).Events)
		}
		q := r.Queue()
		b, err := NewBoard(stateOf(q, &folded))
		if err != nil {
			t.Fatalf("seed %d, script %d: %v\n%s", seed, i, err, src)
		}
		if d := boardAgrees(b, q); d != "" {
			t.Fatalf("seed %d, script %d: %s\n%s", seed, i, d, src)
		}
		for _, st := range core.States() {
			if b.Count(st) != folded.Count(st) {
				t.Fatalf("seed %d, script %d: %d %s, the folded board has %d", seed, i, b.Count(st), st, folded.Count(st))
			}
		}
		dead += b.Count(core.Dead)
		blocked += b.Count(core.Blocked)
	}
	if dead == 0 || blocked == 0 {
		t.Errorf("seed %d: %d DEAD and %d BLOCKED tasks in all: the scripts prove little", seed, dead, blocked)
	}
}

func TestNewBoardRefusesAStateThatCannotBe(t *testing.T) {
	t.Parallel()
	dead := core.DeadLetter{Task: "a", State: core.Dead, Reason: "failed after 1 attempt: x"}
	for _, tt := range []struct {
		name string
		st   BoardState
		want string
	}{
		{"AStateMissing", BoardState{Tasks: []string{"a", "b"}, States: []core.State{core.Ready}}, "2 tasks with 1 states"},
		{"NoState", BoardState{Tasks: []string{"a"}, States: []core.State{""}}, `"a" has no state`},
		{"ATaskTwice", BoardState{Tasks: []string{"a", "a"}, States: []core.State{core.Pending, core.Pending}}, "twice"},
		{"AReadyTaskOutOfLine", BoardState{Tasks: []string{"a"}, States: []core.State{core.Ready}}, "1 tasks are READY and 0 in the READY line"},
		{"APendingTaskInLine", BoardState{Tasks: []string{"a"}, States: []core.State{core.Pending}, Ready: []string{"a"}}, `"a" in the READY line is PENDING`},
		{"ADeadTaskOutOfTheDLQ", BoardState{Tasks: []string{"a"}, States: []core.State{core.Dead}}, "1 tasks are DEAD or BLOCKED and 0"},
		{"AnEntryOfAnotherState", BoardState{Tasks: []string{"a"}, States: []core.State{core.Blocked}, DLQ: []core.DeadLetter{dead}}, "is BLOCKED"},
		{"ARootNotDead", BoardState{Tasks: []string{"b"}, States: []core.State{core.Blocked},
			DLQ: []core.DeadLetter{{Task: "b", State: core.Blocked, Root: "a"}}}, `blocked by "a", which is not DEAD`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewBoard(tt.st)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}
