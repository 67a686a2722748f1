package durable_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/jackc/pgx/v5"
)

// counter is a pgx tracer that counts the round trips to the server: each
// statement sent alone, BEGIN and COMMIT included, and each batch (a
// pipeline of statements) as one.
type counter struct{ n atomic.Int64 }

func (c *counter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *counter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *counter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *counter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (c *counter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// shape is a graph, as the submits that build it.
type shape struct {
	name  string
	build func(n int) [][]string // each: task, deps...
}

var shapes = []shape{
	{"chain", func(n int) [][]string { // t0; t1 waits on t0; …
		out := [][]string{{"t0"}}
		for i := 1; i < n; i++ {
			out = append(out, []string{fmt.Sprint("t", i), fmt.Sprint("t", i-1)})
		}
		return out
	}},
	{"chain-reverse", func(n int) [][]string { // t(n-1) waits on t(n-2), submitted first; …
		var out [][]string
		for i := n - 1; i > 0; i-- {
			out = append(out, []string{fmt.Sprint("t", i), fmt.Sprint("t", i-1)})
		}
		return append(out, []string{"t0"})
	}},
	{"wide", func(n int) [][]string { // a root, and n-1 tasks that wait on it
		out := [][]string{{"root"}}
		for i := 1; i < n; i++ {
			out = append(out, []string{fmt.Sprint("leaf", i), "root"})
		}
		return out
	}},
	{"random", func(n int) [][]string { // three deps each, among the tasks so far, in shuffled order
		rng := rand.New(rand.NewPCG(1, 2))
		var out [][]string
		for i := range n {
			s := []string{fmt.Sprint("t", i)}
			for range min(i, 3) {
				s = append(s, fmt.Sprint("t", rng.IntN(i)))
			}
			out = append(out, s)
		}
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}},
}

// TestStatementsPerSubmitDoNotGrowWithTheGraph counts the statements of the
// last submits of chains, reversed chains and wide graphs of two sizes: a
// submit on them must take as many statements at 800 tasks as at 50 (the
// order's labels agree with every edge: no search). A random graph is
// logged, not held to it.
func TestStatementsPerSubmitDoNotGrowWithTheGraph(t *testing.T) {
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	perSubmit := func(s shape, n int) float64 {
		q := openQueue(t, db, core.Config{MaxAttempts: 1})
		ops := s.build(n)
		last := 20
		for i, op := range ops {
			if i == len(ops)-last {
				c.n.Store(0)
			}
			if err := q.Submit(bg, op[0], op[1:]...); err != nil {
				t.Fatalf("%s: submit %v: %v", s.name, op, err)
			}
		}
		return float64(c.n.Load()) / float64(last)
	}
	var report []string
	for _, s := range shapes {
		small, large := perSubmit(s, 50), perSubmit(s, 800)
		report = append(report, fmt.Sprintf("%s: %.2f statements/submit at n=50, %.2f at n=800", s.name, small, large))
		if s.name != "random" && large > small {
			t.Errorf("%s: %.2f statements per submit at n=800, %.2f at n=50: it grows with the graph", s.name, large, small)
		}
		if s.name != "random" && large > 10 {
			t.Errorf("%s: %.2f statements per submit, want at most 10", s.name, large)
		}
	}
	t.Log("\n" + strings.Join(report, "\n"))
}

// TestStatementsPerComplete counts the statements of a Complete, the round
// trips to the server: of a task nobody waits on, and of one whose
// completion makes a dependent READY. Both are one call of dagq_complete.
func TestStatementsPerComplete(t *testing.T) {
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	for _, s := range [][]string{{"a"}, {"b"}, {"c", "b"}} {
		if err := q.Submit(bg, s[0], s[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int64 {
		l, ok := next(t, q)
		if !ok {
			t.Fatal("nothing READY")
		}
		c.n.Store(0)
		if err := q.Complete(bg, l); err != nil {
			t.Fatal(err)
		}
		return c.n.Load()
	}
	alone, freeing := count(), count()
	t.Logf("statements per complete: %d alone, %d making a dependent READY", alone, freeing)
	if alone != 1 || freeing != 1 {
		t.Errorf("complete took %d and %d statements, want 1 (a call of dagq_complete)", alone, freeing)
	}
}

// TestRoundTripsPerSubmit counts the round trips of a Submit, which an idle
// worker's hand-out waits for: BEGIN, the DAG's lock with its row and the
// rows of the task and its dependencies (one pipeline), then the writes
// and COMMIT (another): two with dependencies. A task without any has
// nothing to check first, and its write goes in the first pipeline with
// the COMMIT: one, whether it is new, fills in a name awaited, or is a
// duplicate refused. Each statement alone, as they were sent, took seven,
// and with BEGIN and COMMIT a round trip each, four.
func TestRoundTripsPerSubmit(t *testing.T) {
	c := &counter{}
	db := openDB(t, durable.Options{Tracer: c})
	q := openQueue(t, db, core.Config{MaxAttempts: 1})
	for _, s := range []struct {
		task  []string
		trips int64
		err   error
	}{
		{[]string{"a"}, 1, nil},
		{[]string{"b"}, 1, nil},
		{[]string{"c", "a", "b"}, 2, nil},
		{[]string{"d", "c", "never-submitted", "later"}, 2, nil},
		{[]string{"later"}, 1, nil},
		{[]string{"a"}, 1, core.ErrDuplicate},
	} {
		before := c.n.Load()
		if err := q.Submit(bg, s.task[0], s.task[1:]...); !errors.Is(err, s.err) {
			t.Fatalf("submit %v: %v, want %v", s.task, err, s.err)
		}
		if n := c.n.Load() - before; n != s.trips {
			t.Errorf("submit %v: %d round trips, want %d", s.task, n, s.trips)
		}
	}
}
