package session

import (
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

func TestASessionFromAState(t *testing.T) {
	b, err := scenario.NewBoard(scenario.BoardState{Tasks: []string{"a", "b"}, States: []core.State{core.Ready, core.Pending}, Ready: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	nodes := []scenario.Node{{Task: "a"}, {Task: "b", Deps: []string{"a", "x"}}}
	const text = "# a queue's state\n"
	s, err := FromState(text, b, nodes, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 0 || s.Cursor() != 0 || s.Seek(scenario.StepEnd) != 0 || s.Text() != text {
		t.Errorf("len %d, cursor %d, text %q: want no steps and the text given", s.Len(), s.Cursor(), s.Text())
	}
	if s.State("a") != core.Ready || s.State("b") != core.Pending || s.Count(core.Ready) != 1 || strings.Join(s.Ready(), " ") != "a" {
		t.Errorf("states %v, READY line %v", s.States(), s.Ready())
	}
	if g := s.GraphAt(scenario.StepEnd); len(g) != 2 || g[1].Task != "b" || len(g[1].Deps) != 2 {
		t.Errorf("graph %+v, want the nodes given", g)
	}
	if g := s.Graph(); len(g) != 2 {
		t.Errorf("graph at the cursor %+v, want both tasks", g)
	}
	if lines, omitted := s.Log(0); len(lines) != 0 || omitted != 0 {
		t.Errorf("log %v: a state has no history", lines)
	}
	for name, err := range map[string]error{"Append": s.Append("next"), "SetStrategy": s.SetStrategy("dfs")} {
		if err == nil || !strings.Contains(err.Error(), "state") {
			t.Errorf("%s on a state: %v, want a refusal", name, err)
		}
	}
	if s.State("a") != core.Ready || s.Len() != 0 {
		t.Error("a refused command changed the state")
	}

	for _, tt := range []struct {
		name, text string
		nodes      []scenario.Node
		want       string
	}{
		{"ATextWithACommand", "next\n", nodes, "comments only"},
		{"ATextThatDoesNotParse", "submit\n", nodes, "submit"},
		{"NodesOfAnotherBoard", text, []scenario.Node{{Task: "b"}, {Task: "a"}}, `"b" at step 0, the board's "a"`},
		{"NodesAtAStep", text, []scenario.Node{{Task: "a"}, {Task: "b", Step: 1}}, "at step 1"},
		{"TooFewNodes", text, nodes[:1], "a board of 2 tasks with a graph of 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FromState(tt.text, b, tt.nodes, scenario.Options{}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}
