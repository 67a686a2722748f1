package playground_test

import (
	"testing"

	"github.com/dagq/dagq/core"
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

// TestMinimapPaint: each dot covers the pixels under its box in its
// state's colour, a later state over an earlier one and any state over a
// task not submitted; a dot too small for a pixel still gets one, and one
// off the canvas is left out.
func TestMinimapPaint(t *testing.T) {
	t.Parallel()
	m := playground.Minimap{SX: 0.1, SY: 0.1, W: 10, H: 10}
	const pw, ph = 20, 20 // a device pixel ratio of 2
	img := make([]byte, pw*ph*4)
	at := func(x, y int) [4]byte {
		i := (y*pw + x) * 4
		return [4]byte{img[i], img[i+1], img[i+2], img[i+3]}
	}
	colour := func(st core.State) [4]byte {
		c := playground.DotColour(st)
		return [4]byte{c[0], c[1], c[2], 255}
	}
	m.Paint(img, pw, ph, 2, 3, 3, []playground.Dot{
		{X: 50, Y: 50, State: core.Dead},      // minimap (5, 5): pixels 7…12
		{X: 40, Y: 50, State: ""},             // under the DEAD one where they meet
		{X: 60, Y: 50, State: core.Pending},   // under it too: PENDING comes first
		{X: 90, Y: 90, State: core.Blocked},   // a corner: clipped
		{X: 500, Y: 500, State: core.Ready},   // off the canvas
		{X: 10, Y: 10, State: core.Succeeded}, // drawn at (1, 1): pixels -1…4, clipped
	})
	for _, c := range []struct {
		x, y int
		want [4]byte
	}{
		{7, 7, colour(core.Dead)}, {12, 12, colour(core.Dead)}, {10, 7, colour(core.Dead)},
		{6, 10, colour("")}, {13, 10, colour(core.Pending)},
		{6, 6, [4]byte{}}, {13, 13, [4]byte{}},
		{19, 19, colour(core.Blocked)}, {15, 15, colour(core.Blocked)},
		{0, 0, colour(core.Succeeded)}, {4, 4, colour(core.Succeeded)}, {5, 5, [4]byte{}},
	} {
		if got := at(c.x, c.y); got != c.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if c := playground.DotColour(core.Dead); c != [3]byte{0xd5, 0x5e, 0x00} {
		t.Errorf("DEAD's dot is %v, want its stroke #d55e00", c)
	}
	tiny := make([]byte, pw*ph*4)
	m.Paint(tiny, pw, ph, 2, 0.1, 0.1, []playground.Dot{{X: 33, Y: 77, State: core.Ready}}) // (3.3, 7.7): pixel (6, 15)
	n := 0
	for i := 3; i < len(tiny); i += 4 {
		if tiny[i] != 0 {
			n++
		}
	}
	if n != 1 || tiny[(15*pw+6)*4+3] != 255 {
		t.Errorf("a dot smaller than a pixel covers %d pixels, want the one under it", n)
	}
}
