//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// A notice on a phone spans the screen's width, and at its old place, the
// bottom, it covered the tasks drawn there. It is placed where it covers
// the least of the drawing's tasks, then of the page's controls, then of
// its text (playground.PlaceToast), again as the page or the drawing
// scrolls. On a wide screen it stays at the bottom right, over the side
// column, beside the drawing.

// wireNotice places the notice again when what is under it moves.
func (a *app) wireNotice() {
	queued := false
	again := func(js.Value) {
		if queued || isHiddenValue(a.el.notice) {
			return
		}
		queued = true
		afterFrames(1, func() { queued = false; a.placeNotice() })
	}
	on(js.Global(), "scroll", again)
	on(js.Global(), "resize", again)
	on(a.d.el.scroller, "scroll", again)
}

func isHiddenValue(el js.Value) bool { return el.Get("hidden").Bool() }

// noticeObstacles are what a notice should not cover besides the tasks,
// by weight.
var noticeObstacles = []struct {
	sel    string
	weight float64
}{
	{".timeline", playground.WeightControl}, {"#time-row", playground.WeightControl},
	{".stage-tools", playground.WeightControl}, {"#task-panel", playground.WeightControl},
	{".command-row", playground.WeightControl},
	{"#popover", playground.WeightControl},
	{".top", playground.WeightText}, {"#scenario-title", playground.WeightText},
	{"#scenario-about", playground.WeightText}, {"#counts", playground.WeightText}, {"#caption", playground.WeightText},
}

// placeNotice places the notice shown, on a phone.
func (a *app) placeNotice() {
	n := a.el.notice
	style := n.Get("style")
	phone := js.Global().Call("matchMedia", "(max-width: 760px)").Get("matches").Bool()
	if isHiddenValue(n) || !phone {
		style.Call("removeProperty", "top")
		style.Call("removeProperty", "bottom")
		return
	}
	screen := js.Global().Get("innerHeight").Float()
	rect := func(el js.Value) (playground.Rect, bool) {
		r := el.Call("getBoundingClientRect")
		pr := playground.Rect{X0: r.Get("left").Float(), Y0: r.Get("top").Float(), X1: r.Get("right").Float(), Y1: r.Get("bottom").Float()}
		return pr, pr.Y1 > 0 && pr.Y0 < screen && pr.X1 > pr.X0
	}
	var obs []playground.Obstacle
	for _, g := range nodeList(document.Call("querySelectorAll", "#graph g[data-task]")) {
		if r, ok := rect(g); ok {
			obs = append(obs, playground.Obstacle{Rect: r, Weight: playground.WeightTask})
		}
	}
	for _, o := range noticeObstacles {
		el := document.Call("querySelector", o.sel)
		if !el.Truthy() || el.Get("hidden").Bool() {
			continue
		}
		if r, ok := rect(el); ok {
			obs = append(obs, playground.Obstacle{Rect: r, Weight: o.weight})
		}
	}
	me, _ := rect(n)
	top := playground.PlaceToast(screen, me.Y1-me.Y0, me.X0, me.X1, 10, obs)
	style.Call("setProperty", "top", px(top))
	style.Call("setProperty", "bottom", "auto")
}
