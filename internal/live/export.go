package live

import (
	"encoding/base64"
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/playground"
)

// exportScript is GET /api/live/dags/{dag}/script: the scenario script
// that rebuilds the DAG's state in the playground (durable.DB.ExportScript,
// as wq db export writes it). It reads the whole DAG and runs the script,
// so it takes a read slot.
func (s *server) exportScript(w http.ResponseWriter, r *http.Request) {
	ctx, dag, done, ok := s.readDAG(w, r)
	if !ok {
		return
	}
	defer done()
	text, err := s.db.ExportScript(ctx, dag)
	if err != nil {
		dbError(w, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(text))
}

// DetailOf is a task's detail as GET /api/live/dags/{dag}/tasks/{name}
// answers it, in the form the page reads (playground.LiveDetail), at now:
// its failed attempts, then the one under way (RUNNING, with its lease)
// or the one that succeeded; times in milliseconds since the epoch.
func DetailOf(d durable.TaskDetail, now time.Time) playground.LiveDetail {
	out := playground.LiveDetail{Task: d.Name, State: string(d.State), Reason: d.Reason, Root: d.Root, Poisoned: d.Poisoned,
		Redrives: d.Redrives, MaxAttempts: d.MaxAttempts, NowMs: now.UnixMilli(), SubmittedMs: ms(d.Created),
		WaitsOn: d.Deps, WaitedOnBy: d.Dependents, Args: text(d.Args), Result: text(d.Result)}
	if d.Due != 0 {
		out.DueMs = d.Due.Milliseconds() // the DAG's clock: since the epoch
	}
	for _, f := range d.Failures {
		o := playground.OutcomeFailed
		if f.Outcome == core.Dead {
			o = playground.OutcomeDead
		}
		out.Attempts = append(out.Attempts, playground.LiveAttempt{N: f.Attempt, Round: f.Redrives, Worker: f.Holder,
			Outcome: string(o), Error: f.Error, StartedMs: ms(f.Started), EndedMs: ms(f.Ended)})
	}
	switch {
	case d.State == core.Running && d.Lease != nil:
		out.Attempts = append(out.Attempts, playground.LiveAttempt{N: d.Attempts, Round: d.Redrives, Lease: d.Lease.ID,
			Worker: d.Lease.Holder, Outcome: string(playground.OutcomeRunning), StartedMs: ms(d.Lease.Since), DeadlineMs: d.Lease.Deadline.Milliseconds()})
	case d.State == core.Succeeded:
		out.Attempts = append(out.Attempts, playground.LiveAttempt{N: d.Attempts, Round: d.Redrives,
			Outcome: string(playground.OutcomeSucceeded), EndedMs: ms(d.Finished)})
	}
	return out
}

// ms is a time in milliseconds since the epoch; 0 for the zero time.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// text is arguments or a result as text: as they are when UTF-8 (JSON, by
// the durable queue's convention), else base64, said so.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return "(base64) " + base64.StdEncoding.EncodeToString(b)
}

// taskDetail answers a task's detail (durable.DB.TaskDetail: bounded
// reads of one snapshot).
func (s *server) taskDetail(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.dbContext(r)
	defer cancel()
	d, err := s.db.TaskDetail(ctx, r.PathValue("dag"), r.PathValue("name"))
	if errors.Is(err, durable.ErrNoTask) {
		jsonError(w, http.StatusNotFound, err.Error())
		return
	}
	if err != nil {
		dbError(w, err)
		return
	}
	out := DetailOf(d, time.Now())
	writeJSON(w, http.StatusOK, out)
}
