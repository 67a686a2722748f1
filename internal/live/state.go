package live

import (
	"net/http"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/playground"
)

// StateOf is a DAG's state as GET /api/live/dags/{dag}/state answers it,
// in the form the page reads (playground.LiveState): each task as [name,
// state, dependency, …] in the order they arrived, the READY line and the
// dead-letter queue by the tasks' places, the alert's rule while it is
// raised, the redrive at a rate under way. The cost is O(tasks + edges).
func StateOf(d durable.DAGState) playground.LiveState {
	out := playground.LiveState{DAG: d.DAG, Tasks: make([][]string, len(d.Tasks)), Ready: d.Ready,
		DLQ: make([]playground.LiveEntry, len(d.DLQ))}
	if out.Ready == nil {
		out.Ready = []int{}
	}
	at := make(map[string]int, len(d.DLQ)) // a DEAD task's place, for the roots
	for i, t := range d.Tasks {
		row := make([]string, 2, 2+len(t.Deps))
		row[0], row[1] = t.Name, string(t.State)
		out.Tasks[i] = append(row, t.Deps...)
	}
	for _, i := range d.DLQ {
		if d.Tasks[i].State == core.Dead {
			at[d.Tasks[i].Name] = i
		}
	}
	for j, i := range d.DLQ {
		t := d.Tasks[i]
		e := playground.LiveEntry{Task: i, Root: -1}
		if t.State == core.Blocked {
			root, ok := at[t.Root]
			if !ok {
				root = -2 // not DEAD in the DLQ: the page refuses the state, saying so
			}
			e.Root = root
		} else {
			e.Reason, e.Error, e.Attempts, e.Poisoned, e.Blocks = t.Reason, t.Error, t.Attempts, t.Poisoned, t.Blocks
		}
		out.DLQ[j] = e
	}
	if d.Alerting {
		out.Alert = &playground.LiveAlert{Entries: d.Config.Alert.Entries, WindowMs: d.Config.Alert.Window.Milliseconds()}
	}
	if r := d.Redrive; r != nil {
		out.Redrive = &playground.LiveRedrive{Done: r.Done, Total: r.Total, N: r.Rate.N, PerMs: r.Rate.Per.Milliseconds()}
	}
	return out
}

// state is GET /api/live/dags/{dag}/state: the DAG's state as data
// (durable.DB.State, as StateOf writes it), which the live view draws. It
// reads the whole DAG, so it takes a read slot.
func (s *server) state(w http.ResponseWriter, r *http.Request) {
	ctx, dag, done, ok := s.readDAG(w, r)
	if !ok {
		return
	}
	defer done()
	d, err := s.db.State(ctx, dag)
	if err != nil {
		dbError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, StateOf(d))
}
