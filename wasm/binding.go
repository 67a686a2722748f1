//go:build js && wasm

package main

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// The panels that change a few elements once a step or on a click (the
// timeline, the counts, the clock, the console, the dead-letter queue, the
// popover, the share panel) speak to the page through the DOM binding
// honnef.co/go/js/dom/v2: typed elements (a button's SetDisabled, an
// input's Value, a select's Value) and typed events (a key's Key). The
// drawing, the READY line, the event log and the editor keep the
// syscall/js helpers of dom.go: they change hundreds of elements a step,
// run on every pointer move and scroll, or need what the binding lacks
// (scrollTop, clientHeight).
//
// Each element is made the binding's type of its kind here, from what the
// page knows it is, rather than by the binding's own wrapping (WrapElement,
// an element's QuerySelector or Closest, an event's Target): that asks
// JavaScript for the element's constructor and compares it with each of
// the binding's sixty kinds, on every call, and links every kind into
// main.wasm, 0.1 MB more to download with brotli. So nothing here calls a
// method of the binding that returns an element or an event.

// htmlElement makes el the binding's element of no more precise kind.
func htmlElement(el js.Value) *dom.BasicHTMLElement {
	return &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: el}}}
}

// kindByID returns the element with this id, which must be a tag (upper
// case, as tagName says) of the page; it panics otherwise, which is a bug
// of index.html.
func kindByID(id, tag string) js.Value {
	el := byID(id)
	if got := el.Get("tagName").String(); got != tag {
		panic("playground: index.html's #" + id + " is a " + got + ", not a " + tag)
	}
	return el
}

func buttonByID(id string) *dom.HTMLButtonElement {
	return &dom.HTMLButtonElement{BasicHTMLElement: htmlElement(kindByID(id, "BUTTON"))}
}

func inputByID(id string) *dom.HTMLInputElement {
	return &dom.HTMLInputElement{BasicHTMLElement: htmlElement(kindByID(id, "INPUT"))}
}

func selectByID(id string) *dom.HTMLSelectElement {
	return &dom.HTMLSelectElement{BasicHTMLElement: htmlElement(kindByID(id, "SELECT"))}
}

func textAreaByID(id string) *dom.HTMLTextAreaElement {
	return &dom.HTMLTextAreaElement{BasicHTMLElement: htmlElement(kindByID(id, "TEXTAREA"))}
}

func anchorByID(id string) *dom.HTMLAnchorElement {
	el := kindByID(id, "A")
	return &dom.HTMLAnchorElement{BasicHTMLElement: htmlElement(el), URLUtils: &dom.URLUtils{Value: el}}
}

// elementByID returns the element with this id, of any kind.
func elementByID(id string) *dom.BasicHTMLElement { return htmlElement(byID(id)) }

// newElement makes an HTML element with a class ("" for none).
func newElement(tag, class string) *dom.BasicHTMLElement { return htmlElement(create(tag, class)) }

// underlying is what every element and event of the binding is: a
// JavaScript value.
type underlying interface{ Underlying() js.Value }

// listen listens to an event of an element for the page's life, as the
// binding's plain event (PreventDefault, StopPropagation). A panic in f is
// recovered and reported on the page (see guard).
func listen(el underlying, typ string, f func(ev *dom.BasicEvent)) {
	on(el.Underlying(), typ, func(ev js.Value) { f(&dom.BasicEvent{Value: ev}) })
}

// listenKeys listens to a keyboard event (keydown, keyup) of an element.
func listenKeys(el underlying, typ string, f func(ev *dom.KeyboardEvent)) {
	on(el.Underlying(), typ, func(ev js.Value) { f(&dom.KeyboardEvent{BasicEvent: &dom.BasicEvent{Value: ev}}) })
}

// closest returns the nearest ancestor of an event's target, itself
// included, that matches a CSS selector, and whether there is one.
func closest(ev underlying, selector string) (*dom.BasicHTMLElement, bool) {
	t := ev.Underlying().Get("target")
	if !t.Truthy() || t.Get("closest").IsUndefined() {
		return nil, false
	}
	el := t.Call("closest", selector)
	if !el.Truthy() {
		return nil, false
	}
	return htmlElement(el), true
}

// hide hides or shows an element (its hidden attribute, which the binding
// does not offer).
func hide(el underlying, hidden bool) { el.Underlying().Set("hidden", hidden) }

// isHidden reports whether an element is hidden by its hidden attribute.
func isHidden(el underlying) bool { return el.Underlying().Get("hidden").Bool() }

// setDataset sets a data- attribute of an element (the binding's Dataset
// only reads them).
func setDataset(el underlying, key, value string) { el.Underlying().Get("dataset").Set(key, value) }

// dataOf returns a data- attribute of an element, "" if it has none.
func dataOf(el underlying, key string) string {
	v := el.Underlying().Get("dataset").Get(key)
	if v.IsUndefined() {
		return ""
	}
	return v.String()
}
