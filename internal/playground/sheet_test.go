package playground_test

import (
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// TestPlaceSheet: a sheet goes under the task when there is room, over it
// when there is room only there, and never takes more than its share of
// the screen.
func TestPlaceSheet(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name             string
		screen, top, bot float64
		want             playground.Sheet
	}{
		{"TaskHighRoomBelowTakesItsShare", 844, 100, 140, playground.Sheet{MaxHeight: 844 * playground.SheetShare}},
		{"TaskMidBelowIsEnough", 844, 500, 580, playground.Sheet{MaxHeight: 844 - 580 - 8}},
		{"TaskLowGoesOnTop", 844, 630, 670, playground.Sheet{Top: true, MaxHeight: 844 * playground.SheetShare}},
		{"TaskLowOnAShortScreen", 400, 300, 380, playground.Sheet{Top: true, MaxHeight: playground.SheetMin}},
		{"NoRoomAnywhere", 400, 100, 350, playground.Sheet{MaxHeight: playground.SheetMin}},
		{"TinyScreen", 150, 40, 60, playground.Sheet{MaxHeight: 150}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := playground.PlaceSheet(tt.screen, tt.top, tt.bot); got != tt.want {
				t.Errorf("PlaceSheet(%v, %v, %v) = %+v, want %+v", tt.screen, tt.top, tt.bot, got, tt.want)
			}
		})
	}
}
