// Package picture draws a scenario as an SVG image: the graph at one step,
// or an animation of the whole run. `wq svg` and the site's /svg serve the
// same pictures, drawn by package render from what a scenario.Session says,
// with the playground's captions.
package picture

import (
	"io"
	"strconv"
	"time"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// MaxFrames is the most frames an animation has: a longer run is shown at
// evenly spaced steps, its first and last among them, so that a picture of
// thousands of steps stays small.
const MaxFrames = 100

// maxPlay is the longest an animation plays before it loops (besides its
// hold on the last frame): frames are shortened to fit.
const maxPlay = 72 * time.Second

// Static writes the graph of s after step k (0 to s.Len(), or
// scenario.StepEnd), titled title, with its caption: every task submitted by then in its
// state, the dead-letter reasons as tooltips, and a refused cycle's path
// highlighted at the step that refused it. The session's cursor is left
// where it was.
func Static(w io.Writer, s *scenario.Session, k int, title string) error {
	if k == scenario.StepEnd || k > s.Len() {
		k = s.Len()
	}
	k = max(k, 0)
	f := frame(s, k)
	nodes, _ := playground.GraphNodes(s.GraphAt(k))
	return render.WriteSVG(w, nodes, render.LayOut(nodes), render.Options{
		States: f.States, Reasons: reasons(s, k), Highlight: f.Highlight, Caption: f.Caption, Title: title,
	})
}

// Animated writes an animation of s from step 0 to its end, looping: see
// render.WriteAnimatedSVG. A run of more than MaxFrames steps is shown at
// MaxFrames of them, each frame for a shorter time.
func Animated(w io.Writer, s *scenario.Session, title string) error {
	steps := Frames(s.Len())
	frames := make([]render.Frame, len(steps))
	for i, k := range steps {
		frames[i] = frame(s, k)
	}
	nodes, _ := playground.GraphNodes(s.GraphAt(scenario.StepEnd))
	opt := render.AnimateOptions{Title: title, Frame: min(render.DefaultFrame, maxPlay/time.Duration(len(steps)))}
	return render.WriteAnimatedSVG(w, nodes, render.LayOut(nodes), frames, opt)
}

// Frames returns the steps an animation of n steps shows: every one of
// 0…n, or MaxFrames of them evenly spaced, 0 and n included.
func Frames(n int) []int {
	if n+1 <= MaxFrames {
		out := make([]int, n+1)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, MaxFrames)
	for i := range out {
		out[i] = i * n / (MaxFrames - 1)
	}
	return out
}

// frame is the picture of step k: the states, the cycle refused there,
// and the caption "step k of n: …".
func frame(s *scenario.Session, k int) render.Frame {
	b := s.BoardAt(k)
	f := render.Frame{States: b.States(), Caption: caption(s, k)}
	if path := s.Cycle(k); len(path) > 0 {
		f.Highlight = make(map[string]bool, len(path))
		for _, t := range path {
			f.Highlight[t] = true
		}
	}
	return f
}

// caption is "step k of n: what it did", or the playground's opening line
// at step 0.
func caption(s *scenario.Session, k int) string {
	if k == 0 {
		return playground.Explain(s, 0)
	}
	return "step " + strconv.Itoa(k) + " of " + strconv.Itoa(s.Len()) + ": " + playground.Explain(s, k)
}

// reasons returns the dead-letter reason of every DEAD or BLOCKED task
// after step k.
func reasons(s *scenario.Session, k int) map[string]string {
	out := map[string]string{}
	for _, d := range s.BoardAt(k).DeadLetters() {
		out[d.Task] = d.Reason
	}
	return out
}
