//go:build js && wasm

// Command wasm is the dagq playground in the browser: it draws a scenario
// as a task graph and steps through it, with the READY line, the
// dead-letter queue and the event log beside it; clicking a task or typing
// a command adds to the script.
//
// It is thin on purpose: every decision (stepping, branching, links, what a
// click or a key does, captions, what to redraw) is made by
// internal/playground, tested natively; the layout is render.LayOut. This
// package only draws what a playground.Page says and forwards input to it.
// A panic in any handler is recovered and shown on the page, which keeps
// working.
package main

import "runtime/debug"

func main() {
	// No garbage is collected until the first drawing is on screen: in
	// the browser a collection stops the page (there is no other thread to
	// mark on), and while one runs every pointer written pays a write
	// barrier; opening a script of thousands of commands allocates tens of
	// megabytes, which the page can spare. Once drawn, the page collects
	// four times less often than Go's default: opening wide-1000 took a
	// third less time than with the default. The memory limit bounds the
	// heap, should anything allocate without end while collection is off.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	a := newApp()
	a.stateStyles()
	a.wire()
	a.loadURL()
	if a.live.dag == "" {
		// A live DAG's first drawing comes once its script has been
		// fetched: the live view collects again after it (liveView.show).
		afterPaint(collectAgain)
	}
	select {}
}

// collectAgain turns garbage collection back on, once the first drawing
// is on screen: four times less often than Go's default.
func collectAgain() { debug.SetGCPercent(400) }
