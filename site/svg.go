package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/picture"
	"github.com/dagq/dagq/internal/playground"
)

// The bounds of a picture: a script given in the link is at most
// MaxSVGScript bytes (a library scenario may be larger), and a drawing has
// at most MaxSVGTasks tasks, beyond which no picture is readable anyway.
const (
	MaxSVGScript = 64 << 10
	MaxSVGTasks  = 5000
)

// svg is GET /svg: the picture of a scenario, static at a step or
// animated, as image/svg+xml.
//
//	/svg?scenario=NAME | script=BASE64URL[&enc=deflate]
//	     [&step=N|end] [&animate=1] [&strategy=NAME]
//
// The parameters are read as the playground's links are; one that cannot
// be read is a 400 that names it, and so is a script past MaxSVGScript or
// a graph past MaxSVGTasks. Pictures are cacheable: the same address always
// gives the same bytes, and the ETag is their hash. A picture counts as a
// run for the limit on runs at once.
func (h *handler) svg(w http.ResponseWriter, r *http.Request) {
	link, errs := playground.ParseLink(r.URL.RawQuery, "")
	animate := false
	switch v := r.URL.Query().Get("animate"); v {
	case "", "0", "false":
	case "1", "true":
		animate = true
	default:
		errs = append(errs, &playground.LinkError{Param: "animate", Value: v, Msg: "must be 1 or 0"})
	}
	if len(errs) > 0 {
		var msgs []string
		for _, err := range errs {
			var le *playground.LinkError
			if errors.As(err, &le) {
				msgs = append(msgs, le.Param+": "+le.Msg)
			} else {
				msgs = append(msgs, err.Error())
			}
		}
		jsonError(w, http.StatusBadRequest, "bad parameter: "+strings.Join(msgs, "; "))
		return
	}
	text := link.Script
	switch {
	case link.HasScript && len(text) > MaxSVGScript:
		jsonError(w, http.StatusBadRequest, "script: longer than the "+strconv.Itoa(MaxSVGScript)+" bytes a picture may draw")
		return
	case !link.HasScript && link.Scenario == "":
		jsonError(w, http.StatusBadRequest, "bad parameter: give scenario=NAME or script=BASE64URL")
		return
	case !link.HasScript:
		e, _ := scenario.Lookup(link.Scenario)
		text = e.Text
	}
	if !h.runs.enter(r.Context()) {
		h.runs.busy(w, r)
		return
	}
	defer h.runs.leave()
	s, err := scenario.NewSession(text, scenario.Options{Strategy: link.Strategy})
	if err != nil {
		badScript(w, err)
		return
	}
	if n := len(s.GraphAt(scenario.StepEnd)); n > MaxSVGTasks {
		jsonError(w, http.StatusBadRequest, "script: "+strconv.Itoa(n)+" tasks, more than the "+strconv.Itoa(MaxSVGTasks)+" a picture may draw")
		return
	}
	step := scenario.StepEnd
	if link.HasStep {
		step = link.Step
	}
	if step != scenario.StepEnd && step > s.Len() {
		jsonError(w, http.StatusBadRequest, "bad parameter: step: "+strconv.Itoa(step)+" is past the end: the script runs "+strconv.Itoa(s.Len())+" steps")
		return
	}
	var b bytes.Buffer
	if animate {
		err = picture.Animated(&b, s, scenario.Title(text))
	} else {
		err = picture.Static(&b, s, step, scenario.Title(text))
	}
	if err != nil {
		jsonError(w, http.StatusInternalServerError, "drawing failed: "+err.Error())
		return
	}
	sum := sha256.Sum256(b.Bytes())
	hd := w.Header()
	hd.Set("Content-Type", "image/svg+xml")
	hd.Set("Cache-Control", "public, max-age=3600")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	hd.Set("ETag", `"`+hex.EncodeToString(sum[:12])+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b.Bytes()))
}
