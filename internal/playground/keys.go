package playground

// Target is a focus kind: where a key was pressed, as the page tells [KeyFor].
type Target uint8

const (
	// OnPage: the page itself, a button, or nothing in particular.
	OnPage Target = iota
	// OnText: a text field (the editor, the command box, a popover's
	// error text): keys are for typing.
	OnText
	// OnControl: a picker or the timeline's slider: the timeline keys
	// still step, so that → after choosing a speed steps.
	OnControl
	// OnTask: a task of the drawing or the READY line.
	OnTask
	// OnButton: a button, which Enter and Space press.
	OnButton
)

// Key is what a key press does.
type Key uint8

const (
	KeyNone         Key = iota // let the browser have it
	KeyBack                    // ← : one step back
	KeyForward                 // → : one step forward
	KeyFirst                   // Home: step 0
	KeyLast                    // End: the last step
	KeyPlayPause               // space: play or pause
	KeyClose                   // Escape: close the popover (else the task detail panel) and the share panel
	KeyActTask                 // Enter or space on a task: as a click
	KeyUndo                    // Ctrl+Z or ⌘Z outside a text field: undo
	KeyZoomIn                  // + or =: zoom the drawing in
	KeyZoomOut                 // -: zoom it out
	KeyZoomFit                 // 0: fit the whole graph
	KeyZoomActual              // 1: show the drawing at its size (100%)
	KeyNextQuestion            // → while practising, the question answered: the next question
)

// KeyFor decides what a key (a KeyboardEvent's key) does where it was
// pressed. The zoom keys (+, -, 0, 1) work where the timeline keys do. ctrl is Ctrl or ⌘ held, alt is Alt held. The timeline keys
// work everywhere but in text fields; a task takes Enter and space; a
// button keeps Enter and space for itself.
func KeyFor(key string, ctrl, alt bool, at Target) Key {
	if key == "Escape" {
		return KeyClose
	}
	if at == OnText || alt {
		return KeyNone
	}
	if ctrl {
		if key == "z" || key == "Z" {
			return KeyUndo
		}
		return KeyNone
	}
	switch key {
	case "Enter", " ", "Spacebar":
		switch at {
		case OnTask:
			return KeyActTask
		case OnButton:
			return KeyNone
		}
		if key == "Enter" {
			return KeyNone
		}
		return KeyPlayPause
	case "ArrowLeft":
		return KeyBack
	case "ArrowRight":
		return KeyForward
	case "Home":
		return KeyFirst
	case "End":
		return KeyLast
	case "+", "=":
		return KeyZoomIn
	case "-":
		return KeyZoomOut
	case "0":
		return KeyZoomFit
	case "1":
		return KeyZoomActual
	}
	return KeyNone
}

// LogKey is what a key does in the event log.
type LogKey uint8

const (
	LogNone LogKey = iota // let the page have it
	LogUp                 // ↑: focus the line above
	LogDown               // ↓: focus the line below
	LogShow               // Enter or space: show the focused line's step, as a click does
)

// LogKeyFor decides what a key does with the focus in the event log: its
// lines are focusable, ↑ and ↓ move between them, and Enter or space
// shows a line's step.
func LogKeyFor(key string) LogKey {
	switch key {
	case "ArrowUp":
		return LogUp
	case "ArrowDown":
		return LogDown
	case "Enter", " ", "Spacebar":
		return LogShow
	}
	return LogNone
}
