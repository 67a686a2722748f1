package playground

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeLiveState reads a LiveState from its JSON, as the server writes
// it with encoding/json; fields it does not know are skipped. It is a
// reader of its own, for two reasons: encoding/json's decoder is 0.15 MB
// more of main.wasm to download (over its budget), and its reflection
// made three or more allocations a task of a DAG of 10⁵; this one makes
// a few in all (one slice for every task's fields, names cut out of the
// text unless they hold an escape). Text that is not JSON of that shape
// is an error saying where. The cost is O(len(text)).
func DecodeLiveState(text string) (LiveState, error) {
	var st LiveState
	r := &jsonReader{s: text}
	err := r.object(func(key string) error {
		var err error
		switch key {
		case "dag":
			st.DAG, err = r.str()
		case "tasks":
			st.Tasks, err = r.tasks()
		case "ready":
			err = r.array(func() error {
				n, err := r.int()
				st.Ready = append(st.Ready, n)
				return err
			})
		case "dlq":
			err = r.array(func() error {
				var e LiveEntry
				err := r.object(func(key string) error {
					var err error
					switch key {
					case "task":
						e.Task, err = r.int()
					case "root":
						e.Root, err = r.int()
					case "reason":
						e.Reason, err = r.str()
					case "error":
						e.Error, err = r.str()
					case "attempts":
						e.Attempts, err = r.int()
					case "poisoned":
						e.Poisoned, err = r.boolean()
					case "blocks":
						e.Blocks, err = r.int()
					default:
						err = r.skip()
					}
					return err
				})
				st.DLQ = append(st.DLQ, e)
				return err
			})
		case "alert":
			if r.null() {
				return nil
			}
			st.Alert = &LiveAlert{}
			err = r.object(func(key string) error {
				var err error
				switch key {
				case "entries":
					st.Alert.Entries, err = r.int()
				case "windowMs":
					var ms int
					ms, err = r.int()
					st.Alert.WindowMs = int64(ms)
				default:
					err = r.skip()
				}
				return err
			})
		case "redrive":
			if r.null() {
				return nil
			}
			st.Redrive = &LiveRedrive{}
			err = r.object(func(key string) error {
				var err error
				d := st.Redrive
				switch key {
				case "done":
					d.Done, err = r.int()
				case "total":
					d.Total, err = r.int()
				case "n":
					d.N, err = r.int()
				case "perMs":
					var ms int
					ms, err = r.int()
					d.PerMs = int64(ms)
				default:
					err = r.skip()
				}
				return err
			})
		default:
			err = r.skip()
		}
		return err
	})
	if err != nil {
		return LiveState{}, err
	}
	if r.ws(); r.at != len(r.s) {
		return LiveState{}, r.fail("the end of the text")
	}
	return st, nil
}

// jsonReader reads JSON text s, from at.
type jsonReader struct {
	s  string
	at int
}

// ws skips white space.
//
// Not inlined: it is called at every token, and main.wasm grew by
// tens of kilobytes with its copies.
//
//go:noinline
func (r *jsonReader) ws() {
	for r.at < len(r.s) && (r.s[r.at] == ' ' || r.s[r.at] == '\t' || r.s[r.at] == '\n' || r.s[r.at] == '\r') {
		r.at++
	}
}

// take skips white space and then c, if c is next; it reports whether it
// was.
//
// Not inlined: it is called at every token, and main.wasm grew by
// tens of kilobytes with its copies.
//
//go:noinline
func (r *jsonReader) take(c byte) bool {
	r.ws()
	if r.at < len(r.s) && r.s[r.at] == c {
		r.at++
		return true
	}
	return false
}

// null skips a null, if one is next.
//
// Not inlined: it is called at every token, and main.wasm grew by
// tens of kilobytes with its copies.
//
//go:noinline
func (r *jsonReader) null() bool {
	r.ws()
	if strings.HasPrefix(r.s[r.at:], "null") {
		r.at += 4
		return true
	}
	return false
}

// fail says what was wanted where the text had something else.
func (r *jsonReader) fail(want string) error {
	return errors.New("want " + want + " at byte " + strconv.Itoa(r.at+1))
}

// object reads an object (or null), calling field for each key with the
// reader at its value, which field must read.
func (r *jsonReader) object(field func(key string) error) error {
	if r.null() {
		return nil
	}
	if !r.take('{') {
		return r.fail("an object")
	}
	if r.take('}') {
		return nil
	}
	for {
		key, err := r.str()
		if err != nil {
			return err
		}
		if !r.take(':') {
			return r.fail(": after a key")
		}
		if err := field(key); err != nil {
			return err
		}
		if r.take('}') {
			return nil
		}
		if !r.take(',') {
			return r.fail(", or } in an object")
		}
	}
}

// array reads an array (or null), calling elem with the reader at each
// element, which elem must read.
func (r *jsonReader) array(elem func() error) error {
	if r.null() {
		return nil
	}
	if !r.take('[') {
		return r.fail("an array")
	}
	if r.take(']') {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if r.take(']') {
			return nil
		}
		if !r.take(',') {
			return r.fail(", or ] in an array")
		}
	}
}

// tasks reads LiveState.Tasks: an array of arrays of strings, into one
// slice of every field, counted first.
func (r *jsonReader) tasks() ([][]string, error) {
	if r.null() {
		return nil, nil
	}
	// Count the tasks and their fields: up to the array's end, strings
	// skipped whole (their brackets are not the array's).
	fields, tasks, depth := 0, 0, 0
count:
	for i := r.at; i < len(r.s); i++ {
		switch r.s[i] {
		case '"':
			fields++
			for i++; i < len(r.s) && r.s[i] != '"'; i++ {
				if r.s[i] == '\\' {
					i++
				}
			}
		case '[':
			depth++
			tasks++
		case ']':
			if depth--; depth == 0 {
				break count
			}
		}
	}
	all := make([]string, 0, fields)
	out := make([][]string, 0, max(tasks-1, 0))
	err := r.array(func() error {
		from := len(all)
		err := r.array(func() error {
			s, err := r.str()
			all = append(all, s)
			return err
		})
		out = append(out, all[from:len(all):len(all)])
		return err
	})
	return out, err
}

// str reads a string: cut out of the text when it holds no escape.
func (r *jsonReader) str() (string, error) {
	if !r.take('"') {
		return "", r.fail("a string")
	}
	start := r.at
	for ; r.at < len(r.s); r.at++ {
		switch c := r.s[r.at]; {
		case c == '"':
			r.at++
			return r.s[start : r.at-1], nil
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			return "", r.fail("no control character in a string")
		}
	}
	return "", r.fail("the end of a string")
}

// escaped reads the rest of a string that started at start and holds an
// escape at r.at, and returns it unescaped.
func (r *jsonReader) escaped(start int) (string, error) {
	b := []byte(r.s[start:r.at])
	for r.at < len(r.s) {
		c := r.s[r.at]
		switch {
		case c == '"':
			r.at++
			return string(b), nil
		case c < 0x20:
			return "", r.fail("no control character in a string")
		case c != '\\':
			b = append(b, c)
			r.at++
			continue
		}
		if r.at+1 >= len(r.s) {
			break
		}
		e := r.s[r.at+1]
		r.at += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			c1, ok := r.hex4()
			if !ok {
				return "", r.fail("four hex digits after \\u")
			}
			rn := rune(c1)
			if utf16.IsSurrogate(rn) {
				// The second half follows as \uXXXX, or the rune is
				// not one: U+FFFD, as encoding/json reads it.
				if strings.HasPrefix(r.s[r.at:], `\u`) {
					save := r.at
					r.at += 2
					if c2, ok := r.hex4(); ok && utf16.DecodeRune(rn, rune(c2)) != utf8.RuneError {
						rn = utf16.DecodeRune(rn, rune(c2))
					} else {
						r.at, rn = save, utf8.RuneError
					}
				} else {
					rn = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, rn)
		default:
			r.at -= 2
			return "", r.fail(`an escape of \", \\, \/, \b, \f, \n, \r, \t or \u`)
		}
	}
	return "", r.fail("the end of a string")
}

// hex4 reads four hex digits.
func (r *jsonReader) hex4() (int, bool) {
	if r.at+4 > len(r.s) {
		return 0, false
	}
	n := 0
	for _, c := range []byte(r.s[r.at : r.at+4]) {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	r.at += 4
	return n, true
}

// int reads an integer.
func (r *jsonReader) int() (int, error) {
	r.ws()
	start := r.at
	if r.at < len(r.s) && r.s[r.at] == '-' {
		r.at++
	}
	for r.at < len(r.s) && r.s[r.at] >= '0' && r.s[r.at] <= '9' {
		r.at++
	}
	n, err := strconv.Atoi(r.s[start:r.at])
	if err != nil {
		r.at = start
		return 0, r.fail("an integer")
	}
	return n, nil
}

// boolean reads true or false.
func (r *jsonReader) boolean() (bool, error) {
	r.ws()
	switch {
	case strings.HasPrefix(r.s[r.at:], "true"):
		r.at += 4
		return true, nil
	case strings.HasPrefix(r.s[r.at:], "false"):
		r.at += 5
		return false, nil
	}
	return false, r.fail("true or false")
}

// skip reads a value of any kind and drops it.
func (r *jsonReader) skip() error {
	r.ws()
	if r.at >= len(r.s) {
		return r.fail("a value")
	}
	switch c := r.s[r.at]; {
	case c == '"':
		_, err := r.str()
		return err
	case c == '{':
		return r.object(func(string) error { return r.skip() })
	case c == '[':
		return r.array(r.skip)
	case c == 't' || c == 'f':
		_, err := r.boolean()
		return err
	case r.null():
		return nil
	}
	// A number: its characters, a digit among them (not
	// strconv.ParseFloat, whose tables are 0.07 MB of main.wasm).
	start, digits := r.at, false
	for ; r.at < len(r.s) && strings.IndexByte("+-.eE0123456789", r.s[r.at]) >= 0; r.at++ {
		digits = digits || r.s[r.at] >= '0' && r.s[r.at] <= '9'
	}
	if !digits {
		r.at = start
		return r.fail("a value")
	}
	return nil
}
