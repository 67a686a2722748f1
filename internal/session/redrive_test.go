package session_test

import (
	"reflect"
	"testing"

	"github.com/dagq/dagq/core/scenario"
)

// TestRedriveStartedByFindsTheLastStart: in the outage, no step before the
// paced redrive of group 1 starts one; from it on, the last start is it,
// until the redrive of what matches "connection refused".
func TestRedriveStartedByFindsTheLastStart(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("outage")
	s := mustSession(t, e.Text, scenario.Options{})
	var starts []int
	for k := 1; k <= s.Len(); k++ {
		switch s.Step(k).Command.String() {
		case "redrive group 1 at 10/10s", "redrive matching connection refused":
			starts = append(starts, k)
		}
	}
	if len(starts) != 2 {
		t.Fatalf("the outage has %d bulk redrives, want 2", len(starts))
	}
	want := func(k int) (int, bool) {
		got, ok := 0, false
		for _, st := range starts {
			if st <= k {
				got, ok = st, true
			}
		}
		return got, ok
	}
	for k := 0; k <= s.Len(); k++ {
		w, wok := want(k)
		if got, ok := s.RedriveStartedBy(k); got != w || ok != wok {
			t.Fatalf("RedriveStartedBy(%d) = %d, %v; want %d, %v", k, got, ok, w, wok)
		}
	}
}

// TestDeadLettersWithoutACopy: the dead-letter queue, its groups and its
// alert read at the cursor are the board's.
func TestDeadLettersWithoutACopy(t *testing.T) {
	t.Parallel()
	e, _ := scenario.Lookup("outage")
	s := mustSession(t, e.Text, scenario.Options{})
	for _, k := range []int{0, 45, 90, 200, s.Len()} {
		s.Seek(k)
		b := s.Board()
		if got, want := s.DeadLetters(), b.DeadLetters(); !reflect.DeepEqual(got, want) {
			t.Errorf("step %d: DeadLetters %v, want %v", k, got, want)
		}
		if got, want := s.DeadLetterGroups(), b.DeadLetterGroups(); !reflect.DeepEqual(got, want) {
			t.Errorf("step %d: DeadLetterGroups %v, want %v", k, got, want)
		}
		raised, count, window := s.Alert()
		wc, ww := b.AlertRule()
		if raised != b.Alerting() || count != wc || window != ww {
			t.Errorf("step %d: Alert %v %d %v, want %v %d %v", k, raised, count, window, b.Alerting(), wc, ww)
		}
	}
}
