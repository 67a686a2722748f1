package playground

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// LiveState is a live DAG's state as its server sends it (package live,
// from durable.DB.State), in JSON: data the page builds its model of
// directly ([Page.OpenLiveState]), where a script would cost a replay.
// Tasks are referred to by their place in Tasks.
type LiveState struct {
	DAG string `json:"dag"`
	// Tasks are the DAG's tasks in the order they arrived, each as
	// [name, state, dependency, …]: what it waits on as submitted,
	// names never submitted included.
	Tasks [][]string `json:"tasks"`
	// Ready is the READY line, front first.
	Ready []int `json:"ready"`
	// DLQ is the dead-letter queue, in the order tasks entered it.
	DLQ []LiveEntry `json:"dlq"`
	// Alert is the growth alert's rule while it is raised; nil otherwise.
	Alert *LiveAlert `json:"alert,omitempty"`
	// Redrive is the bulk redrive at a rate under way; nil if none is.
	Redrive *LiveRedrive `json:"redrive,omitempty"`
}

// LiveEntry is an entry of a LiveState's dead-letter queue: a DEAD task,
// with the error of its last attempt, its reason, its attempts, whether
// it is poisoned and how many BLOCKED tasks it holds; or a BLOCKED task
// with its root, a DEAD task upstream (Root is -1 for a DEAD task, and
// only for one).
type LiveEntry struct {
	Task     int    `json:"task"`
	Root     int    `json:"root"`
	Reason   string `json:"reason,omitempty"`
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	Poisoned bool   `json:"poisoned,omitempty"`
	Blocks   int    `json:"blocks,omitempty"`
}

// LiveAlert is the rule of a raised growth alert: Entries or more dead
// letters within WindowMs milliseconds.
type LiveAlert struct {
	Entries  int   `json:"entries"`
	WindowMs int64 `json:"windowMs"`
}

// LiveRedrive is a bulk redrive at a rate under way: Done of Total tasks
// handled, N every PerMs milliseconds.
type LiveRedrive struct {
	Done  int   `json:"done"`
	Total int   `json:"total"`
	N     int   `json:"n"`
	PerMs int64 `json:"perMs"`
}

// liveText is the script a live view's session holds: what the editor
// shows until the page asks for the DAG's script (the Share panel).
func liveText(dag string) string {
	return "# The live DAG " + dag + ", drawn from its state in the database.\n" +
		"# Share gives it as a script that rebuilds it (wq db export " + dag + " writes the same).\n"
}

// OpenLiveState shows data, the state of the live DAG dag as its server
// sends it (a [LiveState] in JSON, read by [DecodeLiveState]), in place of what was shown; Undo has
// nothing to take back. The page's model is built from the state
// directly: the board, the graph, the dead-letter queue with its groups
// and blast radii, the redrive under way. A state that does not parse,
// or that cannot be (a task twice, a READY task out of the line, an
// entry of the dead-letter queue that is not DEAD or BLOCKED, a root
// that is not DEAD, a place out of range), changes nothing and returns
// its error.
//
// The cost is O(len(data)).
func (p *Page) OpenLiveState(dag string, data string) error {
	st, err := DecodeLiveState(data)
	if err != nil {
		return fmt.Errorf("the state of %s is not JSON of a state: %w", dag, err)
	}
	s, err := st.Session()
	if err != nil {
		return err
	}
	p.s, p.name, p.origin, p.live, p.undo = s, "", "", dag, nil
	p.livePaced, p.liveScript = nil, ""
	if r := st.Redrive; r != nil && r.Done < r.Total {
		rate := core.Rate{N: r.N, Per: time.Duration(r.PerMs) * time.Millisecond}
		p.livePaced = &PacedRedrive{
			Label:  strconv.Itoa(r.Done) + "/" + strconv.Itoa(r.Total) + " redriven, " + strconv.Itoa(rate.N) + " every " + scenario.FormatDuration(rate.Per),
			Cancel: "redrive cancel",
			Why:    refusedWhileRedriving,
		}
	}
	return nil
}

// SetLiveScript keeps text, the live DAG's script as its server exports
// it, for the Share panel's link ([Page.Share]) and the editor; the
// drawing stays the state's.
func (p *Page) SetLiveScript(text string) { p.liveScript = text }

// LiveScript returns the live DAG's script the page was given, "" if none.
func (p *Page) LiveScript() string { return p.liveScript }

// ShareNeedsScript reports whether the Share panel must first ask the
// server for the script of the DAG shown ([Page.SetLiveScript]): a live
// view drawn from a state has none until then, and a state loaded since
// drops the script of the one before.
func (p *Page) ShareNeedsScript() bool { return p.live != "" && p.liveScript == "" }

// Session makes the session of the state: no steps, its board and graph
// at step 0 (session.FromState). The cost is O(tasks + edges + entries).
func (st *LiveState) Session() (*session.Session, error) {
	n := len(st.Tasks)
	bs := scenario.BoardState{Tasks: make([]string, n), States: make([]core.State, n),
		Ready: make([]string, len(st.Ready)), DLQ: make([]core.DeadLetter, len(st.DLQ))}
	nodes := make([]scenario.Node, n)
	for i, t := range st.Tasks {
		if len(t) < 2 {
			return nil, fmt.Errorf("task %d of the state has no name or no state", i+1)
		}
		bs.Tasks[i], bs.States[i] = t[0], stateNamed(t[1])
		nodes[i] = scenario.Node{Task: t[0]}
		if len(t) > 2 {
			nodes[i].Deps = t[2:len(t):len(t)]
		}
	}
	name := func(i int, what string) (string, error) {
		if i < 0 || i >= n {
			return "", errors.New(what + " is task " + strconv.Itoa(i) + ", not one of the state's " + strconv.Itoa(n))
		}
		return bs.Tasks[i], nil
	}
	var err error
	for j, i := range st.Ready {
		if bs.Ready[j], err = name(i, "place "+strconv.Itoa(j+1)+" of the READY line"); err != nil {
			return nil, err
		}
	}
	for j, e := range st.DLQ {
		d := &bs.DLQ[j]
		if d.Task, err = name(e.Task, "entry "+strconv.Itoa(j+1)+" of the dead-letter queue"); err != nil {
			return nil, err
		}
		if e.Root == -1 {
			*d = core.DeadLetter{Task: d.Task, State: core.Dead, Reason: e.Reason, Attempts: e.Attempts, Error: e.Error,
				Fingerprint: core.Fingerprint(e.Error), Poisoned: e.Poisoned, BlastRadius: e.Blocks}
			continue
		}
		if d.Root, err = name(e.Root, "the root of "+d.Task); err != nil {
			return nil, err
		}
		d.State, d.Reason = core.Blocked, "blocked by "+d.Root
	}
	if st.Alert != nil {
		bs.Alerting, bs.AlertCount, bs.AlertWindow = true, st.Alert.Entries, time.Duration(st.Alert.WindowMs)*time.Millisecond
	}
	b, err := scenario.NewBoard(bs)
	if err != nil {
		return nil, errors.New(st.DAG + ": " + err.Error())
	}
	return session.FromState(liveText(st.DAG), b, nodes, scenario.Options{})
}

// allStates is core.States(), read once: stateNamed reads it per task.
var allStates = core.States()

// stateNamed is the State of its name, the constant itself so that the
// name just parsed can be dropped; an unknown name as it is (NewBoard
// refuses it).
func stateNamed(name string) core.State {
	for _, st := range allStates {
		if string(st) == name {
			return st
		}
	}
	return core.State(name)
}
