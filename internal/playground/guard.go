package playground

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Crash is a panic recovered in an event handler, told so that a user can
// report it.
type Crash struct {
	Message string // one sentence for the page
	Detail  string // the panic and the stack, for the report
}

// Guard runs f; if f panics, it recovers and hands report the panic, so
// that one broken handler never ends the program: the page says what
// happened and keeps working.
func Guard(where string, f func(), report func(Crash)) {
	defer func() {
		if v := recover(); v != nil {
			report(Crash{
				Message: fmt.Sprintf("Something went wrong (%s: %v). The page still works; please report this, with the address and the details below.", where, v),
				Detail:  fmt.Sprintf("panic in %s: %v\n\n%s", where, v, trimStack(debug.Stack())),
			})
		}
	}()
	f()
}

// trimStack drops the frames of the recovery itself from a stack.
func trimStack(stack []byte) string {
	s := string(stack)
	if i := strings.Index(s, "panic("); i >= 0 {
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			return "goroutine:\n" + s[i+j+1:]
		}
	}
	return s
}
