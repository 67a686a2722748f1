package scenario

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

// boardAgrees reports how b differs from q, "" if it does not: the tasks in
// arrival order, every task's state, the READY line and the dead-letter
// queue.
func boardAgrees(b *Board, q *core.Queue) string {
	var diffs []string
	if got, want := b.Tasks(), q.Tasks(); !slices.Equal(got, want) {
		diffs = append(diffs, fmt.Sprintf("tasks %q, queue has %q", got, want))
	}
	states := b.States()
	if len(states) != len(q.Tasks()) {
		diffs = append(diffs, fmt.Sprintf("%d states, queue has %d tasks", len(states), len(q.Tasks())))
	}
	for _, task := range q.Tasks() {
		want, _ := q.Status(task)
		if got := states[task]; got != want {
			diffs = append(diffs, fmt.Sprintf("%s is %s, queue says %s", task, got, want))
		}
		if got := b.State(task); got != want {
			diffs = append(diffs, fmt.Sprintf("State(%s) = %s, queue says %s", task, got, want))
		}
	}
	if got, want := b.Ready(), q.ReadyTasks(); !slices.Equal(got, want) {
		diffs = append(diffs, fmt.Sprintf("READY line %q, queue has %q", got, want))
	}
	if got, want := b.DeadLetters(), q.DeadLetters(); !slices.Equal(got, want) {
		diffs = append(diffs, fmt.Sprintf("dead letters %+v, queue has %+v", got, want))
	}
	if got, want := b.DeadLetterGroups(), q.DeadLetterGroups(); !reflect.DeepEqual(got, want) {
		diffs = append(diffs, fmt.Sprintf("groups %+v, queue has %+v", got, want))
	}
	if got, want := b.Alerting(), q.Stats().Alerting; got != want {
		diffs = append(diffs, fmt.Sprintf("alerting %v, queue says %v", got, want))
	}
	for _, task := range q.Tasks() {
		got, gok := b.Timer(task)
		info, _ := q.Info(task)
		want, wok := info.Timer, info.Timer != 0
		if got != want || gok != wok {
			diffs = append(diffs, fmt.Sprintf("%s's timer is %v (%v), queue says %v (%v)", task, got, gok, want, wok))
		}
	}
	return strings.Join(diffs, "; ")
}

// stepAndCompare runs every command of s, folding each step's events into a
// Board and comparing it with the queue after every step. It returns the
// steps, and an error at the first disagreement.
func stepAndCompare(s *Script, opt Options) ([]Step, error) {
	r, err := NewRunner(s, opt)
	if err != nil {
		return nil, err
	}
	var b Board
	var steps []Step
	for _, c := range s.Commands {
		st := r.Exec(c)
		steps = append(steps, st)
		for _, e := range st.Events {
			b.Apply(e)
		}
		if d := boardAgrees(&b, r.Queue()); d != "" {
			return steps, fmt.Errorf("after line %d %q the board disagrees with the queue: %s", c.Line, c.Text, d)
		}
	}
	return steps, nil
}

func TestBoardAgreesWithQueueOnLibrary(t *testing.T) {
	t.Parallel()
	for _, e := range Library() {
		for _, strategy := range incremental.Names() {
			t.Run(e.Name+"/strategy="+strategy, func(t *testing.T) {
				t.Parallel()
				s, err := Parse(e.Text)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := stepAndCompare(s, Options{Strategy: strategy}); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// randomScript writes a script of random commands over a few names, so
// that tasks arrive after the tasks that wait on them, cycles are tried,
// tasks die, block and are redriven, and many operations are refused; half
// of the scripts run with leases that expire, a backoff or both, and move
// the clock, send heartbeats and act with earlier attempts' leases.
func randomScript(rng *rand.Rand) string {
	names := []string{"a", "b", "c", "d", "e", "f", "g"}[:3+rng.IntN(5)]
	pick := func() string { return names[rng.IntN(len(names))] }
	var b strings.Builder
	attempts := 1 + rng.IntN(3)
	timed := rng.IntN(2) == 0
	dlqOps := rng.IntN(2) == 0
	if dlqOps {
		attempts = 1 // deaths are common
	}
	fmt.Fprintf(&b, "attempts %d\n", attempts)
	if dlqOps {
		timed = true
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "poison %d\n", 1+rng.IntN(2))
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "alert %d %dms\n", 1+rng.IntN(3), 500+rng.IntN(3000))
		}
	}
	if timed {
		if rng.IntN(3) > 0 {
			fmt.Fprintf(&b, "lease %ds\n", 1+rng.IntN(5))
		}
		if rng.IntN(3) > 0 {
			fmt.Fprintf(&b, "backoff %dms 2 %ds\n", 100+rng.IntN(900), 2+rng.IntN(3))
			fmt.Fprintf(&b, "jitter %s %d\n", []string{"none", "full", "equal"}[rng.IntN(3)], rng.IntN(100))
		}
	}
	for range 5 + rng.IntN(60) {
		if dlqOps && rng.IntN(8) == 0 {
			switch k := rng.IntN(7); k {
			case 0:
				fmt.Fprintf(&b, "redrive matching boom\n")
			case 1:
				fmt.Fprintf(&b, "redrive matching o at 1/%dms\n", 500+rng.IntN(3000))
			case 2:
				fmt.Fprintf(&b, "redrive group %d at 1/1s\n", 1+rng.IntN(2))
			case 3:
				fmt.Fprintf(&b, "redrive! %s\n", pick())
			case 4:
				b.WriteString("redrive matching o at 1/1s\nredrive cancel\n")
			case 5:
				b.WriteString("preview redrive group 1\n")
			default:
				b.WriteString("dlq\n")
			}
			continue
		}
		if timed && rng.IntN(4) == 0 {
			switch k := rng.IntN(5); k {
			case 0, 1:
				fmt.Fprintf(&b, "advance %dms\n", rng.IntN(3000))
			case 2:
				fmt.Fprintf(&b, "heartbeat %s\n", pick())
			case 3:
				fmt.Fprintf(&b, "complete %s@%d\n", pick(), 1+rng.IntN(2))
			default:
				fmt.Fprintf(&b, "fail! %s@%d poison\n", pick(), 1+rng.IntN(2))
			}
			continue
		}
		switch k := rng.IntN(100); {
		case k < 30:
			b.WriteString("submit " + pick())
			for range rng.IntN(4) {
				b.WriteString(" " + pick())
			}
		case k < 55:
			b.WriteString("next")
		case k < 70:
			b.WriteString("complete " + pick())
		case k < 85:
			b.WriteString("fail " + pick())
			if rng.IntN(2) == 0 {
				b.WriteString(" boom")
			}
		case k < 95:
			b.WriteString("redrive " + pick())
		default:
			// expect is left out: a failed one would only stop the run.
			b.WriteString("# a comment")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestBoardAgreesWithQueueOnRandomScripts(t *testing.T) {
	t.Parallel()
	const seed, scripts = 20240611, 2000
	rng := rand.New(rand.NewPCG(seed, seed))
	kinds := make(map[core.EventKind]int)
	refused, arrivedBlocked, cycles := 0, 0, 0
	for i := range scripts {
		src := randomScript(rng)
		strategy := incremental.Names()[i%len(incremental.Names())]
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("seed %d, script %d: %v\n%s", seed, i, err, src)
		}
		steps, err := stepAndCompare(s, Options{Strategy: strategy})
		if err != nil {
			t.Fatalf("seed %d, script %d, strategy %s: %v\n%s", seed, i, strategy, err, src)
		}
		for _, st := range steps {
			for _, e := range st.Events {
				kinds[e.Kind]++
				if e.Kind == core.EventSubmitted && e.To == core.Blocked {
					arrivedBlocked++
				}
				if e.Kind == core.EventRejected && len(e.Path) > 2 {
					cycles++
				}
			}
			if !st.OK {
				refused++
			}
		}
	}
	// The scripts must reach every kind of event, or the test proves little.
	for k := core.EventSubmitted; k <= core.EventRedriveCancelled; k++ {
		if kinds[k] == 0 {
			t.Errorf("seed %d: no %s event in %d random scripts", seed, k, scripts)
		}
	}
	if cycles == 0 {
		t.Errorf("seed %d: no cycle through other tasks refused in %d random scripts", seed, scripts)
	}
	if arrivedBlocked == 0 {
		t.Errorf("seed %d: no task arrived BLOCKED in %d random scripts", seed, scripts)
	}
	if refused == 0 {
		t.Errorf("seed %d: no refused operation in %d random scripts", seed, scripts)
	}
}

func TestBoard(t *testing.T) {
	t.Parallel()
	t.Run("ZeroBoardIsEmpty", func(t *testing.T) {
		var b Board
		if len(b.Tasks()) != 0 || len(b.States()) != 0 || len(b.Ready()) != 0 || len(b.DeadLetters()) != 0 || b.State("a") != "" {
			t.Errorf("zero Board is not empty: %+v", b)
		}
	})
	t.Run("RejectedChangesNothing", func(t *testing.T) {
		var b Board
		b.Apply(core.Event{Kind: core.EventRejected, Task: "a", Reason: "cycle: a -> a"})
		if len(b.Tasks()) != 0 || len(b.States()) != 0 {
			t.Errorf("a rejected submit changed the board: %+v", b)
		}
	})
	t.Run("ReroutedKeepsItsPlace", func(t *testing.T) {
		var b Board
		for _, e := range []core.Event{
			{Kind: core.EventSubmitted, Task: "x", To: core.Blocked, Root: "r", Reason: "blocked by r"},
			{Kind: core.EventSubmitted, Task: "y", To: core.Blocked, Root: "r", Reason: "blocked by r"},
			{Kind: core.EventRerooted, Task: "x", From: core.Blocked, To: core.Blocked, Root: "s", Reason: "blocked by s"},
		} {
			b.Apply(e)
		}
		want := []core.DeadLetter{{Task: "x", Reason: "blocked by s", State: core.Blocked, Root: "s"},
			{Task: "y", Reason: "blocked by r", State: core.Blocked, Root: "r"}}
		if got := b.DeadLetters(); !reflect.DeepEqual(got, want) {
			t.Errorf("DeadLetters() = %v, want %v", got, want)
		}
	})
	t.Run("ResultsAreCopies", func(t *testing.T) {
		var b Board
		b.Apply(core.Event{Kind: core.EventSubmitted, Task: "a", To: core.Ready})
		b.Tasks()[0] = "z"
		b.Ready()[0] = "z"
		b.States()["a"] = core.Dead
		if b.Tasks()[0] != "a" || b.Ready()[0] != "a" || b.State("a") != core.Ready {
			t.Errorf("changing a result changed the board")
		}
	})
}

// TestBoardAgreesThroughLongDeadLetterQueues: waves of hundreds of tasks
// entering and leaving the dead-letter queue, renamed between two roots,
// in an order that leaves stale entries at every place, so that the
// board's entries are dropped and renumbered many times; the board agrees
// with the queue after every step, its clones too.
func TestBoardAgreesThroughLongDeadLetterQueues(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("attempts 1\nsubmit r1\nsubmit r2\n")
	for i := range 300 {
		// Every third task waits on both roots: redriving one renames it.
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "submit w%d r1 r2\n", i)
		case 1:
			fmt.Fprintf(&b, "submit w%d r1\n", i)
		default:
			fmt.Fprintf(&b, "submit w%d r2\n", i)
		}
	}
	for range 3 {
		b.WriteString("next\nfail r1 down\nnext\nfail r2 down\nredrive r1\nnext\nfail r1 again\nredrive r2\nredrive r1\n")
	}
	s := mustParse(t, b.String())
	if _, err := stepAndCompare(s, Options{}); err != nil {
		t.Fatal(err)
	}
	r, _ := NewRunner(s, Options{})
	var board Board
	for i, c := range s.Commands {
		for _, e := range r.Exec(c).Events {
			board.Apply(e)
		}
		c := board.clone()
		if d := boardAgrees(&c, r.Queue()); d != "" {
			t.Fatalf("after line %d, a clone of the board: %s", i+1, d)
		}
	}
}
