package core

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stateDecls reads state.go and returns what it declares: each constant of
// type State with its value and whether its doc says it is final, and the
// names of the code constants in order. The tests below compare these with
// States(), stateOf and the state table, so that a state declared but left
// out of any of them fails, whatever lists the tests themselves hold.
func stateDecls(t *testing.T) (states map[State]bool, codes []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "state.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	states = map[State]bool{} // value → final
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var typ string // a spec without a type repeats the one above (iota)
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok {
				typ = id.Name
			}
			switch typ {
			case "State":
				lit, ok := vs.Values[0].(*ast.BasicLit)
				if !ok {
					t.Fatalf("state.go: %s is not a string literal", vs.Names[0])
				}
				v, _ := strconv.Unquote(lit.Value)
				states[State(v)] = strings.Contains(vs.Doc.Text(), "Final.")
			case "code":
				for _, n := range vs.Names {
					codes = append(codes, n.Name)
				}
			}
		}
	}
	if len(states) == 0 || len(codes) == 0 {
		t.Fatalf("state.go declares %d states and %d codes: the parse found nothing", len(states), len(codes))
	}
	return states, codes
}

// TestStatesComplete: every State constant state.go declares is listed by
// States(), once, in the order of the codes; has a code and a name in
// stateOf; is entered by some row of the state table (allowed) and, unless
// its doc says it is final, left by some row; and a final state has no way
// out. numCodes must be the last code, so that the tables it sizes cover
// every code.
func TestStatesComplete(t *testing.T) {
	declared, codes := stateDecls(t)
	if last := codes[len(codes)-1]; last != "numCodes" {
		t.Fatalf("the last code constant is %s, want numCodes (it sizes stateOf and allowed)", last)
	}
	if n := len(codes) - 1; n != int(numCodes) {
		t.Fatalf("state.go declares %d codes before numCodes, but numCodes = %d", n, numCodes)
	}
	if got, want := len(declared), int(numCodes)-1; got != want {
		t.Errorf("state.go declares %d State constants and %d codes besides unsubmitted: each state needs one code", got, want)
	}
	if stateOf[unsubmitted] != "" {
		t.Errorf("stateOf[unsubmitted] = %q, want \"\"", stateOf[unsubmitted])
	}
	for c := code(1); c < numCodes; c++ {
		s := stateOf[c]
		if s == "" {
			t.Errorf("code %s (%d) has no state in stateOf", codes[c], c)
			continue
		}
		if _, ok := declared[s]; !ok {
			t.Errorf("stateOf[%s] = %q, which is not a State constant", codes[c], s)
		}
		if slices.Index(stateOf[:], s) != int(c) {
			t.Errorf("stateOf names %q twice", s)
		}
	}
	if got, want := States(), stateOf[1:]; !slices.Equal(got, want) {
		t.Errorf("States() = %v, want %v: every state once, in the order of the codes", got, want)
	}
	for s := range declared {
		if !slices.Contains(States(), s) {
			t.Errorf("State constant %q is missing from States()", s)
		}
		if !slices.Contains(stateOf[:], s) {
			t.Errorf("State constant %q is missing from stateOf", s)
		}
	}
	for c := code(1); c < numCodes; c++ {
		s := stateOf[c]
		in, out := false, false
		for x := range numCodes {
			in = in || allowed[x][c]
			out = out || allowed[c][x]
		}
		if !in {
			t.Errorf("no row of the state table enters %s", s)
		}
		switch final := declared[s]; {
		case final && out:
			t.Errorf("%s is documented final but the state table has a way out of it", s)
		case !final && !out:
			t.Errorf("the state table has no way out of %s, and its doc does not say it is final", s)
		}
	}
}

// TestEventsReachEveryState: a queue driven through every row of the state
// table reports, in its events and its Status, every state of States().
func TestEventsReachEveryState(t *testing.T) {
	seen := map[State]bool{}
	q, err := New(Config{MaxAttempts: 2, LeaseTimeout: time.Second, Backoff: Backoff{Base: time.Second},
		OnEvent: func(e Event) { seen[e.To] = true }})
	if err != nil {
		t.Fatal(err)
	}
	status := map[State]bool{}
	look := func() {
		for _, task := range q.Tasks() {
			s, _ := q.Status(task)
			status[s] = true
		}
	}
	q.Submit("a")
	q.Submit("b", "a")
	q.Submit("c")
	q.Submit("d", "x") // PENDING
	look()
	l, _ := q.Next() // a RUNNING
	look()
	q.Fail(l, errors.New("x")) // a DELAYED
	look()
	l, _ = q.Next() // c RUNNING
	q.Complete(l)   // c SUCCEEDED
	q.Advance(time.Second)
	l, _ = q.Next()
	q.Fail(l, errors.New("y")) // a DEAD, b BLOCKED
	look()
	delete(seen, "")
	for _, s := range States() {
		if !seen[s] {
			t.Errorf("no event went to %s", s)
		}
		if !status[s] {
			t.Errorf("Status never reported %s", s)
		}
	}
}
