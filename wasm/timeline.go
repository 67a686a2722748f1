//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"time"

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

	el struct {
		slider, stepLabel, play, pause, speed    js.Value
		first, back, forward, last, undo, follow js.Value
	}
}

func newTimeline(a *app) *timeline {
	tl := &timeline{a: a, speed: 800 * time.Millisecond}
	e := &tl.el
	byIDs(idField{&e.slider, "step-slider"}, idField{&e.stepLabel, "step-label"}, idField{&e.play, "play"},
		idField{&e.pause, "pause"}, idField{&e.speed, "speed"}, idField{&e.first, "step-first"},
		idField{&e.back, "step-back"}, idField{&e.forward, "step-forward"}, idField{&e.last, "step-last"},
		idField{&e.undo, "undo"}, idField{&e.follow, "follow"})
	return tl
}

// wire connects the step controls.
func (tl *timeline) wire() {
	e := &tl.el
	a := tl.a
	on(e.first, "click", func(js.Value) { tl.seek(0) })
	on(e.back, "click", func(js.Value) { tl.step(-1) })
	on(e.forward, "click", func(js.Value) { tl.step(+1) })
	on(e.last, "click", func(js.Value) { tl.seek(scenario.StepEnd) })
	on(e.play, "click", func(js.Value) { tl.play() })
	on(e.pause, "click", func(js.Value) { tl.pause() })
	on(e.undo, "click", func(js.Value) { a.undo() })
	on(e.slider, "input", func(js.Value) {
		// A range input's value is a string, "0" to max.
		tl.pause()
		a.unnotify()
		if a.p.SeekTo(e.slider.Get("value").String()) {
			a.render(false)
		}
	})
	on(e.speed, "change", func(js.Value) {
		if ms, err := strconv.Atoi(e.speed.Get("value").String()); err == nil {
			tl.speed = time.Duration(ms) * time.Millisecond
			if tl.playing {
				// Play on at the new pace, from the step shown.
				tl.playGen++
				tl.tick(tl.playGen)
			}
		}
	})
	on(e.follow, "change", func(js.Value) { a.d.follow = e.follow.Get("checked").Bool() })
}

// render sets the slider, the step label and the buttons.
func (tl *timeline) render() {
	t := tl.a.p.Timeline()
	e := &tl.el
	e.slider.Set("max", t.SliderMax)
	e.slider.Set("value", t.SliderValue)
	setText(e.stepLabel, t.Label)
	e.first.Set("disabled", !t.CanBack)
	e.back.Set("disabled", !t.CanBack)
	e.forward.Set("disabled", !t.CanForward)
	e.last.Set("disabled", !t.CanForward)
	e.undo.Set("disabled", !t.CanUndo)
	setHidden(e.play, tl.playing)
	setHidden(e.pause, !tl.playing)
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
// of play gen began.
func (tl *timeline) tick(gen int) {
	a := tl.a
	s := a.p.Session()
	pace := playground.Pace{Start: clock(), From: s.Cursor(), Interval: tl.speed}
	var frame func()
	frame = func() {
		if !tl.playing || gen != tl.playGen {
			return
		}
		// One drawing a frame, of the step due now: a slow frame skips
		// steps rather than slowing play down.
		k := pace.Due(clock(), s.Len())
		if k != s.Cursor() {
			animate := pace.Animated() && k == s.Cursor()+1
			a.p.Seek(k)
			a.render(animate)
		}
		if k == s.Len() {
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
	tl.render()
}
