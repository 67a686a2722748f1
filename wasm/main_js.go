//go:build js && wasm

// Command wasm is the dagq playground in the browser. For now it runs a
// library scenario and shows its trace; the animated playground builds on
// the same scenario runner.
package main

import (
	"bytes"

	"honnef.co/go/js/dom/v2"

	"github.com/dagq/dagq/core/scenario"
)

func main() {
	doc := dom.GetWindow().Document()
	out := doc.CreateElement("pre")
	out.SetAttribute("id", "trace")
	out.SetTextContent(trace("diamond-redrive"))
	doc.QuerySelector("body").AppendChild(out)
}

// trace runs a library scenario and returns its text trace, or the error.
func trace(name string) string {
	e, ok := scenario.Lookup(name)
	if !ok {
		return "no scenario " + name
	}
	s, err := scenario.Parse(e.Text)
	if err != nil {
		return err.Error()
	}
	t, err := scenario.Run(s, scenario.Options{})
	var b bytes.Buffer
	if t != nil {
		scenario.WriteText(&b, t)
	}
	if err != nil {
		b.WriteString(err.Error())
	}
	return b.String()
}
