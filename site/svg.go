package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
// gives the same bytes, and the ETag is their hash.
//
// A picture is a run, bounded as POST /api/run's are, for it may be
// fetched by an <img> on any page: it takes one of the same run slots
// (or a 503), runs under the same limits (its tasks at most MaxSVGTasks)
// and time limit, and stops as soon as its client goes. A script that
// reaches a limit is a 400 that says which. It keeps the board of the
// step it draws, or of each frame of an animation (at most
// picture.MaxFrames), never every step's events.
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
	g := h.runs
	if !g.enter(r.Context()) {
		g.busy(w, r)
		return
	}
	defer g.leave()
	ctx, cancel := context.WithTimeoutCause(r.Context(), g.timeout,
		fmt.Errorf("the picture took longer than its time limit of %v", g.timeout))
	defer cancel()
	step := scenario.StepEnd
	if link.HasStep {
		step = link.Step
	}
	lim := g.limits
	if lim.Tasks == 0 || lim.Tasks > MaxSVGTasks {
		lim.Tasks = MaxSVGTasks
	}
	var b bytes.Buffer
	err := picture.Draw(ctx, &b, text, scenario.Options{Strategy: link.Strategy}, lim, step, animate)
	var le *scenario.LimitError
	var se *picture.StepError
	switch {
	case err == nil:
	case r.Context().Err() != nil:
		return // the client has gone: nobody reads an answer
	case errors.As(err, &le) && le.Limit == "tasks":
		jsonError(w, http.StatusBadRequest, "script: more than the "+strconv.Itoa(MaxSVGTasks)+" tasks a picture may draw")
		return
	case errors.As(err, &le):
		jsonError(w, http.StatusBadRequest, "script: "+le.Error())
		return
	case errors.As(err, &se):
		jsonError(w, http.StatusBadRequest, "bad parameter: step: "+strconv.Itoa(se.Step)+" is past the end: the script runs "+strconv.Itoa(se.Len)+" steps")
		return
	default:
		badScript(w, err)
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
