package durable

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"

	"github.com/dagq/dagq/core/scenario"
)

// nameTasks gives each task its name in the script: its own when the
// language allows it, else one made of its allowed characters and a hash
// of the name, which the header lists.
func (x *exporter) nameTasks() {
	taken := map[string]bool{}
	for _, t := range x.s.tasks {
		if validName(t.name) {
			taken[t.name] = true
		}
	}
	for _, n := range x.s.awaited {
		if validName(n) {
			taken[n] = true
		}
	}
	var renamed []string
	name := func(n string) string {
		if validName(n) {
			return n
		}
		out := scriptName(n, taken)
		taken[out] = true
		renamed = append(renamed, fmt.Sprintf("%s is written %s", strconv.Quote(n), out))
		return out
	}
	mapped := map[string]string{}
	for _, n := range x.s.awaited {
		mapped[n] = name(n)
	}
	for _, t := range x.s.tasks {
		t.script = name(t.name)
		mapped[t.name] = t.script
		x.byScript[t.script] = t
	}
	for _, t := range x.s.tasks {
		for i, d := range t.deps {
			t.deps[i] = mapped[d]
		}
		if t.root != "" {
			t.root = mapped[t.root]
		}
	}
	for i, n := range x.s.job.tasks {
		if m, ok := mapped[n]; ok {
			x.s.job.tasks[i] = m
		}
	}
	if len(renamed) > 0 {
		x.note("names outside the language's characters (A-Z a-z 0-9 _ . : / -) are renamed: " + strings.Join(renamed, ", "))
	}
}

// validName reports whether the language takes n as a task name as it is.
func validName(n string) bool {
	if n == "" || len(n) > scenario.MaxName {
		return false
	}
	for _, r := range n {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_.:/-", r)) {
			return false
		}
	}
	return true
}

// scriptName makes a name the language takes out of n, which it does not:
// its allowed characters, others as _, then -x and the FNV-1a hash of n
// (and a number, should that be taken too).
func scriptName(n string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range n {
		if validName(string(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	h := fnv.New32a()
	h.Write([]byte(n))
	suffix := fmt.Sprintf("-x%08x", h.Sum32())
	base := b.String()
	if len(base) > 200 {
		base = base[:200]
	}
	out := base + suffix
	for i := 2; taken[out]; i++ {
		out = base + suffix + "-" + strconv.Itoa(i)
	}
	return out
}

// errorText is a recorded error as a script line can carry it: no line
// breaks or other control characters (spaces instead), no # (which starts
// a comment; written as the fullwidth ＃), no space at either end.
func (x *exporter) errorText(task, e string) string {
	out := lineText(e)
	if out != e {
		x.note(fmt.Sprintf("the error of %s is written %s (a line cannot hold it as it is: %s)", task, strconv.Quote(out), strconv.Quote(e)))
	}
	return out
}

// lineText is e as the rest of a script line can hold it (see errorText).
func lineText(e string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r == '#':
			return '＃'
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, e))
}
