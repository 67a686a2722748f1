package queuetest

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dagq/dagq/core"
)

// levelSeed derives the seed of a level's i-th random sequence.
func levelSeed(l Level, i int) uint64 {
	s := rand.New(rand.NewPCG(baseSeed^uint64(l), uint64(i))).Uint64()
	if s == 0 {
		s = 1
	}
	return s
}

// levelSettings picks a sequence's settings: 1 to 3 attempts; at L6 a
// third each with leases, with a backoff, and with both.
func levelSettings(l Level, r *rand.Rand) Settings {
	s := Settings{MaxAttempts: 1 + r.IntN(3)}
	if l < L6 {
		return s
	}
	mode := 1 + r.IntN(3)
	if mode&1 != 0 {
		s.LeaseTimeout = []time.Duration{5 * time.Second, 10 * time.Second}[r.IntN(2)]
	}
	if mode&2 != 0 {
		s.Backoff.Base = []time.Duration{time.Second, 2 * time.Second}[r.IntN(2)]
		s.Backoff.Factor = []float64{1, 2}[r.IntN(2)]
		s.Backoff.Max = []time.Duration{s.Backoff.Base, 4 * time.Second, 20 * time.Second}[r.IntN(3)]
	}
	return s
}

// levelGen makes random operations of a level, looking at dagq's queue to
// make the interesting ones likely: leases of running tasks, redrives of
// dead ones, submits that close loops, advances exactly to a timer.
type levelGen struct {
	level Level
	r     *rand.Rand
	p     *levelPair
	pool  []string
}

// levelErrors are the errors tasks fail with; a bulk redrive matches by
// one of levelMatches.
var (
	levelErrors  = []string{"HTTP 503", "HTTP 500", "timeout"}
	levelMatches = []string{"HTTP", "503", "timeout", "lease expired", "disk full"}
)

func (g *levelGen) any() string { return g.pool[g.r.IntN(len(g.pool))] }

func (g *levelGen) inState(s core.State) []string {
	var ts []string
	for _, n := range g.p.names {
		if st, _ := g.p.ref.Status(n); st == s {
			ts = append(ts, n)
		}
	}
	return ts
}

// target is a RUNNING task four times in five, else any name.
func (g *levelGen) target() string {
	if running := g.inState(core.Running); len(running) > 0 && g.r.IntN(5) != 0 {
		return running[g.r.IntN(len(running))]
	}
	return g.any()
}

func (g *levelGen) next() levelOp {
	r := g.r
	n := r.IntN(100)
	if g.level >= L6 && n < 25 {
		switch {
		case n < 12:
			return g.advance()
		case n < 17:
			t := g.target()
			return levelOp{kind: opHeartbeat, task: t, attempt: g.attempt(t)}
		case n < 21:
			return levelOp{kind: opRedriveMatching, msg: levelMatches[r.IntN(len(levelMatches))]}
		default:
			t := g.target()
			return levelOp{kind: opComplete, task: t, attempt: g.attempt(t)}
		}
	}
	if g.level >= L5 && n >= 90 {
		t := g.any()
		if dead := g.inState(core.Dead); len(dead) > 0 && r.IntN(5) != 0 {
			t = dead[r.IntN(len(dead))]
		}
		return levelOp{kind: opRedrive, task: t}
	}
	switch n = r.IntN(100); {
	case n < 35:
		return g.submit()
	case n < 65:
		return levelOp{kind: opNext}
	case n < 82:
		return levelOp{kind: opComplete, task: g.target()}
	default:
		o := levelOp{kind: opFail, task: g.target(), msg: levelErrors[r.IntN(len(levelErrors))]}
		if g.level >= L6 {
			o.permanent = r.IntN(6) == 0
			o.attempt = g.attempt(o.task)
		}
		return o
	}
}

// attempt is 0 (the current lease) mostly, else the attempt of a lease
// the task was handed out since its submit or last redrive: the current
// one by its attempt, a stale one, or an expired one.
func (g *levelGen) attempt(task string) int {
	if ls := g.p.refLease[task]; len(ls) > 0 && g.r.IntN(4) == 0 {
		return ls[g.r.IntN(len(ls))].Attempt
	}
	return 0
}

// submit makes a submit of a new name mostly, waiting on up to three
// names: often one that already waits on it, closing a loop; now and then
// itself, or a duplicate.
func (g *levelGen) submit() levelOp {
	r, p := g.r, g.p
	t := g.any()
	var fresh []string
	for _, n := range g.pool {
		if _, ok := p.ref.Status(n); !ok {
			fresh = append(fresh, n)
		}
	}
	if len(fresh) > 0 && r.IntN(5) != 0 {
		t = fresh[r.IntN(len(fresh))]
	}
	var waiters []string
	for _, n := range g.pool {
		if n != t && g.reaches(n, t) {
			waiters = append(waiters, n)
		}
	}
	var deps []string
	for range r.IntN(4) {
		switch k := r.IntN(100); {
		case k < 4:
			deps = append(deps, t)
		case k < 20 && len(waiters) > 0:
			deps = append(deps, waiters[r.IntN(len(waiters))])
		default:
			if d := g.any(); d != t || r.IntN(3) == 0 {
				deps = append(deps, d)
			}
		}
	}
	return levelOp{kind: opSubmit, task: t, deps: deps}
}

// reaches reports whether from waits on to, transitively, in dagq's queue.
func (g *levelGen) reaches(from, to string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(x string) bool {
		if x == to {
			return true
		}
		if seen[x] {
			return false
		}
		seen[x] = true
		return slices.ContainsFunc(g.p.deps[x], walk)
	}
	return walk(from)
}

// advance moves the clock to the next timer mostly, or just short of it,
// else by a step.
func (g *levelGen) advance() levelOp {
	r := g.r
	at, ok := g.p.ref.NextTimer()
	now := g.p.ref.Now()
	switch n := r.IntN(100); {
	case n < 45 && ok:
		return levelOp{kind: opAdvance, dur: at - now}
	case n < 55 && ok && at-now > time.Millisecond:
		return levelOp{kind: opAdvance, dur: at - now - time.Millisecond}
	}
	steps := []time.Duration{time.Second, 3 * time.Second, 5 * time.Second, 10 * time.Second}
	return levelOp{kind: opAdvance, dur: steps[r.IntN(len(steps))]}
}
