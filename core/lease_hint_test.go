package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestLeaseHintIsOnlyAShortcut: a lease's node hint never changes what the
// queue does. Two queues run the same random operations; one is handed each
// lease as Next, Heartbeat and Lease returned it (its hint current, stale,
// or from a third queue whose ids name other tasks), the other the same
// lease rebuilt from its exported fields. Every answer, error and event must
// agree.
func TestLeaseHintIsOnlyAShortcut(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0x1ea5e))
	var hinted, plain []string
	queue := func(log *[]string) *Queue {
		q, err := New(Config{MaxAttempts: 3, LeaseTimeout: 10 * time.Second,
			Backoff: Backoff{Base: time.Second, Factor: 2, Max: time.Minute},
			OnEvent: func(e Event) {
				if log != nil {
					*log = append(*log, fmt.Sprintf("%+v", e))
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	a, b, other := queue(&hinted), queue(&plain), queue(nil)

	const n = 40
	name := func(i int) string { return fmt.Sprintf("t%02d", i) }
	for i := range n {
		var deps []string
		for j := range i {
			if r.IntN(8) == 0 {
				deps = append(deps, name(j))
			}
		}
		if err := a.Submit(name(i), deps...); err != nil {
			t.Fatal(err)
		}
		b.Submit(name(i), deps...)
		// The other queue has the same names in the reverse order, so its
		// hints point at different tasks of a.
		other.Submit(name(n-1-i), deps...)
	}
	var pool []Lease // every lease seen, current or not
	for range 40 {
		if l, ok := other.Next(); ok {
			pool = append(pool, l)
		}
	}
	strip := func(l Lease) Lease {
		return Lease{Task: l.Task, ID: l.ID, Attempt: l.Attempt, Deadline: l.Deadline}
	}
	same := func(step int, what string, la, lb Lease, ea, eb error) {
		t.Helper()
		if !la.Equal(lb) || fmt.Sprint(ea) != fmt.Sprint(eb) || errors.Is(ea, ErrStaleLease) != errors.Is(eb, ErrStaleLease) {
			t.Fatalf("seed %d, step %d, %s: %+v, %v with the hint; %+v, %v without", seed, step, what, la, ea, lb, eb)
		}
	}
	seen := 0 // the events compared
	for step := range 3000 {
		switch k := r.IntN(10); {
		case k < 3:
			la, oka := a.Next()
			lb, okb := b.Next()
			if oka != okb {
				t.Fatalf("seed %d, step %d: Next ok %v with hints, %v without", seed, step, oka, okb)
			}
			same(step, "Next", la, lb, nil, nil)
			if oka {
				pool = append(pool, la)
			}
		case k < 8 && len(pool) > 0:
			l := pool[r.IntN(len(pool))]
			switch r.IntN(3) {
			case 0:
				same(step, "Complete("+l.Task+")", Lease{}, Lease{}, a.Complete(l), b.Complete(strip(l)))
			case 1:
				sa, ea := a.Fail(l, errors.New("boom"))
				sb, eb := b.Fail(strip(l), errors.New("boom"))
				if sa != sb {
					t.Fatalf("seed %d, step %d: Fail(%s) = %s with the hint, %s without", seed, step, l.Task, sa, sb)
				}
				same(step, "Fail("+l.Task+")", Lease{}, Lease{}, ea, eb)
			default:
				la, ea := a.Heartbeat(l)
				lb, eb := b.Heartbeat(strip(l))
				same(step, "Heartbeat("+l.Task+")", la, lb, ea, eb)
				if ea == nil {
					pool = append(pool, la)
				}
			}
		case k == 8:
			d := time.Duration(r.IntN(4000)) * time.Millisecond
			same(step, "Advance", Lease{}, Lease{}, a.Advance(d), b.Advance(d))
		default:
			task := name(r.IntN(n))
			same(step, "Redrive("+task+")", Lease{}, Lease{}, a.Redrive(task), b.Redrive(task))
			if l, ok := a.Lease(name(r.IntN(n))); ok {
				pool = append(pool, l)
			}
		}
		if !slices.Equal(hinted[seen:], plain[seen:]) {
			t.Fatalf("seed %d, step %d: events differ:\n%q\n%q", seed, step, hinted[seen:], plain[seen:])
		}
		seen = len(hinted)
	}
	if len(hinted) < 100 {
		t.Fatalf("seed %d: only %d events; the operations did little", seed, len(hinted))
	}
}

// TestLeaseEqual: leases are equal exactly when their exported fields are,
// whichever carries the hint.
func TestLeaseEqual(t *testing.T) {
	q, _ := New(Config{LeaseTimeout: time.Second})
	q.Submit("a")
	l, _ := q.Next()
	rebuilt := Lease{Task: l.Task, ID: l.ID, Attempt: l.Attempt, Deadline: l.Deadline}
	if l == rebuilt || !l.Equal(rebuilt) || !rebuilt.Equal(l) {
		t.Fatalf("Next's %+v and its fields rebuilt: == %v, Equal %v", l, l == rebuilt, l.Equal(rebuilt))
	}
	for _, m := range []Lease{
		{Task: "b", ID: l.ID, Attempt: l.Attempt, Deadline: l.Deadline},
		{Task: l.Task, ID: l.ID + 1, Attempt: l.Attempt, Deadline: l.Deadline},
		{Task: l.Task, ID: l.ID, Attempt: l.Attempt + 1, Deadline: l.Deadline},
		{Task: l.Task, ID: l.ID, Attempt: l.Attempt, Deadline: l.Deadline + 1},
	} {
		if l.Equal(m) || m.Equal(l) {
			t.Errorf("%+v equals %+v", l, m)
		}
	}
}
