package live

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/dagq/dagq/durable"
)

// exportScript is GET /api/live/dags/{dag}/script: the scenario script
// that rebuilds the DAG's state in the playground (durable.DB.ExportScript,
// as wq db export writes it). It reads the whole DAG and runs the script,
// so it takes a read slot.
func (s *server) exportScript(w http.ResponseWriter, r *http.Request) {
	release := s.takeRead(w, r)
	if release == nil {
		return
	}
	defer release()
	ctx, cancel := s.dbContext(r)
	defer cancel()
	dag := r.PathValue("dag")
	ok, err := s.db.HasDAG(ctx, dag)
	if err != nil {
		dbError(w, err)
		return
	}
	if !ok {
		jsonError(w, http.StatusNotFound, "live: no DAG "+strconv.Quote(dag)+": was it deleted?")
		return
	}
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

// Detail is GET /api/live/dags/{dag}/tasks/{name}: durable.TaskDetail as
// JSON, arguments and result as text when they are UTF-8 (JSON, by the
// durable queue's convention), else base64 with ArgsBase64 set.
type Detail struct {
	Name          string    `json:"name"`
	State         string    `json:"state"`
	Reason        string    `json:"reason,omitempty"`
	Error         string    `json:"error,omitempty"`
	Root          string    `json:"root,omitempty"`
	Poisoned      bool      `json:"poisoned,omitempty"`
	Attempts      int       `json:"attempts"`
	MaxAttempts   int       `json:"maxAttempts"`
	Redrives      int       `json:"redrives"`
	Failures      []Failure `json:"failures"`
	LeaseHolder   string    `json:"leaseHolder,omitempty"` // a RUNNING task's
	LeaseSince    time.Time `json:"leaseSince,omitzero"`
	Deps          []string  `json:"deps"`
	WaitsOn       []string  `json:"waitsOn"`
	Dependents    []string  `json:"dependents"`
	NumDeps       int       `json:"numDeps"`
	NumDependents int       `json:"numDependents"`
	Args          string    `json:"args,omitempty"`
	ArgsBase64    bool      `json:"argsBase64,omitempty"`
	Result        string    `json:"result,omitempty"`
	ResultBase64  bool      `json:"resultBase64,omitempty"`
	Created       time.Time `json:"created"`
	Changed       time.Time `json:"changed"`
	Finished      time.Time `json:"finished,omitzero"`
}

// Failure is a failed attempt of a Detail.
type Failure struct {
	Attempt   int       `json:"attempt"`
	Redrives  int       `json:"redrives"`
	Error     string    `json:"error"`
	Expired   bool      `json:"expired,omitempty"`
	Permanent bool      `json:"permanent,omitempty"`
	Outcome   string    `json:"outcome"`
	Holder    string    `json:"holder,omitempty"`
	Started   time.Time `json:"started,omitzero"`
	Ended     time.Time `json:"ended,omitzero"`
}

// bytesJSON is b as text if it is UTF-8, else base64 (and true).
func bytesJSON(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return base64.StdEncoding.EncodeToString(b), true
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
	out := Detail{Name: d.Name, State: string(d.State), Reason: d.Reason, Error: d.Error, Root: d.Root, Poisoned: d.Poisoned,
		Attempts: d.Attempts, MaxAttempts: d.MaxAttempts, Redrives: d.Redrives, Failures: []Failure{},
		Deps: nonNil(d.Deps), WaitsOn: nonNil(d.WaitsOn), Dependents: nonNil(d.Dependents), NumDeps: d.NumDeps, NumDependents: d.NumDependents,
		Created: d.Created, Changed: d.Changed, Finished: d.Finished}
	if d.Lease != nil {
		out.LeaseHolder, out.LeaseSince = d.Lease.Holder, d.Lease.Since
	}
	out.Args, out.ArgsBase64 = bytesJSON(d.Args)
	out.Result, out.ResultBase64 = bytesJSON(d.Result)
	for _, f := range d.Failures {
		out.Failures = append(out.Failures, Failure{Attempt: f.Attempt, Redrives: f.Redrives, Error: f.Error, Expired: f.Expired,
			Permanent: f.Permanent, Outcome: string(f.Outcome), Holder: f.Holder, Started: f.Started, Ended: f.Ended})
	}
	writeJSON(w, http.StatusOK, out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
