//go:build !dagq_nojson

package scenario

import (
	"bytes"
	"encoding/json"
)

// jsonWriter encodes JSON values without HTML escaping, and remembers the
// encoding of task names, which every line repeats.
type jsonWriter struct {
	buf   bytes.Buffer
	enc   *json.Encoder
	names map[string][]byte
}

func newJSONWriter() *jsonWriter {
	j := &jsonWriter{names: make(map[string][]byte)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// appendValue appends the JSON encoding of v.
func (j *jsonWriter) appendValue(dst []byte, v any) ([]byte, error) {
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))...), nil
}

// appendString appends s as a JSON string.
func (j *jsonWriter) appendString(dst []byte, s string) []byte {
	out, _ := j.appendValue(dst, s) // a string always encodes
	return out
}

// appendName appends a task name as a JSON string, encoded once per name.
func (j *jsonWriter) appendName(dst []byte, name string) []byte {
	q, ok := j.names[name]
	if !ok {
		q = j.appendString(nil, name)
		j.names[name] = q
	}
	return append(dst, q...)
}
