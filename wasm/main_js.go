//go:build js && wasm

// Command wasm is the dagq playground in the browser: it draws a scenario
// as a task graph and steps through it, with the READY line, the
// dead-letter queue and the event log beside it; clicking a task or typing
// a command adds to the script.
//
// It is thin on purpose: the session (stepping, appending, what the view
// shows at a step, share links) is scenario.Session, tested natively; the
// layout is render.LayOut. This package only draws and listens.
package main

func main() {
	a := newApp()
	a.stateStyles()
	a.wire()
	a.loadURL()
	select {}
}
