package scenario

import (
	"context"
	"slices"
	"strconv"

	"github.com/dagq/dagq/core"
)

// StepEnd is the step that means the last step, however many there are.
const StepEnd = -1

// Node is a task of a run's graph: its name, what it waits on (as
// submitted, duplicates dropped) and the step that submitted it.
type Node struct {
	Task string
	Deps []string
	Step int
}

// Recording is what [Record] keeps of a run besides the steps it hands
// over: how many steps there were and every task submitted. Unlike the
// playground's session it keeps no step, so that a picture of a run of any length
// costs O(tasks + edges), not O(steps + events).
type Recording struct {
	strategy string
	attempts int
	n        int
	nodes    []Node
	stopped  *ExpectError
}

// Len returns how many steps the run had.
func (r *Recording) Len() int { return r.n }

// Strategy returns the cycle-check strategy the run used.
func (r *Recording) Strategy() string { return r.strategy }

// Attempts returns the max attempts of the run's queue.
func (r *Recording) Attempts() int { return r.attempts }

// GraphAt returns the tasks submitted by step k, in arrival order, as
// the playground's session does; [StepEnd] gives every task the run submitted.
func (r *Recording) GraphAt(k int) []Node {
	if k == StepEnd {
		k = r.n
	}
	n, _ := slices.BinarySearchFunc(r.nodes, k+1, func(nd Node, k int) int { return nd.Step - k })
	return r.nodes[:n:n]
}

// Stopped returns the [*ExpectError] of a failed expect that ended the
// run, or nil if every command ran.
func (r *Recording) Stopped() error {
	if r.stopped == nil {
		return nil
	}
	return r.stopped
}

// Moment is one step of a run as [Record] hands it over, with the board
// after it. It answers what the playground's caption asks of a session
// (Len, Step, BoardAt, Attempts, Strategy), for this step only.
type Moment struct {
	k, n     int
	st       Step
	board    *Board
	strategy string
	attempts int
}

// K returns the step: 0 before the first command, up to Len.
func (m *Moment) K() int { return m.k }

// Len returns how many steps the run has.
func (m *Moment) Len() int { return m.n }

// Step returns step k, which must be the moment's own (k = K ≥ 1): a
// moment knows no other.
func (m *Moment) Step(k int) Step {
	if k != m.k || k == 0 {
		panic("scenario: a Moment of step " + strconv.Itoa(m.k) + " was asked for step " + strconv.Itoa(k))
	}
	return m.st
}

// Board returns the board after the step. It is the run's own, valid
// only during the call that handed the moment over, and must not be
// changed; so are the events of Step.
func (m *Moment) Board() *Board { return m.board }

// BoardAt returns a copy of the board after step k, which must be the
// moment's own.
func (m *Moment) BoardAt(k int) *Board {
	if k != m.k {
		panic("scenario: a Moment of step " + strconv.Itoa(m.k) + " was asked for the board of step " + strconv.Itoa(k))
	}
	b := m.board.clone()
	return &b
}

// Cycle returns the cycle the step's submit was refused for, first and
// last the submitted task; nil if it was not refused by a cycle.
func (m *Moment) Cycle() []string {
	for _, e := range m.st.Events {
		if e.Kind == core.EventRejected && len(e.Path) > 0 {
			return e.Path
		}
	}
	return nil
}

// Strategy returns the cycle-check strategy the run uses.
func (m *Moment) Strategy() string { return m.strategy }

// Attempts returns the max attempts of the run's queue.
func (m *Moment) Attempts() int { return m.attempts }

// Record runs src as a [Stream] does, under lim and stopped by ctx, but
// writes no trace: it hands over the steps keep asks for, each as a
// [*Moment] given to at as the run passes it, and returns the run's
// [Recording]. keep is given n, the number of steps the run has, and
// returns the steps wanted, from 0 (before the first command) to n, in any
// order; others are ignored. A failed expect ends the run, as in [Run],
// and n counts its step; a script with an expect is therefore run twice,
// once to learn n.
//
// It fails with a [*SyntaxError] or an unknown strategy as [NewStream]
// does, before anything runs, and with a [*LimitError] when lim or ctx
// stopped the run (at is then called for none of the steps after it).
//
// Nothing of a step is kept once at has returned: the memory is
// O(script + tasks + edges + the events of one step) besides what at
// keeps, whatever the number of steps; the time is that of running the
// script (twice with an expect).
func Record(ctx context.Context, src string, opt Options, lim Limits, keep func(n int) []int, at func(*Moment)) (*Recording, error) {
	header, _, err := check(src)
	if err != nil {
		return nil, err
	}
	n, expects := 0, false
	for c := range commands(src) {
		n++
		expects = expects || c.Op == OpExpect
	}
	if expects {
		first, err := record(ctx, src, header, opt, lim, n, nil, nil)
		if err != nil {
			return nil, err
		}
		n = first.n
	}
	want := make(map[int]bool)
	for _, k := range keep(n) {
		want[k] = true
	}
	return record(ctx, src, header, opt, lim, n, want, at)
}

// record is one run of Record, n steps long, handing the steps of want to
// at.
func record(ctx context.Context, src string, header *Script, opt Options, lim Limits, n int, want map[int]bool, at func(*Moment)) (*Recording, error) {
	r, err := NewRunner(header, opt)
	if err != nil {
		return nil, err
	}
	r.stream(header)
	q := r.q
	rec := &Recording{strategy: q.Config().Strategy, attempts: q.Config().MaxAttempts}
	var b Board
	m := &Moment{n: n, board: &b, strategy: rec.strategy, attempts: rec.attempts}
	if want[0] {
		at(m)
	}
	steps, events := 0, 0
	for c := range commands(src) {
		if ctx.Err() != nil {
			return nil, stopped(ctx, c.Line)
		}
		switch {
		case lim.Steps > 0 && steps >= lim.Steps:
			return nil, &LimitError{Line: c.Line, Limit: "steps", Max: int64(lim.Steps)}
		case lim.Events > 0 && events >= lim.Events:
			return nil, &LimitError{Line: c.Line, Limit: "events", Max: int64(lim.Events)}
		case lim.Tasks > 0 && c.Op == OpSubmit && q.Len() >= lim.Tasks:
			return nil, &LimitError{Line: c.Line, Limit: "tasks", Max: int64(lim.Tasks)}
		}
		st := r.Exec(c)
		steps++
		events += len(st.Events)
		for i := range st.Events {
			e := &st.Events[i]
			b.apply(e)
			if e.Kind == core.EventSubmitted {
				rec.nodes = append(rec.nodes, Node{Task: e.Task, Deps: slices.Clone(e.Deps), Step: steps})
			}
		}
		if want[steps] {
			m.k, m.st = steps, st
			at(m)
			m.st = Step{}
		}
		if c.Op == OpExpect && !st.OK {
			rec.stopped = &ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: st.State}
			break
		}
	}
	rec.n = steps
	return rec, nil
}
