package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Backoff spreads retries out in time: a task that fails with attempts left
// waits, DELAYED, before it is READY again. The zero value (Base 0) is no
// backoff: a retry is READY at once, and the other fields are ignored.
//
// When attempt k fails with attempts left, the delay is
//
//	d = min(Max, Base · Factor^(k−1))
//
// then jittered (see [Jitter]) with a generator seeded by Seed, so that a
// run repeats exactly. A delay of 0 is READY at once, as without backoff.
//
// Edge cases, decided so that a short configuration does what it says:
//   - Factor 0 means 1, a constant delay of Base (a Backoff{Base: time.Second}
//     retries every second); a Factor between 0 and 1, negative, NaN or
//     infinite is refused by [New], since a shrinking delay is no backoff;
//   - Max 0 means no cap (a delay too large for a time.Duration is the
//     largest one); a Max below Base is refused, since every delay would be
//     Max;
//   - a negative Base or Max, and a Jitter that is not one of the three,
//     are refused.
type Backoff struct {
	Base   time.Duration // delay after the first failure; 0: no backoff
	Factor float64       // growth per further failure; 0 means 1
	Max    time.Duration // cap on the delay before jitter; 0: none
	Jitter Jitter        // how the delay is randomised
	// Seed seeds the jitter's generator, a PCG from math/rand/v2 made by
	// rand.NewPCG(Seed, 0); the queue draws from it once per jittered
	// delay, in the order failures happen.
	Seed uint64
}

// Jitter is how a backoff delay d is randomised.
type Jitter uint8

// The jitters. Full spreads a retry storm widest; Equal keeps at least half
// the delay.
const (
	JitterNone  Jitter = iota // d itself
	JitterFull                // uniform in [0, d]
	JitterEqual               // d/2 + uniform in [0, d − d/2]
)

var jitterNames = [...]string{JitterNone: "none", JitterFull: "full", JitterEqual: "equal"}

// String returns "none", "full" or "equal".
func (j Jitter) String() string {
	if int(j) < len(jitterNames) {
		return jitterNames[j]
	}
	return fmt.Sprintf("Jitter(%d)", j)
}

// ParseJitter returns the Jitter named "none", "full" or "equal".
func ParseJitter(s string) (Jitter, error) {
	for j, name := range jitterNames {
		if s == name {
			return Jitter(j), nil
		}
	}
	return 0, fmt.Errorf("core: unknown jitter %q (want none, full or equal)", s)
}

// validate refuses the configurations Backoff's doc lists.
func (b Backoff) validate() error {
	switch {
	case b.Base < 0:
		return fmt.Errorf("core: Backoff.Base is %v, want at least 0", b.Base)
	case b.Max < 0:
		return fmt.Errorf("core: Backoff.Max is %v, want at least 0 (0: no cap)", b.Max)
	case math.IsNaN(b.Factor) || math.IsInf(b.Factor, 0) || (b.Factor != 0 && b.Factor < 1):
		return fmt.Errorf("core: Backoff.Factor is %v, want at least 1 (0 means 1)", b.Factor)
	case b.Jitter > JitterEqual:
		return fmt.Errorf("core: Backoff.Jitter is %v, want none, full or equal", b.Jitter)
	case b.Base > 0 && b.Max > 0 && b.Max < b.Base:
		return fmt.Errorf("core: Backoff.Max %v is below Base %v", b.Max, b.Base)
	}
	return nil
}

// capped returns min(Max, Base · Factor^(k−1)) for attempt k ≥ 1, before
// jitter; Base 0 gives 0. O(1).
func (b *Backoff) capped(k int32) time.Duration {
	if b.Base <= 0 {
		return 0
	}
	f := b.Factor
	if f == 0 {
		f = 1
	}
	d := float64(b.Base) * math.Pow(f, float64(k-1))
	switch {
	case b.Max > 0 && d >= float64(b.Max):
		return b.Max
	case d >= math.MaxInt64: // float64(MaxInt64) is 2^63: too large
		return math.MaxInt64
	}
	return time.Duration(d)
}

// apply randomises d as j says, drawing once from rng when d > 0. The
// random part is a whole number of milliseconds when d is at least one
// (the resolution traces report times in), else of nanoseconds.
func (j Jitter) apply(d time.Duration, rng *rand.Rand) time.Duration {
	if d <= 0 {
		return 0
	}
	unit := time.Duration(1)
	if d >= time.Millisecond {
		unit = time.Millisecond
	}
	// upTo draws a whole number of units in [0, r].
	upTo := func(r time.Duration) time.Duration { return time.Duration(rng.Uint64N(uint64(r/unit)+1)) * unit }
	switch j {
	case JitterFull:
		return upTo(d)
	case JitterEqual:
		h := d / 2
		return h + upTo(d-h)
	}
	return d
}

// delay is the wait of a task whose attempt k failed with attempts left: 0
// without backoff. O(1).
func (q *Queue) delay(k int32) time.Duration {
	if q.backoff.Base <= 0 {
		return 0
	}
	return q.backoff.Jitter.apply(q.backoff.capped(k), q.rng)
}

// Delay returns the wait of a task whose attempt k (k ≥ 1) failed with
// attempts left, exactly as a [Queue] under this backoff computes it:
// min(Max, Base · Factor^(k−1)), jittered with draws from rng. It draws
// only when the jitter is not none and the delay before jitter is above 0,
// as the queue does from its own generator, rand.New(rand.NewPCG(Seed, 0)):
// so a queue kept elsewhere (package durable keeps the generator's state in
// its database) that calls Delay in the order its failures happen gets the
// queue's delays, one for one. It returns 0 without backoff (Base 0). O(1).
func (b Backoff) Delay(k int, rng *rand.Rand) time.Duration {
	if b.Base <= 0 {
		return 0
	}
	return b.Jitter.apply(b.capped(int32(k)), rng)
}

// later returns t + d, or the largest time if that overflows.
func later(t, d time.Duration) time.Duration {
	if d > math.MaxInt64-t {
		return math.MaxInt64
	}
	return t + d
}
