package durabletest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// History is a random history of one DAG of a durable queue on the virtual
// clock. Its operations return the errors of the database and ignore what
// the queue refuses (a cycle, an expired lease, a redrive of a task that
// may not be redriven): a random history asks for those too.
type History struct {
	Q   *durable.Queue
	Rng *rand.Rand
	// Redrives says whether Op redrives dead-letter entries (kind 9).
	Redrives bool

	order     []int // the order the tasks t0 … tn-1 arrive in
	submitted int
	held      []core.Lease
}

// NewHistory returns a history of n tasks, t0 … tn-1, on q, its choices
// drawn from rng, with redrives.
func NewHistory(q *durable.Queue, rng *rand.Rand, n int) *History {
	return &History{Q: q, Rng: rng, Redrives: true, order: rng.Perm(n)}
}

// failures are the errors a failed attempt reports, %d a small number, so
// that the dead-letter queue has groups that share a fingerprint.
var failures = []string{"HTTP 503 from api-%d.example.com", "timeout after %ds", "bad input in row %d"}

// Op runs one operation of kind k, from 0 to 9:
//
//   - 0–2: the next task arrives, waiting on up to three names of t0 …
//     tn+1 (two never arrive), while any is left to submit;
//   - 3–4: a hand-out, its lease held;
//   - 5–7: a held lease completes (a third of the time) or fails, one
//     failure in five permanently;
//   - 8: the clock moves on 0–11 s;
//   - 9: with Redrives, a random dead-letter entry is redriven, forced
//     when it is a poisoned task.
//
// A kind whose operation cannot run (nothing held, say) does nothing.
func (h *History) Op(ctx context.Context, k int) error {
	rng, q := h.Rng, h.Q
	n := len(h.order)
	switch {
	case k < 3 && h.submitted < n:
		name := fmt.Sprint("t", h.order[h.submitted])
		h.submitted++
		var deps []string
		for range rng.IntN(4) {
			deps = append(deps, fmt.Sprint("t", rng.IntN(n+2)))
		}
		_ = q.Submit(ctx, name, deps...) // a cycle or a self-dependency is refused
	case k < 5:
		l, ok, err := q.Next(ctx)
		if err != nil {
			return err
		}
		if ok {
			h.held = append(h.held, l)
		}
	case k < 8 && len(h.held) > 0:
		i := rng.IntN(len(h.held))
		l := h.held[i]
		h.held = slices.Delete(h.held, i, i+1)
		if rng.IntN(3) == 0 {
			_ = q.Complete(ctx, l) // an expired lease is refused
			return nil
		}
		err := fmt.Errorf(failures[rng.IntN(len(failures))], rng.IntN(5))
		if rng.IntN(5) == 0 {
			err = core.Permanent(err)
		}
		_, _ = q.Fail(ctx, l, err)
	case k == 8:
		return q.Advance(ctx, time.Duration(rng.IntN(12))*time.Second)
	case k == 9 && h.Redrives:
		dl, err := q.DeadLetters(ctx)
		if err != nil || len(dl) == 0 {
			return err
		}
		d := dl[rng.IntN(len(dl))]
		if d.State == core.Dead && d.Poisoned {
			_ = q.ForceRedrive(ctx, d.Task)
		} else {
			_ = q.Redrive(ctx, d.Task)
		}
	}
	return nil
}

// Run runs ops random operations, kinds drawn uniformly from 0 to 9, and
// stops at the first error of the database.
func (h *History) Run(ctx context.Context, ops int) error {
	for range ops {
		if err := h.Op(ctx, h.Rng.IntN(10)); err != nil {
			return err
		}
	}
	return nil
}
