package live_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/durable/durabletest"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/internal/pgtest"
	"github.com/dagq/dagq/internal/playground"
)

// stateSeed is the seed of TestAStateDrawsAsTheReplayOfItsScript: fixed,
// so that a run repeats; change it to explore other histories.
const stateSeed uint64 = 20261202

// samePage reports how the page opened from a state differs from the
// page opened by replaying the script, "" if it does not: the drawing
// (the tasks and edges, each task's layer, which are cells of a compact
// grid, the drawing's height, every task as drawn), the counts, the READY
// line, the dead-letter queue's rows, and the console (its groups with
// their fingerprints, tasks and blast radii, the poisoned tasks, the
// alert, whether a redrive at a rate is under way).
func samePage(replay, state *playground.Page) string {
	var diffs []string
	differ := func(what string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			diffs = append(diffs, fmt.Sprintf("%s: %+v replayed, %+v from the state", what, a, b))
		}
	}
	rn, _ := playground.GraphNodes(replay.Session().GraphAt(playground.StepEnd))
	sn, _ := playground.GraphNodes(state.Session().GraphAt(playground.StepEnd))
	differ("the graph", byName(rn), byName(sn))
	rlay, slay := playground.LayOut(rn), playground.LayOut(sn)
	differ("the layers", rlay.Layer, slay.Layer)
	differ("the tasks drawn as cells", rlay.Compact, slay.Compact)
	differ("the drawing's height", rlay.Height, slay.Height)
	rr, sr := replay.Reasons(), state.Reasons()
	differ("the reasons", rr, sr)
	for _, n := range rn {
		differ("the drawing of "+n.Name, replay.Task(n.Name, rr[n.Name]), state.Task(n.Name, sr[n.Name]))
	}
	rc, rall := replay.Counts()
	sc, sall := state.Counts()
	differ("the counts", rc, sc)
	differ("the tasks in all", rall, sall)
	rl, rt := replay.ReadyLine(true)
	sl, stt := state.ReadyLine(true)
	differ("the READY line", rl, sl)
	differ("the READY line's toggle", rt, stt)
	rd, _ := replay.DLQ(true)
	sd, _ := state.DLQ(true)
	differ("the dead-letter queue", rd, sd)
	rcon, scon := replay.Console(), state.Console()
	differ("the console's groups", rcon.Groups, scon.Groups)
	differ("the poisoned tasks", rcon.Poisoned, scon.Poisoned)
	differ("the forced redrives", rcon.Force, scon.Force)
	differ("the alert", rcon.Alert, scon.Alert)
	differ("a redrive at a rate under way", rcon.Paced != nil, scon.Paced != nil)
	return strings.Join(diffs, "\n")
}

// byName is a graph's nodes sorted by name.
func byName(nodes []render.Node) []render.Node {
	out := slices.Clone(nodes)
	slices.SortFunc(out, func(a, b render.Node) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// TestAStateDrawsAsTheReplayOfItsScript makes random histories in
// Postgres — submits in any order with dependencies that may never
// arrive, hand-outs, completions, failures (some permanent), the clock
// moving past leases and backoffs, redrives (single, forced, and at a
// rate left in flight), the growth alert — and opens each DAG both ways:
// from its state (GET /api/live/dags/{dag}/state, what the live view
// loads) and by replaying its exported script (what it loaded before).
// Wherever the script says its replay stands where the database does, the
// two pages must draw, count, list and group alike (samePage). Only the
// order of the tasks within a layer may differ (and with it a layer's
// width): the state's is the order they arrived in the database, which
// stays put as the DAG changes; the replay's the order its script submits
// them in (done first, then the dead-letter queue, then the rest), which
// moved tasks about the drawing as they changed state. The seed is
// printed.
func TestAStateDrawsAsTheReplayOfItsScript(t *testing.T) {
	t.Parallel()
	db, err := durable.Open(bg, pgtest.New(t), durable.Options{VirtualClock: true})
	must(t, err)
	t.Cleanup(db.Close)
	rng := rand.New(rand.NewPCG(stateSeed, 11))
	t.Logf("seed %d", stateSeed)
	compared, dead, blocked, paced, alerts := 0, 0, 0, 0, 0
	const runs = 30
	for run := range runs {
		cfg := core.Config{MaxAttempts: 1 + rng.IntN(3)}
		if rng.IntN(2) == 0 {
			cfg.LeaseTimeout = 10 * time.Second
		}
		if rng.IntN(2) == 0 {
			cfg.Backoff = core.Backoff{Base: time.Second, Factor: 2, Max: 8 * time.Second}
		}
		if rng.IntN(3) == 0 {
			cfg.PoisonAfter = 1
		}
		if rng.IntN(3) == 0 {
			cfg.Alert = core.Alert{Entries: 2, Window: time.Minute}
		}
		dag := fmt.Sprintf("random-%d", run)
		q, err := db.Queue(bg, dag, cfg)
		must(t, err)
		h := durabletest.NewHistory(q, rng, 8+rng.IntN(24))
		must(t, h.Run(bg, 40+rng.IntN(80)))
		if rng.IntN(2) == 0 {
			// The biggest group, at a rate that leaves it under way.
			groups, err := q.DeadLetterGroups(bg)
			must(t, err)
			var sel core.Selector
			most := 0
			for _, g := range groups {
				if g.Count > most {
					sel.Fingerprint, most = g.Fingerprint, g.Count
				}
			}
			_, _ = q.RedriveMatching(bg, sel, core.Rate{N: 1, Per: time.Hour})
			for range rng.IntN(8) {
				must(t, h.Op(bg, 3+rng.IntN(6)))
			}
		}

		script, err := db.ExportScript(bg, dag)
		must(t, err)
		st, err := db.State(bg, dag)
		must(t, err)
		data, err := json.Marshal(live.StateOf(st))
		must(t, err)
		fromState := playground.New()
		if err := fromState.OpenLiveState(dag, string(data)); err != nil {
			t.Fatalf("seed %d, run %d: the state does not open: %v\n%s", stateSeed, run, err, data)
		}
		if !strings.Contains(script, "# Replayed, it stands where the database does") {
			continue // the rows do not hold the history the script would need
		}
		replayed := playground.New()
		must(t, replayed.OpenLive(dag, script))
		if d := samePage(replayed, fromState); d != "" {
			t.Fatalf("seed %d, run %d: the state is not drawn as the replay:\n%s\nthe script:\n%s\nthe state:\n%s", stateSeed, run, d, script, data)
		}
		compared++
		dead += fromState.Session().Count(core.Dead)
		blocked += fromState.Session().Count(core.Blocked)
		if fromState.Console().Paced != nil {
			paced++
		}
		if fromState.Console().Alert != "" {
			alerts++
		}
	}
	t.Logf("seed %d: %d of %d DAGs compared; %d DEAD and %d BLOCKED tasks in them, %d with a redrive at a rate under way, %d alerting",
		stateSeed, compared, runs, dead, blocked, paced, alerts)
	if compared < runs/2 || dead == 0 || blocked == 0 || paced == 0 || alerts == 0 {
		t.Errorf("seed %d: %d of %d DAGs compared, with %d DEAD and %d BLOCKED tasks, %d redrives under way, %d alerts: the histories prove little",
			stateSeed, compared, runs, dead, blocked, paced, alerts)
	}
}
