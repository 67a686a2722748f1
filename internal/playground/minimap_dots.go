package playground

import (
	"math"
	"strconv"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
)

// Dot is a task on the minimap: where it is in the layout, and its state
// ("" for a task not submitted yet).
type Dot struct {
	X, Y  float64
	State core.State
}

// DotSize returns the size of a task's dot on the minimap, in its pixels:
// a task's box (a compact grid's cell, if the layout has grids) shrunk as
// the layout is, but at least 2.5 pixels a side.
func (m Minimap) DotSize(l render.Layout) (w, h float64) {
	w, h = l.NodeW, l.NodeH
	if len(l.Grids) > 0 {
		w, h = min(w, l.CellW), min(h, l.CellH)
	}
	return max(2.5, w*m.SX), max(2.5, h*m.SY)
}

// DotColour returns the colour of a dot in state st, as red, green and
// blue: the state's stroke ([render.StyleOf]), grey for a task not
// submitted yet.
func DotColour(st core.State) [3]byte {
	hex := "#c9cfd6"
	if st != "" {
		hex = render.StyleOf(st).Stroke
	}
	var c [3]byte
	for i := range c {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c[i] = byte(v)
	}
	return c
}

// Paint draws dots, each a dw×dh box of the minimap's pixels centred on
// its task, into img: the pixels of a canvas pw×ph pixels, scale of them a
// minimap pixel (the device's pixel ratio), as an ImageData holds them
// (red, green, blue and alpha, rows from the top). A pixel is a dot's
// when its centre is in the dot's box, and every dot has one pixel at
// least; where dots overlap, the state later in [core.States] shows, and
// tasks not submitted lie beneath them all. Pixels under no dot are left
// as they are. The page draws the minimap so, in one call to the canvas,
// rather than a call a dot: 5,000 calls cost a frame.
//
// The cost is O(len(dots) × states + pixels covered).
func (m Minimap) Paint(img []byte, pw, ph int, scale, dw, dh float64, dots []Dot) {
	if pw <= 0 || ph <= 0 || len(img) < pw*ph*4 {
		return
	}
	span := func(c, size float64, n int) (lo, hi int) {
		a, b := (c-size/2)*scale, (c+size/2)*scale
		lo, hi = int(math.Ceil(a-0.5)), int(math.Ceil(b-0.5))
		if hi <= lo {
			lo = int(math.Floor(c * scale))
			hi = lo + 1
		}
		return max(0, lo), min(n, hi)
	}
	for _, st := range append([]core.State{""}, core.States()...) {
		col := DotColour(st)
		for _, d := range dots {
			if d.State != st {
				continue
			}
			x0, x1 := span(d.X*m.SX, dw, pw)
			y0, y1 := span(d.Y*m.SY, dh, ph)
			for y := y0; y < y1; y++ {
				row := img[(y*pw+x0)*4 : (y*pw+x1)*4]
				for i := 0; i < len(row); i += 4 {
					row[i], row[i+1], row[i+2], row[i+3] = col[0], col[1], col[2], 255
				}
			}
		}
	}
}
