//go:build js && wasm

package main

import "syscall/js"

// sharePanel is the share panel: the link to this step (copied when it
// opens), the embed snippet, and the picture and animation of the step.
type sharePanel struct {
	a  *app
	el struct {
		share, panel, link, embed, status, close js.Value
		image, animation, imageOpen, animOpen    js.Value
	}
}

func newSharePanel(a *app) *sharePanel {
	sh := &sharePanel{a: a}
	e := &sh.el
	byIDs(idField{&e.share, "share"}, idField{&e.panel, "share-panel"}, idField{&e.link, "share-link"},
		idField{&e.embed, "embed-snippet"}, idField{&e.status, "share-status"}, idField{&e.close, "share-close"},
		idField{&e.image, "share-image"}, idField{&e.animation, "share-animation"},
		idField{&e.imageOpen, "share-image-open"}, idField{&e.animOpen, "share-animation-open"})
	return sh
}

// wire opens and closes the panel; a field selects its text when focused.
func (sh *sharePanel) wire() {
	e := &sh.el
	on(e.share, "click", func(js.Value) { sh.open() })
	on(e.close, "click", func(js.Value) { sh.close() })
	for _, field := range []js.Value{e.link, e.image, e.animation, e.embed} {
		on(field, "focus", func(js.Value) { field.Call("select") })
	}
}

func (sh *sharePanel) close() { setHidden(sh.el.panel, true) }

// open fills the link to this step and the embed snippet, and copies the
// link.
func (sh *sharePanel) open() {
	e := &sh.el
	loc := js.Global().Get("location")
	s := sh.a.p.Share(loc.Get("origin").String() + loc.Get("pathname").String())
	e.link.Set("value", s.Link)
	e.embed.Set("value", s.Embed)
	e.image.Set("value", s.ImageMarkdown)
	e.animation.Set("value", s.AnimationMarkdown)
	setAttr(e.imageOpen, "href", s.Image)
	setAttr(e.animOpen, "href", s.Animation)
	setHidden(e.panel, false)
	status := e.status
	setText(status, s.Status)
	clip := js.Global().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		guard("clipboard", func() { setText(status, "Link copied. "+s.Status) })
		release()
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		release()
		return nil
	})
	clip.Call("writeText", s.Link).Call("then", ok, fail)
}
