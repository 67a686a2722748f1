package bench

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
)

// BenchmarkDeadLetters measures operating a big dead-letter queue (see
// deadLetterQueue): roots DEAD tasks holding blocked BLOCKED tasks, the
// regions of neighbouring roots overlapping, and a chain that waits on
// every root. Nine roots in ten died of one HTTP 503 (from varying hosts),
// the rest of a refused connection.
//
//   - op=groups: DeadLetterGroups, the fingerprints already computed;
//   - op=blast: the blast radius of every root, read from DeadLetter;
//   - op=redrive: RedriveMatching of the 503 group, at once, on a fresh
//     queue each time (built with the timer stopped); visits/op are the
//     edges the redrive examined, which stay about (roots + blocked +
//     edges), not roots separate walks;
//   - op=redrive-each: the same roots redriven one Redrive at a time, for
//     comparison: each reroots the chain to the next root, so the chain
//     is walked once per root (roots × chainLen visits).
//
// Run it briefly: go test ./bench -run XXX -bench DeadLetters -benchtime 3x
func BenchmarkDeadLetters(b *testing.B) {
	for _, size := range []struct{ roots, blocked int }{{10_000, 100_000}} {
		sizes := "roots=" + strconv.Itoa(size.roots) + "/blocked=" + strconv.Itoa(size.blocked)
		b.Run("op=groups/"+sizes, func(b *testing.B) {
			q, _ := deadLetterQueue(b, size.roots, size.blocked)
			b.ReportAllocs()
			for b.Loop() {
				if g := q.DeadLetterGroups(); len(g) != 2 {
					b.Fatalf("%d groups, want 2", len(g))
				}
			}
		})
		b.Run("op=blast/"+sizes, func(b *testing.B) {
			q, roots := deadLetterQueue(b, size.roots, size.blocked)
			b.ReportAllocs()
			for b.Loop() {
				sum := 0
				for _, r := range roots {
					info, _ := q.Info(r)
					dl := info.DeadLetter
					sum += dl.BlastRadius
				}
				if sum != size.blocked {
					b.Fatalf("blast radii add up to %d, want %d", sum, size.blocked)
				}
			}
			b.ReportMetric(float64(len(roots)), "roots/op")
		})
		for _, each := range []bool{false, true} {
			name := "op=redrive/"
			if each {
				name = "op=redrive-each/"
			}
			b.Run(name+sizes, func(b *testing.B) {
				var visits, redriven uint64
				for b.Loop() {
					b.StopTimer()
					q, roots := deadLetterQueue(b, size.roots, size.blocked)
					n := 0
					before := q.Stats().RedriveVisits
					b.StartTimer()
					if each {
						for _, r := range roots {
							if info, _ := q.Info(r); info.DeadLetter != nil && info.DeadLetter.State == core.Dead &&
								info.DeadLetter.Fingerprint == "HTTP 503 from <addr>" {
								if err := q.Redrive(r); err != nil {
									b.Fatal(err)
								}
								n++
							}
						}
					} else {
						j, err := q.RedriveMatching(core.Selector{Contains: "HTTP 503"}, core.Rate{})
						if err != nil {
							b.Fatal(err)
						}
						n = j.Done
					}
					visits += q.Stats().RedriveVisits - before
					redriven += uint64(n)
				}
				b.ReportMetric(float64(visits)/float64(b.N), "visits/op")
				b.ReportMetric(float64(redriven)/float64(b.N), "roots/op")
			})
		}
	}
}

// chainLen is the length of the chain of BLOCKED tasks every root holds
// up: its first task waits on every root.
const chainLen = 1_000

// deadLetterQueue builds the queue BenchmarkDeadLetters measures and
// returns it with its roots, their fingerprints computed: roots DEAD tasks;
// blocked − chainLen tasks spread over them, each waiting on its root and
// the next; and a chain of chainLen tasks whose first waits on every root.
// The first root to die holds the chain.
func deadLetterQueue(b *testing.B, roots, blocked int) (*core.Queue, []string) {
	b.Helper()
	q, err := core.New(core.Config{MaxAttempts: 1})
	if err != nil {
		b.Fatal(err)
	}
	names := make([]string, roots)
	tasks := make([]core.Task, 0, roots+blocked)
	for i := range roots {
		names[i] = fmt.Sprintf("root-%05d", i)
		tasks = append(tasks, core.Task{Name: names[i]})
	}
	for j := range blocked - chainLen {
		i := j % roots
		tasks = append(tasks, core.Task{Name: fmt.Sprintf("task-%06d", j), Deps: []string{names[i], names[(i+1)%roots]}})
	}
	// The chain waits on the 503 roots first: each redrive of one reroots
	// it to the next.
	var chainDeps, refused []string
	for i, n := range names {
		if i%10 == 9 {
			refused = append(refused, n)
		} else {
			chainDeps = append(chainDeps, n)
		}
	}
	tasks = append(tasks, core.Task{Name: "chain-0000", Deps: append(chainDeps, refused...)})
	for c := 1; c < chainLen; c++ {
		tasks = append(tasks, core.Task{Name: fmt.Sprintf("chain-%04d", c), Deps: []string{fmt.Sprintf("chain-%04d", c-1)}})
	}
	if err := q.SubmitBatch(tasks); err != nil {
		b.Fatal(err)
	}
	for i := range roots {
		l, ok := q.Next()
		if !ok {
			b.Fatal("no root READY")
		}
		msg := fmt.Sprintf("HTTP 503 from 10.0.%d.%d:8443", i/250%250, i%250)
		if i%10 == 9 {
			msg = "dial tcp 10.0.3.7:5432: connect: connection refused"
		}
		if _, err := q.Fail(l, errors.New(msg)); err != nil {
			b.Fatal(err)
		}
	}
	q.DeadLetterGroups() // the fingerprints, computed once per death
	return q, names
}
