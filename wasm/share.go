//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// sharePanel is the share panel: the link to this step (copied when it
// opens), the embed snippet, and the picture and animation of the step.
type sharePanel struct {
	a  *app
	el struct {
		share, close           *dom.HTMLButtonElement
		panel                  *dom.BasicHTMLElement
		link, image, animation *dom.HTMLInputElement
		embed                  *dom.HTMLTextAreaElement
		imageOpen, animOpen    *dom.HTMLAnchorElement
		status                 *dom.BasicHTMLElement
	}
}

func newSharePanel(a *app) *sharePanel {
	sh := &sharePanel{a: a}
	e := &sh.el
	e.share, e.close = buttonByID("share"), buttonByID("share-close")
	e.panel = elementByID("share-panel")
	e.link = inputByID("share-link")
	e.image = inputByID("share-image")
	e.animation = inputByID("share-animation")
	e.embed = textAreaByID("embed-snippet")
	e.imageOpen = anchorByID("share-image-open")
	e.animOpen = anchorByID("share-animation-open")
	e.status = elementByID("share-status")
	return sh
}

// wire opens and closes the panel; a field selects its text when focused.
func (sh *sharePanel) wire() {
	e := &sh.el
	listen(e.share, "click", func(*dom.BasicEvent) { sh.open() })
	listen(e.close, "click", func(*dom.BasicEvent) { sh.close() })
	for _, field := range []*dom.HTMLInputElement{e.link, e.image, e.animation} {
		listen(field, "focus", func(*dom.BasicEvent) { field.Select() })
	}
	listen(e.embed, "focus", func(*dom.BasicEvent) { e.embed.Select() })
}

func (sh *sharePanel) close() { hide(sh.el.panel, true) }

// open fills the link to this step and the embed snippet, and copies the
// link.
func (sh *sharePanel) open() {
	if sh.a.p.ShareNeedsScript() { // a live DAG's link carries its script
		sh.a.live.script(sh.open)
		return
	}
	e := &sh.el
	loc := dom.GetWindow().Location()
	s := sh.a.p.Share(loc.Origin() + loc.Pathname())
	e.link.SetValue(s.Link)
	e.embed.SetValue(s.Embed)
	e.image.SetValue(s.ImageMarkdown)
	e.animation.SetValue(s.AnimationMarkdown)
	e.imageOpen.SetHref(s.Image)
	e.animOpen.SetHref(s.Animation)
	hide(e.panel, false)
	status := e.status
	status.SetTextContent(s.Status)
	clip := js.Global().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		guard("clipboard", func() { status.SetTextContent("Link copied. " + s.Status) })
		release()
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		release()
		return nil
	})
	clip.Call("writeText", s.Link).Call("then", ok, fail)
}
