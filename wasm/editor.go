//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dagq/dagq/internal/playground"
)

// editor is the script's panel: the editor, the view that stands for it
// while a long script is only read, the line numbers beside them, the mark
// on the step's line and the script's error.
type editor struct {
	a       *app
	dirty   bool              // the editor holds text that has not run
	top     float64           // the editor's scrollTop and height, read as a drawing starts
	height  float64           //
	gutter  playground.Gutter // the line numbers drawn
	lines   int               // the editor's lines
	starts  []int             // where they start, in the script
	script  string            // the script in the editor
	viewing bool              // the script is shown as a view of the lines in sight, until edited (playground.ViewAbove)

	el struct {
		editor, view, gutter, mark, editorError, run js.Value
		gutterLines, viewLines                       js.Value
	}
}

// Editor geometry, as style.css sets it: line height and top padding.
const (
	editorLine = 20.0
	editorPad  = 8.0
)

func newEditor(a *app) *editor {
	ed := &editor{a: a}
	e := &ed.el
	byIDs(idField{&e.editor, "editor"}, idField{&e.view, "editor-view"}, idField{&e.gutter, "gutter"},
		idField{&e.mark, "editor-mark"}, idField{&e.editorError, "editor-error"}, idField{&e.run, "run"})
	for _, p := range []struct{ in, lines *js.Value }{{&e.gutter, &e.gutterLines}, {&e.view, &e.viewLines}} {
		*p.lines = create("span", "lines")
		appendTo(*p.in, *p.lines)
	}
	return ed
}

// wire connects the editor, its view and the Run button.
func (ed *editor) wire() {
	e := &ed.el
	a := ed.a
	on(e.run, "click", func(js.Value) { a.runEditor() })
	on(e.editor, "keydown", func(ev js.Value) {
		if ev.Get("key").String() == "Enter" && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) {
			ev.Call("preventDefault")
			a.runEditor()
		}
	})
	on(e.editor, "input", func(js.Value) {
		text := e.editor.Get("value").String()
		ed.setDirty(a.p.Dirty(text))
		if ed.dirty {
			setHidden(e.mark, true)
		}
		ed.numberLines(text)
	})
	on(e.editor, "scroll", func(js.Value) { ed.placeMark() })
	// The view of a long script scrolls as the editor does, and becomes
	// the editor when clicked (the caret on the line clicked) or focused.
	on(e.view, "scroll", func(js.Value) { ed.placeMark() })
	on(e.view, "mousedown", func(ev js.Value) {
		ev.Call("preventDefault")
		r := e.view.Call("getBoundingClientRect")
		y := ev.Get("clientY").Float() - r.Get("top").Float() + e.view.Get("scrollTop").Float() - editorPad
		ed.edit(int(y/editorLine) + 1)
	})
	on(e.view, "focus", func(js.Value) {
		ed.edit(int(max(0, e.view.Get("scrollTop").Float()-editorPad)/editorLine) + 1)
	})
}

// setDirty notes whether the editor holds text that has not run, which
// the Run button says.
func (ed *editor) setDirty(dirty bool) {
	ed.dirty = dirty
	toggleClass(ed.el.run, "primary", dirty)
}

// readBox reads where the script is scrolled, before a drawing changes the
// page (a read after a change would cost a layout).
func (ed *editor) readBox() {
	box := ed.box()
	ed.top, ed.height = box.Get("scrollTop").Float(), box.Get("clientHeight").Float()
}

// set puts text in the editor and numbers its lines. A long script is
// shown as a view of the lines in sight until someone edits it (see edit).
func (ed *editor) set(text string) {
	ed.script, ed.starts = text, playground.LineStarts(text)
	ed.lines = len(ed.starts)
	ed.viewing = ed.lines >= playground.ViewAbove && !document.Get("activeElement").Equal(ed.el.editor)
	// A long script shown as a view reaches the editor only when it is
	// edited: handing the browser hundreds of kilobytes of text costs as
	// much as drawing the graph.
	if ed.viewing {
		ed.el.editor.Set("value", "")
	} else {
		ed.el.editor.Set("value", text)
	}
	setHidden(ed.el.editor, ed.viewing)
	setHidden(ed.el.view, !ed.viewing)
	ed.gutter = playground.Gutter{}
	ed.drawGutter(ed.top)
}

// text is the script the editor holds, or the view shows.
func (ed *editor) text() string {
	if ed.viewing {
		return ed.script
	}
	return ed.el.editor.Get("value").String()
}

// box is what shows the script: the editor, or the view of a long script.
func (ed *editor) box() js.Value {
	if ed.viewing {
		return ed.el.view
	}
	return ed.el.editor
}

// scrollToEnd scrolls the script to its last line, where a command acted
// on the page was added.
func (ed *editor) scrollToEnd() {
	box := ed.box()
	box.Set("scrollTop", box.Get("scrollHeight"))
}

// edit turns the view of a long script into the editor, scrolled alike,
// with the caret at the start of line (1-based).
func (ed *editor) edit(line int) {
	if !ed.viewing {
		return
	}
	top := ed.el.view.Get("scrollTop")
	ed.viewing = false
	setHidden(ed.el.view, true)
	t := ed.el.editor
	t.Set("value", ed.script)
	setHidden(t, false)
	t.Call("focus")
	t.Set("scrollTop", top)
	off := playground.EditorOffset(ed.script, max(line, 1), 1)
	t.Call("setSelectionRange", off, off)
}

// numberLines numbers the lines of text in the gutter, as far as the
// editor shows them (playground.GutterFor).
func (ed *editor) numberLines(text string) {
	ed.lines = strings.Count(text, "\n") + 1
	ed.drawGutter(ed.top)
}

// drawGutter numbers the lines around the editor scrolled to scrollTop,
// if the ones drawn do not cover them, and scrolls the gutter with it.
func (ed *editor) drawGutter(scrollTop float64) {
	h := ed.height
	if h <= 0 {
		h = 800
	}
	g, redraw := playground.GutterFor(ed.lines, max(0, scrollTop-editorPad), h, editorLine, ed.gutter)
	if redraw {
		ed.gutter = g
		// The lines drawn sit in a block as tall as the whole text: the
		// space above and below them is the block's padding.
		setText(ed.el.gutterLines, g.Text())
		place := func(el js.Value) {
			st := el.Get("style")
			st.Set("paddingTop", px(g.Above))
			st.Set("paddingBottom", px(g.Below))
		}
		place(ed.el.gutterLines)
		ed.el.gutter.Get("style").Set("minWidth", strconv.Itoa(max(5, g.Digits()+1))+"ch")
		if ed.viewing {
			setText(ed.el.viewLines, g.Lines(ed.script, ed.starts))
			place(ed.el.viewLines)
		}
	}
	// The gutter follows the text by a transform, which lays nothing out:
	// setting its scrollTop would lay the page out there and then.
	ed.el.gutterLines.Get("style").Set("transform", "translateY("+px(-scrollTop)+")")
}

// markLine marks the line of the step's command in the editor, and
// scrolls it into view unless someone is typing there.
func (ed *editor) markLine() {
	s := ed.a.p.Session()
	k := s.Cursor()
	if k == 0 || ed.dirty {
		setHidden(ed.el.mark, true)
		return
	}
	line := float64(s.Step(k).Command.Line)
	box := ed.box()
	st := ed.top
	if !document.Get("activeElement").Equal(box) {
		top := editorPad + (line-1)*editorLine
		if h := ed.height; top < st || top+editorLine > st+h {
			st = max(0, top-h/3)
			ed.a.scrollLater(box, 0, st, false)
		}
	}
	ed.placeMarkAt(st)
	setHidden(ed.el.mark, false)
}

// placeMark moves the line mark and the gutter with the editor's
// scrolling.
func (ed *editor) placeMark() { ed.placeMarkAt(ed.box().Get("scrollTop").Float()) }

// placeMarkAt places the line mark for the editor scrolled to scrollTop.
func (ed *editor) placeMarkAt(scrollTop float64) {
	ed.drawGutter(scrollTop)
	s := ed.a.p.Session()
	k := s.Cursor()
	if k == 0 {
		return
	}
	line := float64(s.Step(k).Command.Line)
	top := editorPad + (line-1)*editorLine - scrollTop
	ed.el.mark.Get("style").Set("top", px(top))
}

// showError shows an error of the script ("L:C: message") and selects the
// spot it points at in the editor.
func (ed *editor) showError(err error, text string) {
	setText(ed.el.editorError, err.Error())
	setHidden(ed.el.editorError, false)
	sel, ok := playground.ErrorSelection(text, err)
	if !ok {
		return
	}
	ed.edit(sel.Line)
	t := ed.el.editor
	t.Call("focus")
	t.Call("setSelectionRange", sel.Start, sel.End)
	top := editorPad + float64(sel.Line-1)*editorLine
	t.Set("scrollTop", top-t.Get("clientHeight").Float()/3)
}

func (ed *editor) clearError() {
	setText(ed.el.editorError, "")
	setHidden(ed.el.editorError, true)
}

// showStopped says so when a failed expect stopped the run.
func (ed *editor) showStopped() {
	if msg := ed.a.p.Stopped(); msg != "" {
		setText(ed.el.editorError, msg)
		setHidden(ed.el.editorError, false)
	}
}
