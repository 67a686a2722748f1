package playground_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	pg "github.com/dagq/dagq/internal/playground"
)

// incidentState is the incident (see incident) as a live DAG's server
// sends its state: fetch-a and fetch-b DEAD of HTTP 503, each blocking
// its parse; disk DEAD again after a redrive, poisoned.
const incidentState = `{"dag":"nightly","tasks":[["fetch-a","DEAD"],["fetch-b","DEAD"],["parse-a","BLOCKED","fetch-a"],["parse-b","BLOCKED","fetch-b"],["disk","DEAD"]],
"ready":[],"dlq":[
{"task":0,"root":-1,"reason":"failed after 1 attempt: HTTP 503","error":"HTTP 503","attempts":1,"blocks":1},{"task":2,"root":0},
{"task":1,"root":-1,"reason":"failed after 1 attempt: HTTP 503","error":"HTTP 503","attempts":1,"blocks":1},{"task":3,"root":1},
{"task":4,"root":-1,"reason":"failed after 1 attempt: full","error":"full","attempts":1,"poisoned":true}]}`

func TestALiveStateOpensAsTheReplayOfItsScript(t *testing.T) {
	replayed, state := pg.New(), pg.New()
	if err := replayed.OpenLive("nightly", incident); err != nil {
		t.Fatal(err)
	}
	if err := state.OpenLiveState("nightly", incidentState); err != nil {
		t.Fatal(err)
	}
	if state.Live() != "nightly" || state.Title() != "Live: nightly" || state.Address() != "?live=nightly" {
		t.Errorf("live %q, title %q, address %q", state.Live(), state.Title(), state.Address())
	}
	rc, sc := replayed.Console(), state.Console()
	if len(sc.Groups) != 2 || len(sc.Poisoned) != 1 || sc.Poisoned[0] != "disk" {
		t.Fatalf("console %+v: want two groups and disk poisoned", sc)
	}
	for i := range rc.Groups {
		r, s := rc.Groups[i], sc.Groups[i]
		if r.Fingerprint != s.Fingerprint || r.Count != s.Count || r.BlastRadius != s.BlastRadius || strings.Join(r.Blocked, " ") != strings.Join(s.Blocked, " ") {
			t.Errorf("group %d: %+v from the state, %+v replayed", i+1, s, r)
		}
	}
	rcount, rall := replayed.Counts()
	scount, sall := state.Counts()
	if rall != sall || len(rcount) != len(scount) || rcount[0] != scount[0] {
		t.Errorf("counts %v of %d from the state, %v of %d replayed", scount, sall, rcount, rall)
	}
	if a := state.ClickTask("parse-a"); a.Do != pg.DoNotice || !strings.Contains(a.Notice, "parse-a is BLOCKED") {
		t.Errorf("a click on a task: %+v, want a notice naming its state", a)
	}
	r, err := state.LiveRequest(sc.Groups[0].RedriveAtRate)
	if err != nil || r.Route != "redrive" || r.Body["fingerprint"] != sc.Groups[0].Fingerprint {
		t.Errorf("the first group's redrive at a rate: %+v %v", r, err)
	}
	if _, err := state.Act("next"); err == nil {
		t.Error("Act in a live view drawn from a state was taken")
	}
	if state.Dirty("anything") {
		t.Error("a live view's read-only editor is dirty")
	}

	t.Run("ShareAsksForTheScriptOfTheStateShown", func(t *testing.T) {
		p := pg.New()
		must(t, p.OpenLiveState("nightly", incidentState))
		if !p.ShareNeedsScript() {
			t.Fatal("a state just opened has a script for Share")
		}
		p.SetLiveScript(incident)
		if p.ShareNeedsScript() {
			t.Error("Share still needs the script once given")
		}
		_, fragment, _ := strings.Cut(p.Share("http://localhost:8080/").Link, "#")
		l, errs := pg.ParseLink("", fragment)
		if len(errs) != 0 || l.Script != incident {
			t.Errorf("Share's link holds %q (%v), want the script", l.Script, errs)
		}
		must(t, p.OpenLiveState("nightly", incidentState))
		if !p.ShareNeedsScript() {
			t.Error("a state loaded again keeps the script of the one before")
		}
	})
	t.Run("ARedriveAtARateUnderWayDisablesTheGroups", func(t *testing.T) {
		p := pg.New()
		var st pg.LiveState
		must(t, json.Unmarshal([]byte(incidentState), &st))
		st.Redrive = &pg.LiveRedrive{Done: 1, Total: 2, N: 2, PerMs: 1000}
		data, _ := json.Marshal(st)
		must(t, p.OpenLiveState("nightly", string(data)))
		c := p.Console()
		if c.Paced == nil || c.Paced.Label != "1/2 redriven, 2 every 1s" || c.Paced.Next != "" || c.Paced.Cancel != "redrive cancel" {
			t.Fatalf("paced %+v, want 1/2 at 2 every 1s, cancellable, no advance", c.Paced)
		}
		if c.Groups[0].Refused == "" {
			t.Error("a group's redrive is offered while one at a rate is under way")
		}
	})
}

func TestABadLiveStateChangesNothing(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"NotJSON", `submit a`, "not JSON"},
		{"ATaskWithoutState", `{"tasks":[["a"]]}`, "no name or no state"},
		{"AnUnknownState", `{"tasks":[["a","LOST"]]}`, `"a" has no state`},
		{"ATaskTwice", `{"tasks":[["a","PENDING"],["a","PENDING"]]}`, "twice"},
		{"AReadyTaskOutOfLine", `{"tasks":[["a","READY"]]}`, "READY line"},
		{"APlaceOutOfRange", `{"tasks":[["a","READY"]],"ready":[3]}`, "not one of the state's 1"},
		{"ADeadTaskOutOfTheDLQ", `{"tasks":[["a","DEAD"]]}`, "dead-letter queue"},
		{"ARootThatIsNotDead", `{"tasks":[["a","PENDING"],["b","BLOCKED","a"]],"dlq":[{"task":1,"root":0}]}`, "not DEAD"},
		{"ARootOutOfRange", `{"tasks":[["b","BLOCKED","a"]],"dlq":[{"task":0,"root":-2}]}`, "the root of b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := pg.New()
			must(t, p.OpenLiveState("nightly", incidentState))
			before := p.Session()
			err := p.OpenLiveState("other", tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
			if p.Session() != before || p.Live() != "nightly" || p.Session().Count(core.Dead) != 3 {
				t.Error("a state refused changed what the page shows")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
