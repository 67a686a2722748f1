//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// timeline is the step controls: the slider and its label, first, back,
// forward, last, Undo, play and pause at the chosen speed.
type timeline struct {
	a       *app
	playing bool
	playGen int // counts runs of play; a pause ends the current one
	speed   time.Duration

	labelWidth int      // the step label's room, in characters (playground.Timeline.LabelWidth)
	command    js.Value // the command box, where Undo's focus goes

	el struct {
		slider, follow                                *dom.HTMLInputElement
		stepLabel                                     *dom.BasicHTMLElement
		speed                                         *dom.HTMLSelectElement
		play, pause, first, back, forward, last, undo *dom.HTMLButtonElement
	}
}

func newTimeline(a *app) *timeline {
	tl := &timeline{a: a, speed: 800 * time.Millisecond}
	e := &tl.el
	e.slider, e.follow = inputByID("step-slider"), inputByID("follow")
	e.stepLabel = elementByID("step-label")
	tl.command = byID("command")
	e.speed = selectByID("speed")
	for _, b := range []struct {
		el **dom.HTMLButtonElement
		id string
	}{{&e.play, "play"}, {&e.pause, "pause"}, {&e.first, "step-first"}, {&e.back, "step-back"},
		{&e.forward, "step-forward"}, {&e.last, "step-last"}, {&e.undo, "undo"}} {
		*b.el = buttonByID(b.id)
	}
	return tl
}

// wire connects the step controls.
func (tl *timeline) wire() {
	e := &tl.el
	a := tl.a
	listen(e.first, "click", func(*dom.BasicEvent) { tl.seek(0) })
	listen(e.back, "click", func(*dom.BasicEvent) { tl.step(-1) })
	listen(e.forward, "click", func(*dom.BasicEvent) { tl.step(+1) })
	listen(e.last, "click", func(*dom.BasicEvent) { tl.seek(scenario.StepEnd) })
	listen(e.play, "click", func(*dom.BasicEvent) { tl.play() })
	listen(e.pause, "click", func(*dom.BasicEvent) { tl.pause() })
	listen(e.undo, "click", func(*dom.BasicEvent) { a.undo() })
	listen(e.slider, "input", func(*dom.BasicEvent) {
		// A range input's value is a string, "0" to max.
		tl.pause()
		a.unnotify()
		if a.p.SeekTo(e.slider.Value()) {
			a.render(false)
		}
	})
	listen(e.speed, "change", func(*dom.BasicEvent) {
		if ms, err := strconv.Atoi(e.speed.Value()); err == nil {
			tl.speed = time.Duration(ms) * time.Millisecond
			if tl.playing {
				// Play on at the new pace, from the step shown, told.
				a.tellLate()
				tl.playGen++
				tl.tick(tl.playGen)
			}
		}
	})
	listen(e.follow, "change", func(*dom.BasicEvent) { a.d.follow = e.follow.Checked() })
}

// render sets the slider, the step label and the buttons.
func (tl *timeline) render() {
	t := tl.a.p.Timeline()
	e := &tl.el
	e.slider.SetMax(t.SliderMax)
	e.slider.SetValue(t.SliderValue)
	e.stepLabel.SetTextContent(t.Label)
	if t.LabelWidth != tl.labelWidth {
		// The label's room at its widest, in its monospaced font's
		// characters: the slider beside it keeps its length.
		tl.labelWidth = t.LabelWidth
		e.stepLabel.Style().SetProperty("min-width", strconv.Itoa(t.LabelWidth)+"ch", "")
	}
	e.first.SetDisabled(!t.CanBack)
	e.back.SetDisabled(!t.CanBack)
	e.forward.SetDisabled(!t.CanForward)
	e.last.SetDisabled(!t.CanForward)
	e.undo.SetDisabled(!t.CanUndo)
	// Read before the hiding: a focused element hidden loses the focus
	// at once.
	active := document.Get("activeElement")
	hide(e.play, tl.playing)
	hide(e.pause, !tl.playing)
	tl.keepFocus(active)
}

// keepFocus keeps the focus in the timeline when the button that has it
// is hidden or disabled under it, where it would fall to the page's
// body: Play's goes to Pause and back, a step button's at either end to
// the slider, which steps with the arrow keys and does nothing on Enter,
// and Undo's, with nothing left to undo, to the command box beside it.
func (tl *timeline) keepFocus(active js.Value) {
	e := &tl.el
	switch {
	case active.Equal(e.play.Underlying()) && tl.playing:
		e.pause.Focus()
	case active.Equal(e.pause.Underlying()) && !tl.playing:
		e.play.Focus()
	}
	passFocus(e.undo.Underlying(), tl.command)
	for _, b := range []*dom.HTMLButtonElement{e.first, e.back, e.forward, e.last} {
		passFocus(b.Underlying(), e.slider.Underlying())
	}
}

// step moves one step; forward is animated.
func (tl *timeline) step(d int) {
	a := tl.a
	tl.pause()
	a.unnotify()
	s := a.p.Session()
	if d > 0 {
		if s.Forward() {
			a.render(true)
		}
		return
	}
	if s.Back() {
		a.render(false)
	}
}

// seek jumps to step k.
func (tl *timeline) seek(k int) {
	a := tl.a
	tl.pause()
	a.unnotify()
	if a.p.Seek(k) != a.shown {
		a.render(false)
	}
}

// play steps forward at the chosen speed until the end; from the end it
// starts again at step 0.
func (tl *timeline) play() {
	if tl.playing {
		return
	}
	a := tl.a
	a.unnotify()
	if a.p.StartPlay() {
		a.render(false)
	}
	tl.playing = true
	tl.playGen++
	tl.render()
	tl.tick(tl.playGen)
}

// tick steps forward after a while, unless play was paused since the run
// of play gen began. Play that animates its steps draws and tells each one
// in its frame; faster, each frame does one job at most, as
// playground.Frames plans: the step due, or one of the chores the steps
// drawn left (follow, tell, minimap), so that on a loaded machine no frame
// costs more than one.
func (tl *timeline) tick(gen int) {
	a := tl.a
	s := a.p.Session()
	pace := playground.Pace{Start: clock(), From: s.Cursor(), Interval: tl.speed}
	quick := !pace.Animated()
	// Too fast to animate, the tasks' colours change without fading, and
	// the minimap is drawn as a chore of its own.
	toggleClass(a.d.g.svg, "quick", quick)
	a.d.mm.hold(quick)
	followed := time.Duration(-1) // when a step was last followed into view
	told := time.Duration(-1)     // when a step was last told in the page's text
	var plan playground.Frames
	var frame func()
	frame = func() {
		if !tl.playing || gen != tl.playGen {
			return
		}
		// One step a frame at most, the one due now: a slow frame skips
		// steps rather than slowing play down.
		at := clock()
		k := pace.Due(at, s.Len())
		if !quick {
			if k != s.Cursor() {
				animate := k == s.Cursor()+1
				a.p.Seek(k)
				a.render(animate)
			}
		} else {
			switch job := plan.Next(at, k != s.Cursor()); job {
			case playground.JobStep:
				if pace.Follows(at, followed) {
					followed, plan.Follow = at, true
				}
				if pace.Tells(at, told) {
					told, plan.Tell = at, true
				}
				a.p.Seek(k)
				a.d.holdFollow, a.untold = true, true
				a.render(false)
				a.d.holdFollow, a.untold = false, false
				plan.Minimap = plan.Minimap || a.d.mm.dotsDue()
			case playground.JobFollow:
				a.d.followShown()
				plan.Chores = plan.Done(job)
				plan.Minimap = plan.Minimap || !a.d.mm.hidden
			case playground.JobTell:
				if a.tellNext() {
					// The next tell is TellEvery after this one ends,
					// however long a loaded machine took over it.
					told, plan.Chores = at, plan.Done(job)
				}
			case playground.JobMinimap:
				a.d.mm.draw()
				plan.Chores = plan.Done(job)
			}
		}
		// The end: the last step drawn (a frame may leave a step due
		// waiting) and its chores done.
		if s.Cursor() == s.Len() && plan.Chores == (playground.Chores{}) {
			tl.pause()
			return
		}
		afterFrames(1, frame)
	}
	afterFrames(1, frame)
}

func (tl *timeline) pause() {
	if !tl.playing {
		return
	}
	tl.playing = false
	tl.playGen++
	toggleClass(tl.a.d.g.svg, "quick", false)
	tl.a.tellLate()
	tl.a.setAddress()
	tl.a.d.mm.hold(false)
	tl.a.steady.release()
	tl.render()
}
