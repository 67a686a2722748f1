package core

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTimerHeap drives the indexed heap with thousands of timers, set,
// moved, cleared from anywhere and popped, against a plain list sorted by
// (at, seq), checking after every step the heap order, that each task's
// index points at its own entry, and that the heap holds exactly the live
// timers.
func TestTimerHeap(t *testing.T) {
	t.Parallel()
	const n = 3000
	r := rand.New(rand.NewPCG(9, 9))
	q := &Queue{}
	for range n {
		q.nodes.add("")
	}
	type entry struct {
		v   int32
		at  time.Duration
		seq uint64
	}
	live := map[int32]entry{}
	check := func(step int) {
		t.Helper()
		if len(q.timers) != len(live) {
			t.Fatalf("step %d: %d timers in the heap, want %d", step, len(q.timers), len(live))
		}
		for i, e := range q.timers {
			if i > 0 && q.before(i, (i-1)/2) {
				t.Fatalf("step %d: entry %d is before its parent", step, i)
			}
			if int(q.nodes.at(e.v).timer) != i+1 {
				t.Fatalf("step %d: task %d's index is %d, its entry is at %d", step, e.v, q.nodes.at(e.v).timer-1, i)
			}
			if w := live[e.v]; w.at != e.at || w.seq != e.seq {
				t.Fatalf("step %d: task %d's timer is %v #%d, want %v #%d", step, e.v, e.at, e.seq, w.at, w.seq)
			}
		}
	}
	for step := range 40000 {
		v := int32(r.IntN(n))
		switch k := r.IntN(10); {
		case k < 5: // set or move, often to a time another timer has
			at := time.Duration(r.IntN(500)) * time.Millisecond
			q.setTimer(v, at)
			live[v] = entry{v, at, q.timerSeq}
		case k < 7:
			q.clearTimer(v)
			delete(live, v)
		default:
			if len(live) == 0 {
				continue
			}
			all := make([]entry, 0, len(live))
			for _, e := range live {
				all = append(all, e)
			}
			first := slices.MinFunc(all, func(a, b entry) int {
				return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
			})
			top := q.timers[0]
			if top.v != first.v {
				t.Fatalf("step %d: the heap's first timer is task %d at %v #%d, want task %d at %v #%d",
					step, top.v, top.at, top.seq, first.v, first.at, first.seq)
			}
			q.clearTimer(top.v)
			delete(live, top.v)
		}
		if step%97 == 0 || len(live) < 50 {
			check(step)
		}
	}
	check(-1)
	for v := range live {
		if at, ok := q.timerOf(v); !ok || at != live[v].at {
			t.Fatalf("timerOf(%d) = %v, %v, want %v", v, at, ok, live[v].at)
		}
	}
}
