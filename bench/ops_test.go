package bench

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
)

// BenchmarkOps times one queue operation alone, n times over, on the
// default strategy: op=submit submits a chain of n tasks (every one
// checked for a cycle); op=next hands out n independent READY tasks;
// op=complete completes n leases of independent tasks. What each op needs
// first (the chain's names, the READY tasks, the leases) is made with the
// timer stopped, so that a slowdown of one operation shows in its own
// line; and with the timer stopped the garbage of the pass before and of
// that preparation is collected, so that a collection the preparation set
// off does not run beside the operation and bill it (op=next measured
// +37-52% slower for a change that made the preparation allocate less,
// and the same with GOGC=off). The collector's share of a whole workload
// is BenchmarkLifecycle's to show. ns/op is per whole pass of n; divide by
// n for per task.
func BenchmarkOps(b *testing.B) {
	for _, n := range []int{5_000} {
		names := make([]string, n)
		for i := range names {
			names[i] = "t" + strconv.Itoa(i)
		}
		b.Run("op=submit/n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				q := newQueue(b)
				runtime.GC()
				b.StartTimer()
				if err := q.Submit(names[0]); err != nil {
					b.Fatal(err)
				}
				for i := 1; i < n; i++ {
					if err := q.Submit(names[i], names[i-1]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("op=next/n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				q := independent(b, names)
				runtime.GC()
				b.StartTimer()
				for range n {
					if _, ok := q.Next(); !ok {
						b.Fatal("nothing READY")
					}
				}
			}
		})
		b.Run("op=complete/n="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			leases := make([]core.Lease, n)
			for b.Loop() {
				b.StopTimer()
				q := independent(b, names)
				for i := range leases {
					leases[i], _ = q.Next()
				}
				runtime.GC()
				b.StartTimer()
				for _, l := range leases {
					if err := q.Complete(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func newQueue(b *testing.B) *core.Queue {
	q, err := core.New(core.Config{})
	if err != nil {
		b.Fatal(err)
	}
	return q
}

// independent returns a queue of the named tasks, none waiting on another:
// all READY.
func independent(b *testing.B, names []string) *core.Queue {
	q := newQueue(b)
	for _, name := range names {
		if err := q.Submit(name); err != nil {
			b.Fatal(err)
		}
	}
	return q
}
