package site

import (
	"bytes"
	"github.com/dagq/dagq/internal/practice"
	"net/http"
)

// rubric serves the rubric page: what an answer to the work-queue design
// question covers, level by level, each point linked to its exercise and
// scenario (see practice.Rubric).
func (h *handler) rubric(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	if err := practice.WriteRubric(&b); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b.Bytes())
}
