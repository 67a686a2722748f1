package browsertest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Watch collects, from the open tab of ctx, every console error, uncaught
// exception, and console line that tells of a Go panic or of the Go
// program having exited (wasm_exec.js prints those with console.log), but
// for lines that contain one of allowed. It returns a function that gives
// them, in order, once ctx has ended: cancel the tab first.
func Watch(ctx context.Context, allowed ...string) (problems func() []string) {
	consoleEvents := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	var mu sync.Mutex
	var found []string
	add := func(p string) {
		mu.Lock()
		found = append(found, p)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for ev, err := range consoleEvents {
			if err != nil {
				return
			}
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			line := strings.Join(args, " ")
			if ev.Type == runtime.ConsoleAPICalledTypeError || GoTrouble(line, allowed...) {
				add(fmt.Sprintf("console.%s: %s", ev.Type, line))
			}
		}
	}()
	go func() {
		defer wg.Done()
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			desc := ""
			if ev.ExceptionDetails.Exception != nil {
				desc = ev.ExceptionDetails.Exception.Description
			}
			add("uncaught: " + ev.ExceptionDetails.Text + " " + desc)
		}
	}()
	return func() []string {
		wg.Wait()
		return found
	}
}

// GoTrouble reports whether a console line tells of a Go panic or of the
// Go program having exited, unless it contains one of allowed.
func GoTrouble(line string, allowed ...string) bool {
	for _, a := range allowed {
		if strings.Contains(line, a) {
			return false
		}
	}
	for _, s := range []string{"panic", "Go program has already exited", "fatal error", "exit code"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}
