//go:build dagq_nojson

package scenario

import "errors"

// With the tag dagq_nojson (the playground's main.wasm, which shows traces
// and never writes them as JSON) the JSON trace is not built in, and
// encoding/json is not linked: it would add to what a browser downloads.

// jsonWriter stands in for the JSON encoder; every value it is asked to
// encode is refused.
type jsonWriter struct{}

func newJSONWriter() *jsonWriter { return &jsonWriter{} }

var errNoJSON = errors.New("scenario: JSON traces are not built in (tag dagq_nojson)")

func (j *jsonWriter) appendValue(dst []byte, v any) ([]byte, error) { return dst, errNoJSON }
func (j *jsonWriter) appendString(dst []byte, s string) []byte      { return dst }
func (j *jsonWriter) appendName(dst []byte, name string) []byte     { return dst }
