//go:build js && wasm

package main

import (
	"math"
	"syscall/js"
)

// steady keeps the parts of the page whose height a step changes from
// shrinking while play runs. Chromium paints a box whose size changes
// anew, whole: a caption one line shorter at one step and one line longer
// at the next resized the middle pane, 600 by 800 pixels, twice, and a
// step of 16× cost three times the pixels it changed. While play runs each
// part keeps the tallest height it has had (as its min-height); a pause
// lets them go.
type steady struct {
	els  []js.Value
	held []float64 // the min-height set on each, 0 for none
}

// steadyParts are the parts held, by selector: the counts and the caption
// above and below the drawing, the READY line, the dead-letter queue and
// the cycle check's note, and the panes that hold them.
var steadyParts = []string{"#counts", "#caption", ".stage-pane", "#ready-line", "#dlq-console", "#dlq", "#visits-note", ".side-pane"}

func newSteady() *steady {
	s := &steady{}
	for _, sel := range steadyParts {
		if el := document.Call("querySelector", sel); el.Truthy() {
			s.els = append(s.els, el)
		}
	}
	s.held = make([]float64, len(s.els))
	return s
}

// hold reads each part's height (the page is laid out then, as it would
// be for the frame anyway) and raises its min-height to it where it grew.
func (s *steady) hold() {
	var h []float64
	for _, el := range s.els {
		h = append(h, el.Call("getBoundingClientRect").Get("height").Float())
	}
	for i, el := range s.els {
		if h[i] > s.held[i] {
			// Whole pixels, rounded up: a min-height of 41.328px held a
			// part 41.328125 high at 41.3125 at one step and not at the
			// next, and everything below it moved by 1/64 px.
			s.held[i] = math.Ceil(h[i])
			el.Get("style").Set("minHeight", px(s.held[i]))
		}
	}
}

// release lets every part take its own height again.
func (s *steady) release() {
	for i, el := range s.els {
		if s.held[i] != 0 {
			s.held[i] = 0
			el.Get("style").Set("minHeight", "")
		}
	}
}
