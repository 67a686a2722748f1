package playground_test

import (
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// TestPlaceToast: a notice goes at the bottom when nothing is there, above
// a task that is, between tasks where it fits, and over text rather than
// over a task when it must cover something.
func TestPlaceToast(t *testing.T) {
	t.Parallel()
	task := func(y0, y1 float64) playground.Obstacle {
		return playground.Obstacle{Rect: playground.Rect{X0: 50, Y0: y0, X1: 180, Y1: y1}, Weight: playground.WeightTask}
	}
	text := func(y0, y1 float64) playground.Obstacle {
		return playground.Obstacle{Rect: playground.Rect{X0: 0, Y0: y0, X1: 390, Y1: y1}, Weight: playground.WeightText}
	}
	for _, tt := range []struct {
		name string
		obs  []playground.Obstacle
		want float64
	}{
		{"NothingAtTheBottom", nil, 844 - 10 - 60},
		{"ATaskAtTheBottomPushesItUp", []playground.Obstacle{task(760, 800)}, 760 - playground.ToastGap - 60},
		{"BetweenTwoRowsWhereItFits", []playground.Obstacle{task(100, 700), task(780, 844)}, 780 - playground.ToastGap - 60},
		{"OverTextRatherThanATask", []playground.Obstacle{text(0, 200), task(200, 844)}, 200 - playground.ToastGap - 60},
	} {
		t.Run(tt.name, func(t *testing.T) {
			top := playground.PlaceToast(844, 60, 10, 380, 10, tt.obs)
			if top != tt.want {
				t.Errorf("top %v, want %v", top, tt.want)
			}
		})
	}
	if top := playground.PlaceToast(50, 60, 0, 390, 10, nil); top != 10 {
		t.Errorf("a notice taller than the screen goes at %v, want the margin", top)
	}
}
