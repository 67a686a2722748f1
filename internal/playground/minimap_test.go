package playground_test

import (
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

// TestMinimap: the minimap keeps the layout's shape within its box, is
// never a hair thin, frames the part seen, and maps a click back to the
// layout.
func TestMinimap(t *testing.T) {
	t.Parallel()
	m := playground.MinimapFor(9000, 600, playground.MinimapMaxW, playground.MinimapMaxH)
	if m.W != 200 || m.H != playground.MinimapMin || m.SX != 200.0/9000 || m.SY != playground.MinimapMin/600.0 {
		t.Errorf("a wide layout's minimap: %+v", m)
	}
	m = playground.MinimapFor(1200, 2400, playground.MinimapMaxW, playground.MinimapMaxH)
	if m.W != 60 || m.H != 120 {
		t.Errorf("a tall layout's minimap: %+v", m)
	}
	if m.SX != 0.05 || m.SY != 0.05 {
		t.Errorf("a tall layout's minimap is stretched: %+v", m)
	}
	f := m.Frame(playground.Rect{X0: 600, Y0: -100, X1: 1800, Y1: 600})
	if f != (playground.Rect{X0: 30, Y0: 0, X1: 60, Y1: 30}) {
		t.Errorf("frame %+v", f)
	}
	if x, y := m.At(30, 60); x != 600 || y != 1200 {
		t.Errorf("At(30, 60) = %v, %v", x, y)
	}
	if !playground.ShowMinimap(2000, 500, 1, 800, 400) || playground.ShowMinimap(2000, 500, 0.3, 800, 400) {
		t.Error("the minimap shows when the drawing does not fit, and only then")
	}
	if (playground.MinimapFor(0, 10, 180, 120) != playground.Minimap{}) {
		t.Error("an empty layout has a minimap")
	}
}

// TestMinimapRoom: on a desktop's stage the minimap takes its most room;
// on a phone's, a third of the stage's width at most, never under
// MinimapMin.
func TestMinimapRoom(t *testing.T) {
	t.Parallel()
	if w, h := playground.MinimapRoom(860, 560); w != playground.MinimapMaxW || h != playground.MinimapMaxH {
		t.Errorf("desktop: %v×%v", w, h)
	}
	if w, h := playground.MinimapRoom(358, 420); w != 358.0/3 || h != playground.MinimapMaxH {
		t.Errorf("phone: %v×%v", w, h)
	}
	if w, h := playground.MinimapRoom(90, 90); w != playground.MinimapMin || h != playground.MinimapMin {
		t.Errorf("tiny stage: %v×%v", w, h)
	}
}
