//go:build js && wasm

package main

import (
	"net/url"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/dagq/dagq/internal/playground"
)

// liveView is the page as a live DAG's view (wq serve --db; the page
// opened as /?live=DAG): it loads the DAG's state from the server and
// shows it (playground.Page.OpenLiveState), loads it again each time the
// server's events say the DAG changed, asks for the DAG's script when the
// Share panel needs it, and sends the console's actions to the server
// (playground.Page.LiveRequest decides which). Its bar says when it was
// read and whether this page may act.
type liveView struct {
	a      *app
	dag    string
	token  string
	canAct bool
	why    string     // why it cannot act
	busy   bool       // a load is under way
	again  bool       // a change came during it: load once more after it
	loads  int        // loads done, for the bar and the tests
	det    liveDetail // the detail panel's task, read from the server
	// pending is a request made before main.wasm ran (app.js), for fetch
	// to take in place of its own: the first load of the state.
	pending js.Value

	el struct{ bar, state, mode, why js.Value }
}

// tokenKey is where the list page (package live's live.js) keeps the
// token in the browser.
const tokenKey = "dagq-token"

func newLiveView(a *app) *liveView {
	v := &liveView{a: a}
	byIDs(idField{&v.el.bar, "live-bar"}, idField{&v.el.state, "live-state"}, idField{&v.el.mode, "live-mode"}, idField{&v.el.why, "live-why"})
	return v
}

// open shows the live DAG dag: the page turns into its view, asks the
// server whether it may act, loads the state and listens for changes.
func (v *liveView) open(dag string) {
	a := v.a
	v.dag = dag
	store := js.Global().Get("localStorage")
	if t, ok := playground.TokenInFragment(js.Global().Get("location").Get("hash").String()); ok {
		store.Call("setItem", tokenKey, t)
	}
	if t := store.Call("getItem", tokenKey); t.Truthy() {
		v.token = t.String()
	}
	setData(a.el.body, "live", "1")
	setHidden(v.el.bar, false)
	export := byID("live-export")
	export.Set("href", "/api/live/dags/"+url.PathEscape(dag)+"/script")
	export.Set("download", dag+".dagq")
	a.ed.el.editor.Set("readOnly", true)
	setText(v.el.state, "loading "+dag+"…")
	v.setMode(false, "Asking the server whether this page may act…")
	v.fetch("GET", "/api/live/info", "", func(status int, body string) {
		in, ok := parseJSON(body)
		if status != 200 || !ok {
			v.setMode(false, "The server did not say whether this page may act ("+strconv.Itoa(status)+").")
			return
		}
		v.setMode(in.boolean("canAct"), in.str("why"))
		a.con.render()
	})
	v.load()
	es := js.Global().Get("EventSource").New("/api/live/events?dag=" + url.QueryEscape(dag))
	on(es, "changed", func(js.Value) { v.load() })
	on(es, "error", func(js.Value) { setData(v.el.bar, "connected", "0") })
	on(es, "open", func(js.Value) { setData(v.el.bar, "connected", "1") })
}

// setMode says whether the page may act, and why not.
func (v *liveView) setMode(canAct bool, why string) {
	v.canAct, v.why = canAct, why
	setData(v.el.mode, "canAct", strconv.FormatBool(canAct))
	setText(v.el.why, why)
	if canAct {
		setText(v.el.why, "")
		setText(v.el.mode, "can act on the queue")
		v.el.mode.Set("title", "This page carries the server's token: the console's buttons redrive and cancel on the live queue.")
	} else {
		setText(v.el.mode, "read-only")
		v.el.mode.Set("title", why)
	}
	setData(v.a.el.body, "canAct", strconv.FormatBool(canAct))
}

// load reads the DAG's state and shows it; a change during a load makes
// one more load after it, so a busy DAG costs a load at a time.
func (v *liveView) load() {
	if v.busy {
		v.again = true
		return
	}
	v.busy = true
	start := now()
	path := "/api/live/dags/" + url.PathEscape(v.dag) + "/state"
	if early := js.Global().Get("dagqLiveState"); early.Truthy() && v.loads == 0 {
		// The first load was asked for by app.js, before main.wasm ran.
		js.Global().Set("dagqLiveState", js.Undefined())
		path = ""
		v.pending = early
	}
	v.fetch("GET", path, "", func(status int, body string) {
		v.busy = false
		if status != 200 {
			msg := strings.TrimSpace(body)
			if e, ok := parseJSON(body); ok && e.str("error") != "" {
				msg = e.str("error")
			}
			setText(v.el.state, "could not read "+v.dag+": "+msg)
			setData(v.el.bar, "error", "1")
			if v.loads == 0 {
				// Nothing was drawn: say so where the page said it was
				// loading.
				setHidden(v.a.el.boot, true)
				setText(v.a.el.title, "Live DAG "+v.dag+" not loaded")
				v.a.notify("Could not read the live DAG "+v.dag+": "+msg+".", true)
			}
		} else if err := v.a.p.OpenLiveState(v.dag, body); err != nil {
			setText(v.el.state, "the server's state of "+v.dag+" does not open: "+err.Error())
			setData(v.el.bar, "error", "1")
		} else {
			setData(v.el.bar, "error", "0")
			v.show()
		}
		if v.again {
			v.again = false
			// At most a few loads a second, however busy the DAG, and
			// fewer for a DAG whose load takes long.
			took := time.Duration((now() - start) * float64(time.Millisecond))
			afterAll(playground.LiveWait(took), v.load)
		}
	})
}

// show draws the DAG just loaded, keeping the drawing's zoom and scroll.
func (v *liveView) show() {
	a := v.a
	v.loads++
	a.shown = -1
	a.ed.set(a.p.Session().Text())
	a.describe()
	a.render(false)
	// The browser's clock, not time.Time.Format, which would link the
	// whole of time's formatting into main.wasm.
	setText(v.el.state, "live · read "+js.Global().Get("Date").New().Call("toLocaleTimeString").String())
	setData(a.el.body, "liveLoads", strconv.Itoa(v.loads))
	if v.loads == 1 {
		afterPaint(collectAgain) // see main: nothing was collected until now
	}
	if a.detail.task != "" {
		v.readDetail(a.detail.task) // its task may have changed too
	}
}

// script asks the server for the DAG's script, which the Share panel's
// link carries (playground.Page.ShareNeedsScript), keeps it, shows it in
// the editor and calls done; done is not called when it could not be
// read, which the bar says. The next load of the state puts the editor
// back to the state's note.
func (v *liveView) script(done func()) {
	v.fetch("GET", "/api/live/dags/"+url.PathEscape(v.dag)+"/script", "", func(status int, body string) {
		if status != 200 {
			setText(v.el.state, "could not read the script of "+v.dag+" ("+strconv.Itoa(status)+")")
			return
		}
		v.a.p.SetLiveScript(body)
		v.a.ed.set(body)
		done()
	})
}

// request sends a console command to the server. A preview marks what
// would move; a change is said in a notice, and the DAG is loaded again.
func (v *liveView) request(cmd string) {
	a := v.a
	a.unnotify()
	r, err := a.p.LiveRequest(cmd)
	if err != nil {
		a.notify(err.Error(), false)
		return
	}
	if r.Changes && !v.canAct {
		a.notify(v.why, false)
		return
	}
	v.fetch("POST", "/api/live/dags/"+url.PathEscape(v.dag)+"/"+r.Route, stringJSON(r.Body), func(status int, resp string) {
		out, _ := parseJSON(resp) // a body that is not JSON reads as empty: its status says enough
		if status != 200 {
			msg := out.str("error")
			if msg == "" {
				msg = "the server answered " + strconv.Itoa(status)
			}
			if status == 403 {
				v.setMode(false, msg)
				a.con.render()
			}
			a.notify("Refused: "+msg, false)
			return
		}
		if r.Route == "preview" {
			redrive := out.strs("redrive")
			a.con.markPreview(redrive, out.strs("release"))
			a.notify(playground.LivePreviewText(len(redrive), out.integer("released"), len(out.strs("skipped"))), false)
			return
		}
		a.notify("Done: "+out.str("text")+".", false)
		v.load()
	})
}

// fetch sends a request to the server, with the token, and calls done
// with the status and the body (status 0 when it could not be sent). An
// empty path takes v.pending, a request already made, instead.
func (v *liveView) fetch(method, path, body string, done func(status int, body string)) {
	headers := js.Global().Get("Object").New()
	headers.Set("X-Dagq-Token", v.token)
	opts := js.Global().Get("Object").New()
	opts.Set("method", method)
	opts.Set("headers", headers)
	opts.Set("cache", "no-store")
	if method == "POST" {
		headers.Set("Content-Type", "application/json")
		opts.Set("body", body)
	}
	var got, text, fail js.Func
	status := 0
	release := func() { got.Release(); text.Release(); fail.Release() }
	got = js.FuncOf(func(_ js.Value, args []js.Value) any {
		status = args[0].Get("status").Int()
		return args[0].Call("text")
	})
	text = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		guard("live "+method, func() { done(status, args[0].String()) })
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		msg := "the request failed"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		guard("live "+method, func() { done(0, strings.TrimSpace(msg)) })
		return nil
	})
	req := v.pending
	v.pending = js.Undefined()
	if path != "" {
		req = js.Global().Call("fetch", path, opts)
	}
	req.Call("then", got).Call("then", text).Call("catch", fail)
}
