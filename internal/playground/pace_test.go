package playground_test

import (
	"testing"
	"time"

	"github.com/dagq/dagq/internal/playground"
)

func TestPaceDue(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	p := playground.Pace{Start: 1000 * ms, From: 10, Interval: 50 * ms}
	tests := []struct {
		name string
		now  time.Duration
		last int
		want int
	}{
		{"AtTheStartTheStepShown", 1000 * ms, 100, 10},
		{"BeforeAnIntervalNothingMore", 1049 * ms, 100, 10},
		{"OneStepAnInterval", 1050 * ms, 100, 11},
		{"ASlowFrameSkipsSteps", 1260 * ms, 100, 15},
		{"FiveSecondsAt16xAreAHundredSteps", 6000 * ms, 1000, 110},
		{"NeverPastTheLast", 9000 * ms, 42, 42},
		{"AClockBeforeTheStart", 900 * ms, 100, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Due(tt.now, tt.last); got != tt.want {
				t.Fatalf("Due(%v, %d) = %d, want %d", tt.now, tt.last, got, tt.want)
			}
		})
	}
	if (playground.Pace{Interval: 50 * ms}).Animated() || !(playground.Pace{Interval: 800 * ms}).Animated() {
		t.Fatal("play animates its steps only at 200 ms a step or slower")
	}
}

// TestPaceFollowsAndTells: play that animates follows every step into
// view and tells every one in the page's text; at 16× it follows the
// first step and then one a second, and tells the first and then one a
// quarter of a second, never two within one.
func TestPaceFollowsAndTells(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	fast, slow := playground.Pace{Interval: 50 * ms}, playground.Pace{Interval: 800 * ms}
	follows := func(p playground.Pace, now, last time.Duration) bool { return p.Follows(now, last) }
	tells := func(p playground.Pace, now, last time.Duration) bool { return p.Tells(now, last) }
	tests := []struct {
		name      string
		decide    func(p playground.Pace, now, last time.Duration) bool
		p         playground.Pace
		now, last time.Duration
		want      bool
	}{
		{"AnimatedFollowsEveryStep", follows, slow, 1010 * ms, 1000 * ms, true},
		{"FastFollowsTheFirst", follows, fast, 1000 * ms, -1, true},
		{"FastHoldsWithinASecond", follows, fast, 1999 * ms, 1000 * ms, false},
		{"FastFollowsASecondOn", follows, fast, 2000 * ms, 1000 * ms, true},
		{"AnimatedTellsEveryStep", tells, slow, 1010 * ms, 1000 * ms, true},
		{"FastTellsTheFirst", tells, fast, 1000 * ms, -1, true},
		{"FastHoldsWithinAQuarter", tells, fast, 1249 * ms, 1000 * ms, false},
		{"FastTellsAQuarterOn", tells, fast, 1250 * ms, 1000 * ms, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.decide(tt.p, tt.now, tt.last); got != tt.want {
				t.Fatalf("at %v a step, now %v and last %v: %v, want %v", tt.p.Interval, tt.now, tt.last, got, tt.want)
			}
		})
	}
	// At 16× for 5 s, frame by frame: 20 steps told, of 100 drawn.
	told, last := 0, time.Duration(-1)
	for now := time.Duration(0); now < 5*time.Second; now += 16667 * time.Microsecond {
		if fast.Tells(now, last) {
			if last >= 0 && now-last < playground.TellEvery {
				t.Fatalf("told at %v and again at %v", last, now)
			}
			told, last = told+1, now
		}
	}
	if told < 19 || told > 20 {
		t.Fatalf("at 16× for 5 s, %d steps told; want 19 or 20", told)
	}
}
