//go:build js && wasm

package main

import "syscall/js"

// The page reads and writes the little JSON it exchanges with a server
// (the live view's answers) with the browser's own JSON, not
// encoding/json: that package, with the reflection and the time
// formatting it brings, is 0.1 MB more of main.wasm to download with
// brotli, beyond the module's budget (site's TestWasmSizeBudget).

// jsonObject is a JSON object parsed by the browser; its fields are read
// by name, and a field that is missing or of another type reads as the
// zero value.
type jsonObject struct{ v js.Value }

// parseJSON parses a JSON text; ok is false for a text that is not JSON,
// or not an object.
func parseJSON(text string) (o jsonObject, ok bool) {
	defer func() {
		if recover() != nil { // JSON.parse threw: not JSON
			o, ok = jsonObject{}, false
		}
	}()
	v := js.Global().Get("JSON").Call("parse", text)
	if v.Type() != js.TypeObject || js.Global().Get("Array").Call("isArray", v).Bool() {
		return jsonObject{}, false
	}
	return jsonObject{v}, true
}

// field returns a field of the object, and whether it has that type.
func (o jsonObject) field(name string, t js.Type) (js.Value, bool) {
	if o.v.IsUndefined() || o.v.IsNull() {
		return js.Undefined(), false
	}
	f := o.v.Get(name)
	return f, f.Type() == t
}

// str returns a string field; "" if there is none.
func (o jsonObject) str(name string) string {
	if f, ok := o.field(name, js.TypeString); ok {
		return f.String()
	}
	return ""
}

// boolean returns a boolean field; false if there is none.
func (o jsonObject) boolean(name string) bool {
	f, ok := o.field(name, js.TypeBoolean)
	return ok && f.Bool()
}

// integer returns a number field, as an int; 0 if there is none.
func (o jsonObject) integer(name string) int {
	if f, ok := o.field(name, js.TypeNumber); ok {
		return f.Int()
	}
	return 0
}

// strs returns the strings of an array field, leaving out what is not a
// string; nil if there is none.
func (o jsonObject) strs(name string) []string {
	f, ok := o.field(name, js.TypeObject)
	if !ok || !js.Global().Get("Array").Call("isArray", f).Bool() {
		return nil
	}
	var out []string
	for i := range f.Length() {
		if e := f.Index(i); e.Type() == js.TypeString {
			out = append(out, e.String())
		}
	}
	return out
}

// stringJSON writes an object of string fields as JSON.
func stringJSON(fields map[string]string) string {
	obj := js.Global().Get("Object").New()
	for k, v := range fields {
		obj.Set(k, v)
	}
	return js.Global().Get("JSON").Call("stringify", obj).String()
}

// number returns a number field as a float; 0 if there is none.
func (o jsonObject) number(name string) float64 {
	if f, ok := o.field(name, js.TypeNumber); ok {
		return f.Float()
	}
	return 0
}

// objects returns the objects of an array field; nil if there is none.
func (o jsonObject) objects(name string) []jsonObject {
	f, ok := o.field(name, js.TypeObject)
	if !ok || !js.Global().Get("Array").Call("isArray", f).Bool() {
		return nil
	}
	var out []jsonObject
	for i := range f.Length() {
		if e := f.Index(i); e.Type() == js.TypeObject {
			out = append(out, jsonObject{e})
		}
	}
	return out
}
