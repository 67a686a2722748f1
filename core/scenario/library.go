package scenario

import (
	"embed"
	"path"
	"slices"
	"strings"
	"sync"
)

// The scenario library: the files library/NAME.dagq. Each opens with a
// "# Title" line and a few comment lines on what to watch, and pins the
// interesting states with expect lines, so every one of them runs clean.
// A command the scenario means to be refused carries a comment that starts
// with "refused", e.g. `submit c a  # refused: closes c -> a -> b -> c`;
// the tests hold the library to that.
//
// wide-1000 and chain-200 are generated (see library_gen_test.go; rewrite
// them with `go test ./core/scenario -run TestGenerated -update`).
//
//go:embed library/*.dagq
var libraryFS embed.FS

// Entry is a scenario of the library.
type Entry struct {
	Name  string // the file name without .dagq, e.g. "diamond-redrive"
	Title string // the first comment line without "# "
	Text  string // the script
}

// Library returns the library's scenarios, sorted by name. They are read
// once; each call returns a slice of its own.
func Library() []Entry { return slices.Clone(library()) }

// library reads the library's files once: the playground looks scenarios
// up on every address it opens, and wide-1000's text alone is tens of
// kilobytes.
var library = sync.OnceValue(func() []Entry {
	files, err := libraryFS.ReadDir("library")
	if err != nil {
		panic("scenario: library missing: " + err.Error())
	}
	var out []Entry
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), ".dagq")
		if !ok {
			continue
		}
		data, err := libraryFS.ReadFile(path.Join("library", f.Name()))
		if err != nil {
			panic("scenario: library unreadable: " + err.Error())
		}
		text := string(data)
		out = append(out, Entry{Name: name, Title: Title(text), Text: text})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out
})

// Lookup returns the library scenario with this name.
func Lookup(name string) (Entry, bool) {
	for _, e := range library() {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Title returns the first line of a script without its "#", if it is a
// comment, as the library's scenarios open with their title; ""
// otherwise.
func Title(text string) string {
	first, _, _ := strings.Cut(text, "\n")
	t, ok := strings.CutPrefix(strings.TrimSpace(first), "#")
	if !ok {
		return ""
	}
	return strings.TrimSpace(t)
}
