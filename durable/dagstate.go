package durable

import (
	"cmp"
	"context"
	"slices"

	"github.com/dagq/dagq/core"
)

// DAGState is a DAG's state as data, read in one snapshot: its settings,
// every task with its state and what it waits on, the READY line and the
// dead-letter queue in their orders, the growth alert and the bulk
// redrive under way. It is what the live console (wq serve --db) draws:
// ExportScript writes the same state as a script that rebuilds it, which
// costs a replay to read back.
type DAGState struct {
	DAG    string
	Config core.Config
	// Alerting: the DLQ growth alert (Config.Alert) is raised.
	Alerting bool
	// Tasks are the DAG's tasks in the order they arrived.
	Tasks []TaskState
	// Awaited are the names tasks wait on that were never submitted, by
	// name.
	Awaited []string
	// Ready is the READY line, front first; DLQ the DEAD and BLOCKED
	// tasks in the order they entered the dead-letter queue. Both are
	// indices into Tasks.
	Ready, DLQ []int
	// Redrive is the bulk redrive at a rate under way; nil if none is.
	Redrive *RedriveState
}

// TaskState is a task of a DAGState.
type TaskState struct {
	Name  string
	State core.State
	Deps  []string // as submitted, duplicates dropped
	// Attempts is the attempts of its current life (since its last
	// redrive); Redrives how many times it was redriven.
	Attempts, Redrives int
	// DEAD: Reason ("failed after 3 attempts: ERR") and Error, the error
	// of its last attempt; Poisoned when it is past the poison-pill cap;
	// Blocks the BLOCKED tasks whose root it is (its blast radius).
	Reason, Error string
	Poisoned      bool
	Blocks        int
	// Root is, for a BLOCKED task, the DEAD task upstream that blocks it.
	Root string
}

// RedriveState is a bulk redrive at a rate under way (Queue.RedriveMatching
// with a rate): what it selected, its rate, how many of its tasks it has
// handled (redriven, or gone from the dead-letter queue meanwhile) of
// how many it selected, and the poisoned ones it skips.
type RedriveState struct {
	Selector    core.Selector
	Rate        core.Rate
	Done, Total int
	Skipped     int
}

// State reads the DAG's state in one snapshot (a read-only,
// repeatable-read transaction, three statements besides its BEGIN and
// COMMIT: the DAG, its tasks, its redrive under way). The cost is
// O(tasks + edges) reads, and O(tasks · log tasks) to order the READY
// line and the dead-letter queue; the attempts recorded are not read. A
// DAG that does not exist is an error.
func (db *DB) State(ctx context.Context, dag string) (DAGState, error) {
	snap, err := db.snapshot(ctx, dag, false)
	if err != nil {
		return DAGState{}, err
	}
	return snap.state(), nil
}

// state is the snapshot as a DAGState.
func (s *exportSnapshot) state() DAGState {
	out := DAGState{DAG: s.dag, Config: s.cfg, Alerting: s.alertOn && s.cfg.Alert.Entries > 0,
		Tasks: make([]TaskState, len(s.tasks)), Awaited: slices.Clone(s.awaited)}
	slices.Sort(out.Awaited)
	type seq struct {
		at int64
		i  int
	}
	var ready, dlq []seq
	for i, t := range s.tasks {
		ts := TaskState{Name: t.name, State: t.state, Deps: t.deps, Attempts: t.attempts, Redrives: t.redrives}
		switch t.state {
		case core.Dead:
			ts.Reason, ts.Error, ts.Poisoned, ts.Blocks = t.reason, t.err, t.poisoned, t.blocks
		case core.Blocked:
			ts.Root = t.root
		case core.Ready:
			if t.readySeq != nil {
				ready = append(ready, seq{*t.readySeq, i})
			}
		}
		if (t.state == core.Dead || t.state == core.Blocked) && t.dlqSeq != nil {
			dlq = append(dlq, seq{*t.dlqSeq, i})
		}
		out.Tasks[i] = ts
	}
	byAt := func(a, b seq) int { return cmp.Compare(a.at, b.at) }
	slices.SortFunc(ready, byAt)
	slices.SortFunc(dlq, byAt)
	out.Ready, out.DLQ = make([]int, len(ready)), make([]int, len(dlq))
	for i, r := range ready {
		out.Ready[i] = r.i
	}
	for i, d := range dlq {
		out.DLQ[i] = d.i
	}
	if j := s.job; j.underWay {
		out.Redrive = &RedriveState{Selector: j.sel, Rate: j.rate, Done: j.pos, Total: len(j.tasks), Skipped: len(j.skipped)}
	}
	return out
}
