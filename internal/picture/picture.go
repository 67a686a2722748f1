// Package picture draws a scenario as an SVG image: the graph at one step,
// or an animation of the whole run. `wq svg` and the site's /svg serve the
// same pictures, drawn by package render from what a run of the script
// hands over (scenario.Record), with the playground's captions.
package picture

import (
	"context"
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

// StepError is a picture asked of a step past the end of the run.
type StepError struct {
	Step int // the step asked for
	Len  int // how many steps the run has
}

// Error says "step 12 is past the end: the script runs 9 steps".
func (e *StepError) Error() string {
	return "step " + strconv.Itoa(e.Step) + " is past the end: the script runs " + strconv.Itoa(e.Len) + " steps"
}

// Draw writes the picture of the script src, titled by its title
// (scenario.Title): with animate, an animation of the whole run, looping
// (see render.WriteAnimatedSVG), at most MaxFrames frames of it; else the
// graph after step k (0 to the last step, or scenario.StepEnd) with its
// caption: every task submitted by then in its state, the dead-letter
// reasons as tooltips, and a refused cycle's path highlighted at the step
// that refused it.
//
// The script runs under lim and ctx (scenario.Record): a picture keeps
// the board of the step it draws, or of each frame, and the graph, never
// every step's events, so that its memory is O(script + tasks + edges +
// frames × tasks + the events of one step). It fails, before writing
// anything, with a *scenario.SyntaxError, an unknown strategy, a
// *scenario.LimitError, or a *StepError for a k past the end; then with
// w's error.
func Draw(ctx context.Context, w io.Writer, src string, opt scenario.Options, lim scenario.Limits, k int, animate bool) error {
	title := scenario.Title(src)
	var frames []render.Frame
	var reasons map[string]string
	keep := func(n int) []int {
		if animate {
			return Frames(n)
		}
		if k == scenario.StepEnd || k > n {
			return []int{n}
		}
		return []int{max(k, 0)}
	}
	rec, err := scenario.Record(ctx, src, opt, lim, keep, func(m *scenario.Moment) {
		frames = append(frames, frame(m))
		if !animate {
			reasons = map[string]string{}
			for _, d := range m.Board().DeadLetters() {
				reasons[d.Task] = d.Reason
			}
		}
	})
	if err != nil {
		return err
	}
	if animate {
		nodes, _ := playground.GraphNodes(rec.GraphAt(scenario.StepEnd))
		opt := render.AnimateOptions{Title: title, Frame: min(render.DefaultFrame, maxPlay/time.Duration(len(frames)))}
		return render.WriteAnimatedSVG(w, nodes, render.LayOut(nodes), frames, opt)
	}
	if k != scenario.StepEnd && k > rec.Len() {
		return &StepError{Step: k, Len: rec.Len()}
	}
	if k == scenario.StepEnd {
		k = rec.Len()
	}
	f := frames[0]
	nodes, _ := playground.GraphNodes(rec.GraphAt(max(k, 0)))
	return render.WriteSVG(w, nodes, render.LayOut(nodes), render.Options{
		States: f.States, Reasons: reasons, Highlight: f.Highlight, Caption: f.Caption, Title: title,
	})
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

// frame is the picture of a step: the states, the cycle refused there,
// and the caption "step k of n: …".
func frame(m *scenario.Moment) render.Frame {
	f := render.Frame{States: m.Board().States(), Caption: caption(m)}
	if path := m.Cycle(); len(path) > 0 {
		f.Highlight = make(map[string]bool, len(path))
		for _, t := range path {
			f.Highlight[t] = true
		}
	}
	return f
}

// caption is "step k of n: what it did", or the playground's opening line
// at step 0.
func caption(m *scenario.Moment) string {
	k := m.K()
	if k == 0 {
		return playground.Explain(m, 0)
	}
	return "step " + strconv.Itoa(k) + " of " + strconv.Itoa(m.Len()) + ": " + playground.Explain(m, k)
}
