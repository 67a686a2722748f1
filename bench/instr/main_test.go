package main

import "testing"

// TestRun: every op runs on every shape it is counted on, and a bad op,
// shape or number is an error.
func TestRun(t *testing.T) {
	for _, args := range [][]string{
		{"submit", "chain", "200"},
		{"next", "independent", "200"},
		{"complete", "independent", "200"},
		{"lifecycle", "chain-reverse", "200"},
		{"lifecycle", "wide", "200"},
		{"lifecycle", "random", "200"},
		{"lifecycle", "reject", "200"},
	} {
		if err := run(args); err != nil {
			t.Errorf("instr %q: %v", args, err)
		}
	}
	for _, args := range [][]string{
		{},
		{"submit", "chain"},
		{"submit", "chain", "0"},
		{"submit", "nope", "10"},
		{"nope", "chain", "10"},
	} {
		if err := run(args); err == nil {
			t.Errorf("instr %q: accepted", args)
		}
	}
}
