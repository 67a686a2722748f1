// Package escape escapes text for the markup the project writes: HTML that
// the playground's page builds (HTML) and the SVG of its drawings
// (XMLText). Each gives exactly what the standard library's html and
// encoding/xml would; it exists so that the playground's main.wasm links
// neither, for their package initializers build tables of entities (over
// two thousand of them for html) that every visitor would download and
// none uses.
package escape
