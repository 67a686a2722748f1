package playground

// Minimap is the overview of a drawing bigger than its stage: the whole
// layout shrunk into a box in a corner of the stage, each task a dot in
// its state's colour, and a frame around the part the stage shows; a
// click on it brings that part of the graph into view.
type Minimap struct {
	// SX and SY map the layout's pixels to the minimap's, across and
	// down; W and H are the minimap's size. The layout's shape is kept
	// but for a layout so long or so wide that its shorter side would be
	// under MinimapMin: that side is then stretched to MinimapMin.
	SX, SY, W, H float64
}

// MinimapMax is the most room the minimap takes, in pixels, and
// MinimapMin the least of its shorter side (a chain of 3,000 tasks is a
// thin strip, never a line of one pixel).
const (
	MinimapMaxW, MinimapMaxH = 200, 120
	MinimapMin               = 48
)

// MinimapRoom returns the most room the minimap takes in a stage of
// vw×vh: MinimapMaxW×MinimapMaxH, but no more than a third of the stage's
// width and its height, so that on a phone's stage (360 px wide) it
// leaves most of the drawing to be seen. The cost is O(1).
func MinimapRoom(vw, vh float64) (maxW, maxH float64) {
	return max(MinimapMin, min(MinimapMaxW, vw/3)), max(MinimapMin, min(MinimapMaxH, vh/3))
}

// ShowMinimap reports whether a drawing of layout size lw×lh at zoom z
// needs an overview in a view of vw×vh: when it does not fit, so that
// the stage shows only a part of it.
func ShowMinimap(lw, lh, z, vw, vh float64) bool {
	return lw > 0 && lh > 0 && !Fits(lw*z, lh*z, vw, vh)
}

// MinimapFor returns the minimap of a layout lw×lh that fits maxW×maxH,
// its shorter side at least MinimapMin. The cost is O(1).
func MinimapFor(lw, lh, maxW, maxH float64) Minimap {
	if lw <= 0 || lh <= 0 {
		return Minimap{}
	}
	s := min(maxW/lw, maxH/lh)
	w, h := max(lw*s, min(MinimapMin, maxW)), max(lh*s, min(MinimapMin, maxH))
	return Minimap{SX: w / lw, SY: h / lh, W: w, H: h}
}

// Frame returns the part of the layout the stage shows ([Seen]) in the
// minimap's pixels, clipped to the minimap.
func (m Minimap) Frame(seen Rect) Rect {
	c := func(v, hi float64) float64 { return max(0, min(v, hi)) }
	return Rect{c(seen.X0*m.SX, m.W), c(seen.Y0*m.SY, m.H), c(seen.X1*m.SX, m.W), c(seen.Y1*m.SY, m.H)}
}

// At returns the point of the layout under the minimap's point (x, y).
func (m Minimap) At(x, y float64) (lx, ly float64) {
	if m.SX <= 0 || m.SY <= 0 {
		return 0, 0
	}
	return x / m.SX, y / m.SY
}
