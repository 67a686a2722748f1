package core

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestBackoffCapped: the delay before jitter, min(Max, Base · Factor^(k−1)),
// with Factor 0 meaning 1, Max 0 no cap, and no overflow.
func TestBackoffCapped(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		name string
		b    Backoff
		want []time.Duration // attempts 1, 2, …
	}{
		{"NoBackoff", Backoff{}, []time.Duration{0, 0, 0}},
		{"Doubling", Backoff{Base: s, Factor: 2}, []time.Duration{s, 2 * s, 4 * s, 8 * s}},
		{"DoublingCapped", Backoff{Base: s, Factor: 2, Max: 5 * s}, []time.Duration{s, 2 * s, 4 * s, 5 * s, 5 * s}},
		{"FactorZeroMeansOne", Backoff{Base: 3 * s}, []time.Duration{3 * s, 3 * s, 3 * s}},
		{"FactorOneIsConstant", Backoff{Base: s, Factor: 1, Max: s}, []time.Duration{s, s}},
		{"OneAndAHalf", Backoff{Base: 2 * s, Factor: 1.5}, []time.Duration{2 * s, 3 * s, 4500 * time.Millisecond}},
	}
	for _, tt := range tests {
		var got []time.Duration
		for k := range len(tt.want) {
			got = append(got, tt.b.capped(int32(k+1)))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	huge := Backoff{Base: time.Hour, Factor: 10}
	if got := huge.capped(1 << 30); got != math.MaxInt64 {
		t.Errorf("no cap, attempt 2^30: %v, want the largest duration", got)
	}
	if got := later(time.Hour, math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("later saturates: %v", got)
	}
}

// TestBackoffJitterBounds: over many seeds and attempts, every jittered
// delay falls within its mode's bounds ([d, d] none, [0, d] full,
// [d/2, d] equal), the draws are not all at one end, and a generator with
// the same seed repeats the delays exactly.
func TestBackoffJitterBounds(t *testing.T) {
	t.Parallel()
	for _, j := range []Jitter{JitterNone, JitterFull, JitterEqual} {
		low, high := 0, 0
		for seed := range uint64(300) {
			b := Backoff{Base: 1500 * time.Millisecond, Factor: 2, Max: time.Minute, Jitter: j, Seed: seed}
			draw := func() []time.Duration {
				q := &Queue{backoff: b, rng: rand.New(rand.NewPCG(b.Seed, 0))}
				var ds []time.Duration
				for k := int32(1); k <= 10; k++ {
					ds = append(ds, q.delay(k))
				}
				return ds
			}
			ds := draw()
			for i, d := range ds {
				c := b.capped(int32(i + 1))
				lo, hi := c, c
				switch j {
				case JitterFull:
					lo = 0
				case JitterEqual:
					lo = c / 2
				}
				if d < lo || d > hi {
					t.Fatalf("jitter %s, seed %d, attempt %d: delay %v outside [%v, %v]", j, seed, i+1, d, lo, hi)
				}
				if j != JitterNone && (d-lo)%time.Millisecond != 0 {
					t.Fatalf("jitter %s, seed %d, attempt %d: delay %v is %v past %v, not whole milliseconds", j, seed, i+1, d, d-lo, lo)
				}
				if d < lo+(hi-lo)/4 {
					low++
				}
				if d > hi-(hi-lo)/4 {
					high++
				}
			}
			if again := draw(); !slices.Equal(ds, again) {
				t.Fatalf("jitter %s, seed %d: %v, then %v with the same seed", j, seed, ds, again)
			}
		}
		if j != JitterNone && (low < 300 || high < 300) {
			t.Errorf("jitter %s: %d delays in the lowest quarter and %d in the highest of 3000: not spread", j, low, high)
		}
	}
	// Under a millisecond the random part is in nanoseconds.
	small := &Queue{backoff: Backoff{Base: 900 * time.Microsecond, Jitter: JitterFull}, rng: rand.New(rand.NewPCG(3, 0))}
	fine := false
	for range 20 {
		fine = fine || small.delay(1)%time.Microsecond != 0
	}
	if !fine {
		t.Error("a 900µs backoff jittered only to whole microseconds")
	}
	// Different seeds give different delays.
	a := &Queue{backoff: Backoff{Base: time.Second, Jitter: JitterFull}, rng: rand.New(rand.NewPCG(1, 0))}
	b := &Queue{backoff: Backoff{Base: time.Second, Jitter: JitterFull}, rng: rand.New(rand.NewPCG(2, 0))}
	var fromA, fromB []time.Duration
	for k := int32(1); k <= 4; k++ {
		fromA, fromB = append(fromA, a.delay(k)), append(fromB, b.delay(k))
	}
	if slices.Equal(fromA, fromB) {
		t.Errorf("seeds 1 and 2 draw the same delays: %v", fromA)
	}
}

func TestParseJitter(t *testing.T) {
	t.Parallel()
	for _, j := range []Jitter{JitterNone, JitterFull, JitterEqual} {
		if got, err := ParseJitter(j.String()); err != nil || got != j {
			t.Errorf("ParseJitter(%q) = %v, %v", j.String(), got, err)
		}
	}
	for _, s := range []string{"", "Full", "half"} {
		if _, err := ParseJitter(s); err == nil {
			t.Errorf("ParseJitter(%q) accepted", s)
		}
	}
	if got := Jitter(7).String(); got != "Jitter(7)" {
		t.Errorf("Jitter(7).String() = %q", got)
	}
}

// TestNewRefusesBadTime: the configurations Backoff and LeaseTimeout refuse.
func TestNewRefusesBadTime(t *testing.T) {
	t.Parallel()
	s := time.Second
	bad := map[string]Config{
		"NegativeLeaseTimeout": {LeaseTimeout: -s},
		"NegativeBase":         {Backoff: Backoff{Base: -s}},
		"NegativeMax":          {Backoff: Backoff{Base: s, Max: -s}},
		"FactorBelowOne":       {Backoff: Backoff{Base: s, Factor: 0.5}},
		"NegativeFactor":       {Backoff: Backoff{Base: s, Factor: -2}},
		"NaNFactor":            {Backoff: Backoff{Base: s, Factor: math.NaN()}},
		"InfiniteFactor":       {Backoff: Backoff{Base: s, Factor: math.Inf(1)}},
		"MaxBelowBase":         {Backoff: Backoff{Base: 2 * s, Max: s}},
		"UnknownJitter":        {Backoff: Backoff{Base: s, Jitter: 3}},
	}
	for name, cfg := range bad {
		cfg.MaxAttempts = 3
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New(%+v) accepted", name, cfg)
		}
	}
	good := map[string]Config{
		"None":              {},
		"LeaseOnly":         {LeaseTimeout: s},
		"BaseOnly":          {Backoff: Backoff{Base: s}},
		"MaxEqualsBase":     {Backoff: Backoff{Base: s, Factor: 2, Max: s}},
		"JitterWithoutBase": {Backoff: Backoff{Jitter: JitterFull, Seed: 9}},
	}
	for name, cfg := range good {
		cfg.MaxAttempts = 3
		if _, err := New(cfg); err != nil {
			t.Errorf("%s: New(%+v): %v", name, cfg, err)
		}
	}
}
