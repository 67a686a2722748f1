package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// Action is the body of the console's POST routes: which DEAD tasks (a
// group's fingerprint, or text their error contains), at what rate ("" for
// all at once, else "N/DURATION" as wq db redrive --rate takes it), and
// for force, the task.
type Action struct {
	Fingerprint string `json:"fingerprint,omitempty"`
	Match       string `json:"match,omitempty"`
	Rate        string `json:"rate,omitempty"`
	Task        string `json:"task,omitempty"`
}

// Preview is the answer of POST …/preview: what a redrive of the
// selection would do, as durable.Queue.PreviewRedrive says.
type Preview struct {
	Redrive  []string `json:"redrive"`  // the DEAD tasks it would redrive
	Release  []string `json:"release"`  // the BLOCKED tasks it would release
	Skipped  []string `json:"skipped"`  // poisoned: left alone
	Blocked  int      `json:"blocked"`  // BLOCKED tasks that would stay so, under another root
	Released int      `json:"released"` // len(Release)
}

// Done is the answer of a change: what it did, in a sentence, and the
// counts.
type Done struct {
	Text    string `json:"text"`
	Tasks   int    `json:"tasks"`   // the tasks it redrives (or redrove)
	Skipped int    `json:"skipped"` // poisoned, left alone
}

// readAction reads a POST's body (at most maxBody bytes of JSON).
func readAction(w http.ResponseWriter, r *http.Request) (Action, bool) {
	var a Action
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		jsonError(w, http.StatusBadRequest, "live: the body must be a JSON object such as {\"fingerprint\":\"…\",\"rate\":\"2/1s\"}: "+err.Error())
		return a, false
	}
	return a, true
}

// selector is the action's selection, or an answer of 400.
func (a Action) selector(w http.ResponseWriter) (core.Selector, bool) {
	if (a.Fingerprint == "") == (a.Match == "") {
		jsonError(w, http.StatusBadRequest, "live: give exactly one of fingerprint and match")
		return core.Selector{}, false
	}
	return core.Selector{Fingerprint: a.Fingerprint, Contains: a.Match}, true
}

// ParseRate reads a rate as wq db redrive --rate takes it: "N/DURATION",
// such as 10/1s; "" is the zero Rate, all at once.
func ParseRate(s string) (core.Rate, error) {
	if s == "" {
		return core.Rate{}, nil
	}
	var r core.Rate
	n, per, ok := strings.Cut(s, "/")
	var err error
	if r.N, err = strconv.Atoi(n); ok && err == nil {
		r.Per, err = time.ParseDuration(per)
	}
	if !ok || err != nil || r.N < 1 || r.Per <= 0 {
		return core.Rate{}, errors.New("live: rate " + strconv.Quote(s) + ": want N/DURATION, such as 10/1s")
	}
	return r, nil
}

// queue opens the request's DAG, answering 404 if there is none.
func (s *server) queue(ctx context.Context, w http.ResponseWriter, r *http.Request) (*durable.Queue, bool) {
	dag := r.PathValue("dag")
	ok, err := s.db.HasDAG(ctx, dag)
	if err != nil {
		dbError(w, err)
		return nil, false
	}
	if !ok {
		jsonError(w, http.StatusNotFound, "live: no DAG "+strconv.Quote(dag))
		return nil, false
	}
	q, err := s.db.Queue(ctx, dag, core.Config{MaxAttempts: 1}) // exists: its settings are kept
	if err != nil {
		dbError(w, err)
		return nil, false
	}
	return q, true
}

// preview answers what a redrive of the selection would do. It changes
// nothing (durable runs the redrive and rolls it back), so it needs no
// token, but it must come from the page's own origin and takes a read
// slot: it walks the DAG.
func (s *server) preview(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		jsonError(w, http.StatusForbidden, "live: a request from another site's page is refused")
		return
	}
	a, ok := readAction(w, r)
	if !ok {
		return
	}
	sel, ok := a.selector(w)
	if !ok {
		return
	}
	release := s.takeRead(w, r)
	if release == nil {
		return
	}
	defer release()
	ctx, cancel := s.dbContext(r)
	defer cancel()
	q, ok := s.queue(ctx, w, r)
	if !ok {
		return
	}
	p, err := q.PreviewRedrive(ctx, sel)
	if err != nil {
		dbError(w, err)
		return
	}
	out := Preview{Redrive: []string{}, Release: []string{}, Skipped: p.Skipped, Blocked: p.Blocked, Released: p.Released}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, root := range p.Roots {
		out.Redrive = append(out.Redrive, root.Task)
		out.Release = append(out.Release, root.Release...)
	}
	writeJSON(w, http.StatusOK, out)
}

// redrive redrives a selection at once or at a rate: wq db redrive's call.
func (s *server) redrive(w http.ResponseWriter, r *http.Request) {
	a, ok := readAction(w, r)
	if !ok {
		return
	}
	sel, ok := a.selector(w)
	if !ok {
		return
	}
	rate, err := ParseRate(a.Rate)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	ctx, cancel := s.dbContext(r)
	defer cancel()
	q, ok := s.queue(ctx, w, r)
	if !ok {
		return
	}
	job, err := q.RedriveMatching(ctx, sel, rate)
	if err != nil {
		s.logf("redrive %s of DAG %s from %s failed: %v", sel, q.DAG(), r.RemoteAddr, err)
		jsonError(w, http.StatusConflict, err.Error())
		return
	}
	d := Done{Tasks: len(job.Tasks), Skipped: len(job.Skipped)}
	if job.Finished {
		d.Text = "redrove " + strconv.Itoa(job.Done) + " of " + sel.String()
	} else {
		d.Text = "redriving " + strconv.Itoa(len(job.Tasks)) + " of " + sel.String() + " at " + job.Rate.String() + ", " + strconv.Itoa(job.Done) + " so far"
	}
	if d.Skipped > 0 {
		d.Text += "; " + strconv.Itoa(d.Skipped) + " poisoned left alone"
	}
	s.logf("DAG %s: %s (from %s)", q.DAG(), d.Text, r.RemoteAddr)
	writeJSON(w, http.StatusOK, d)
}

// cancel stops a redrive at a rate: wq db redrive --cancel's call.
func (s *server) cancel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.dbContext(r)
	defer cancel()
	q, ok := s.queue(ctx, w, r)
	if !ok {
		return
	}
	job, running, err := q.Redriving(ctx)
	if err == nil {
		err = q.CancelRedrive(ctx)
	}
	if err != nil {
		s.logf("cancel of a redrive of DAG %s from %s failed: %v", q.DAG(), r.RemoteAddr, err)
		jsonError(w, http.StatusConflict, err.Error())
		return
	}
	d := Done{Text: "cancelled the redrive"}
	if running {
		d.Tasks = len(job.Tasks) - job.Done
		d.Text = "cancelled the redrive of " + job.Selector.String() + ": " + strconv.Itoa(job.Done) + " of " + strconv.Itoa(len(job.Tasks)) + " were redriven"
	}
	s.logf("DAG %s: %s (from %s)", q.DAG(), d.Text, r.RemoteAddr)
	writeJSON(w, http.StatusOK, d)
}

// force redrives one poisoned task, which a bulk redrive skips.
func (s *server) force(w http.ResponseWriter, r *http.Request) {
	a, ok := readAction(w, r)
	if !ok {
		return
	}
	if a.Task == "" {
		jsonError(w, http.StatusBadRequest, "live: give the task to redrive")
		return
	}
	ctx, cancel := s.dbContext(r)
	defer cancel()
	q, ok := s.queue(ctx, w, r)
	if !ok {
		return
	}
	if err := q.ForceRedrive(ctx, a.Task); err != nil {
		s.logf("forced redrive of %s in DAG %s from %s failed: %v", a.Task, q.DAG(), r.RemoteAddr, err)
		jsonError(w, http.StatusConflict, err.Error())
		return
	}
	d := Done{Text: "forced the redrive of " + a.Task, Tasks: 1}
	s.logf("DAG %s: %s (from %s)", q.DAG(), d.Text, r.RemoteAddr)
	writeJSON(w, http.StatusOK, d)
}
