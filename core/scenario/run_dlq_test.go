package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
)

const dlqScript = `attempts 1
poison 1
alert 3 10s
submit f1
submit f2
submit p
submit w1 f1
submit w2 f1 f2
submit x p
next
fail f1 HTTP 503 from 10.0.0.1:443
next
fail f2 HTTP 503 from 10.0.0.2:443
next
fail p disk full
dlq
preview redrive group 1
redrive group 3
redrive p
next
fail p disk full
redrive p
redrive! p
redrive matching HTTP 503 at 1/1s
redrive matching disk
advance 5s
redrive cancel
advance 20s
`

// TestRunDLQCommands runs each command of operating the DLQ and checks
// what its step says.
func TestRunDLQCommands(t *testing.T) {
	t.Parallel()
	s, err := Parse(dlqScript)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Run(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	step := func(line int) Step {
		for _, st := range tr.Steps {
			if st.Command.Line == line {
				return st
			}
		}
		t.Fatalf("no step on line %d", line)
		return Step{}
	}
	if st := step(17); st.Preview == nil || len(st.Preview.Roots) != 2 || st.Preview.Released != 2 {
		t.Errorf("preview redrive group 1: %+v, want f1, f2 releasing w1, w2", st.Preview)
	}
	if st := step(18); st.OK || st.Err != "there is no group 3: the dead-letter queue has 2 groups" {
		t.Errorf("redrive group 3: %+v, want refused", st)
	}
	if st := step(19); !st.OK {
		t.Errorf("the first redrive of p under poison 1: %+v, want accepted", st)
	}
	if st := step(21); len(st.Events) == 0 || !st.Events[0].Poisoned {
		t.Errorf("p dies after a redrive under poison 1: %+v, want it poisoned", st)
	}
	if st := step(22); st.OK || !strings.Contains(st.Err, "poisoned") {
		t.Errorf("redrive of a poisoned task: %+v, want refused", st)
	}
	if st := step(23); !st.OK || st.State != core.Ready {
		t.Errorf("redrive! of a poisoned task: %+v, want READY", st)
	}
	if st := step(24); !st.OK || len(st.Events) == 0 || st.Events[0].Kind != core.EventRedriveStarted {
		t.Errorf("redrive matching at a rate: %+v", st)
	}
	if st := step(25); st.OK || !strings.Contains(st.Err, "a redrive is in progress") {
		t.Errorf("a second redrive while one is in progress: %+v, want refused", st)
	}
	if st := step(27); st.OK {
		t.Errorf("redrive cancel after the redrive ended: %+v, want refused", st)
	}

	// JSON: alert while raised, groups on the dlq line, the preview on its.
	var buf bytes.Buffer
	if err := WriteJSON(&buf, tr); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		ln := int(m["line"].(float64))
		_, groups := m["groups"]
		_, preview := m["preview"]
		_, alert := m["alert"]
		if groups != (ln == 16) || preview != (ln == 17) {
			t.Errorf("line %d: groups %v, preview %v", ln, groups, preview)
		}
		if want := ln >= 11 && ln < 28; alert != want {
			t.Errorf("line %d: alert %v, want %v", ln, alert, want)
		}
	}
}

// TestRunRedriveGroupByNumber: groups are numbered from 1 in the order of
// dlq, the last one included.
func TestRunRedriveGroupByNumber(t *testing.T) {
	t.Parallel()
	s, err := Parse("attempts 1\nsubmit a\nsubmit b\nnext\nfail a HTTP 503\nnext\nfail b disk full\nredrive group 2\nredrive group 2\n")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Run(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, second := tr.Steps[7], tr.Steps[8]
	if !first.OK || len(first.Events) < 2 || first.Events[1].Task != "b" {
		t.Errorf("redrive group 2 of two: %+v, want b redriven", first)
	}
	if second.OK || second.Err != "there is no group 2: the dead-letter queue has 1 group" {
		t.Errorf("redrive group 2 of one: %+v, want refused", second)
	}
}
