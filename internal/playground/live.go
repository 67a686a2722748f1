package playground

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/session"

	"github.com/dagq/dagq/internal/wording"
)

// The live view (wq serve --db, package live): the page opened as
// /?live=DAG shows a DAG of a durable queue as a script its server exports
// (a script that rebuilds the DAG's state), at its last step, and loads it
// again whenever the server says the DAG changed. Its workers change its
// tasks, not the page: clicks and the command box say so; the console's
// buttons are requests to the server, which acts on the queue with
// durable's calls (LiveRequest).

// errLive is why a live page does not act as the simulator does.
var errLive = errors.New("this is a live DAG: its workers change its tasks, not this page. The dead-letter console acts on the queue; the Share panel gives its state as a script to try things on")

// OpenLive shows text, the script the server exported of the live DAG
// dag, at its last step, in place of what was shown; Undo has nothing to
// take back. A text that does not run changes nothing and returns its
// error. The cost is a run of the script.
func (p *Page) OpenLive(dag, text string) error {
	s, err := session.New(text, p.options())
	if err != nil {
		return err
	}
	s.Seek(StepEnd)
	p.s, p.name, p.origin, p.live, p.undo = s, "", "", dag, nil
	p.livePaced, p.liveScript = nil, text
	return nil
}

// Live returns the DAG of a live view, "" for the simulator.
func (p *Page) Live() string { return p.live }

// liveAddress is a live view's address: ?live=DAG.
func (p *Page) liveAddress() string { return "?live=" + url.QueryEscape(p.live) }

// LiveRequest is what a console command asks of a live DAG's server: a
// POST to Route (package live's /api/live/dags/{dag}/ROUTE) with Body.
type LiveRequest struct {
	Route string // preview, redrive, cancel or force
	// Body is the JSON body's fields: fingerprint, rate, task.
	Body map[string]string
	// Changes is true when it changes the queue, and so needs the token.
	Changes bool
}

// LiveRequest turns a command of the console or of the DLQ's rows, as the
// page offers them ([Page.Console], [Page.DLQ]), into a request to the
// live DAG's server: "redrive group N [at RATE]" and "preview redrive
// group N" name the group's fingerprint at the step shown; "redrive
// cancel"; "redrive! T" and "redrive T" the forced redrive of one task (a
// row's Redrive: durable.Queue.ForceRedrive redrives a task whether or
// not it is poisoned). Any other command is refused with errLive.
func (p *Page) LiveRequest(cmd string) (LiveRequest, error) {
	f := strings.Fields(cmd)
	group := func(n string) (string, error) {
		k, err := strconv.Atoi(n)
		groups := p.Console().Groups
		if err != nil || k < 1 || k > len(groups) {
			return "", errors.New("there is no group " + n + " in the dead-letter queue now")
		}
		return groups[k-1].Fingerprint, nil
	}
	switch {
	case len(f) == 4 && f[0] == "preview" && f[1] == "redrive" && f[2] == "group":
		fp, err := group(f[3])
		return LiveRequest{Route: "preview", Body: map[string]string{"fingerprint": fp}}, err
	case len(f) == 3 && f[0] == "redrive" && f[1] == "group", len(f) == 5 && f[0] == "redrive" && f[1] == "group" && f[3] == "at":
		fp, err := group(f[2])
		r := LiveRequest{Route: "redrive", Body: map[string]string{"fingerprint": fp}, Changes: true}
		if len(f) == 5 {
			r.Body["rate"] = f[4]
		}
		return r, err
	case len(f) == 2 && f[0] == "redrive" && f[1] == "cancel":
		return LiveRequest{Route: "cancel", Body: map[string]string{}, Changes: true}, nil
	case len(f) == 2 && (f[0] == "redrive!" || f[0] == "redrive"):
		return LiveRequest{Route: "force", Body: map[string]string{"task": f[1]}, Changes: true}, nil
	}
	return LiveRequest{}, errLive
}

// LivePause is the least time between two loads of a live DAG by a page:
// the server's events come at most every 250 ms already.
const LivePause = 250 * time.Millisecond

// LiveWait is how long a page waits, after a load of a live DAG that took
// took, before it loads the DAG again for a change that came meanwhile:
// LivePause, or four times the load, so that a big DAG that changes all
// the time leaves the page free at least four fifths of the time.
func LiveWait(took time.Duration) time.Duration { return max(LivePause, 4*took) }

// LivePreviewText says what a live preview found, for a notice.
func LivePreviewText(redrive, released, skipped int) string {
	s := "Preview, nothing changed: the redrive would redrive " + wording.Plural(redrive, "task") + " and release " + wording.Plural(released, "blocked task")
	if skipped > 0 {
		s += "; " + wording.Plural(skipped, "poisoned task") + " would be left alone"
	}
	return s + ". They are marked in the drawing."
}

// LiveDetail is a live task's detail as the live DAG's server sends it
// (package live, from durable.DB.TaskDetail): plain fields, its times in
// milliseconds since the Unix epoch (0 for none), its neighbours by name,
// so that the page reads it with the browser's JSON parser.
// [LiveDetail.TaskDetail] makes of it what the detail panel shows.
type LiveDetail struct {
	Task, State, Reason, Root string
	Poisoned                  bool
	Redrives, MaxAttempts     int
	NowMs, SubmittedMs, DueMs int64
	Attempts                  []LiveAttempt
	WaitsOn, WaitedOnBy       []string
	Args, Result              string
}

// LiveAttempt is an attempt of a LiveDetail: Outcome is one of the
// AttemptOutcome values.
type LiveAttempt struct {
	N, Round                       int
	Lease                          uint64
	Worker, Outcome, Error         string
	StartedMs, EndedMs, DeadlineMs int64
}

// wall is a time in milliseconds since the epoch on the wall clock; the
// zero When for 0.
func wall(ms int64) When {
	if ms == 0 {
		return When{}
	}
	return When{Wall: time.UnixMilli(ms).UTC()}
}

// TaskDetail is what the detail panel shows of d: its times on the wall
// clock, each neighbour's state as state says (the state of the live DAG
// shown).
func (d LiveDetail) TaskDetail(state func(task string) core.State) TaskDetail {
	t := TaskDetail{Task: d.Task, State: core.State(d.State), Reason: d.Reason, Root: d.Root, Poisoned: d.Poisoned,
		Redrives: d.Redrives, MaxAttempts: d.MaxAttempts, Timed: true,
		Submitted: wall(d.SubmittedMs), Now: wall(d.NowMs), Due: wall(d.DueMs), Args: d.Args, Result: d.Result}
	for _, a := range d.Attempts {
		t.Attempts = append(t.Attempts, Attempt{N: a.N, Round: a.Round, Lease: a.Lease, Worker: a.Worker,
			Started: wall(a.StartedMs), Ended: wall(a.EndedMs), Deadline: wall(a.DeadlineMs),
			Outcome: AttemptOutcome(a.Outcome), Error: a.Error})
	}
	for _, n := range d.WaitsOn {
		t.WaitsOn = append(t.WaitsOn, Neighbour{Task: n, State: state(n)})
	}
	for _, n := range d.WaitedOnBy {
		t.WaitedOnBy = append(t.WaitedOnBy, Neighbour{Task: n, State: state(n)})
	}
	return t
}
