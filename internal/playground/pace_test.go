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
