package core_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
)

// TestBackoffDelayReproducesTheQueuesDelays: Delay, called in the order
// failures happen with a generator made as the queue makes its own, gives
// the due times the queue's EventDelayed carry, jitter included.
func TestBackoffDelayReproducesTheQueuesDelays(t *testing.T) {
	t.Parallel()
	for _, j := range []core.Jitter{core.JitterNone, core.JitterFull, core.JitterEqual} {
		t.Run(j.String(), func(t *testing.T) {
			b := core.Backoff{Base: 100 * time.Millisecond, Factor: 2, Max: 3 * time.Second, Jitter: j, Seed: 42}
			var dues []time.Duration
			q, err := core.New(core.Config{MaxAttempts: 6, Backoff: b, OnEvent: func(e core.Event) {
				if e.Kind == core.EventDelayed {
					dues = append(dues, e.Due-e.At)
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range []string{"a", "b", "c"} {
				if err := q.Submit(task); err != nil {
					t.Fatal(err)
				}
			}
			var attempts []int
			for range 15 {
				if at, ok := q.NextTimer(); ok {
					q.Advance(at - q.Now())
				}
				l, ok := q.Next()
				if !ok {
					break
				}
				if st, _ := q.Fail(l, errors.New("boom")); st == core.Delayed {
					attempts = append(attempts, l.Attempt)
				}
			}
			if len(dues) < 6 {
				t.Fatalf("only %d delays", len(dues))
			}
			rng := rand.New(rand.NewPCG(b.Seed, 0))
			for i, k := range attempts {
				if got := b.Delay(k, rng); got != dues[i] {
					t.Fatalf("delay %d (attempt %d) = %v, the queue waited %v", i, k, got, dues[i])
				}
			}
			if d := (core.Backoff{}).Delay(3, rng); d != 0 {
				t.Fatalf("no backoff: Delay = %v, want 0", d)
			}
		})
	}
}
