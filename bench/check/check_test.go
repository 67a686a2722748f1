package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write writes count samples of two benchmarks whose ns/op are base
// (complete) and 600 µs (next), spread by ±spread (a fraction) with a seeded
// generator, and complete's allocs/op.
func write(t *testing.T, name string, seed uint64, count int, base, spread float64, allocs int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/dagq/dagq/bench\n")
	for range count {
		ns := base * (1 + spread*(2*rng.Float64()-1))
		fmt.Fprintf(&b, "BenchmarkOps/op=complete/n=5000-2 \t 100 \t %.0f ns/op \t 0 B/op \t %d allocs/op\n", ns, allocs)
		fmt.Fprintf(&b, "BenchmarkOps/op=next/n=5000-2 \t 100 \t %.0f ns/op \t 0 B/op \t 0 allocs/op\n", 600_000*(1+spread*(2*rng.Float64()-1)))
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheck: ten samples against ten, each ±8% around its centre: the same
// centre passes (over 50 seeds, none fails), 15% slower on one benchmark
// fails naming it, 15% faster passes, one more alloc a pass fails, and
// -smoke reports the slowdown without failing.
func TestCheck(t *testing.T) {
	t.Parallel()
	for seed := range uint64(50) {
		old := write(t, "old.txt", seed, 10, 300_000, 0.08, 0)
		same := write(t, "same.txt", seed+1000, 10, 300_000, 0.08, 0)
		var out bytes.Buffer
		if err := run([]string{old, same}, &out); err != nil {
			t.Fatalf("seed %d, unchanged: %v\n%s", seed, err, out.String())
		}
	}
	old := write(t, "old.txt", 1, 10, 300_000, 0.08, 0)
	slower := write(t, "slower.txt", 2, 10, 345_000, 0.08, 0)
	var out bytes.Buffer
	err := run([]string{old, slower}, &out)
	if !errors.Is(err, ErrSlower) {
		t.Fatalf("15%% slower: %v, want ErrSlower\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "✗ Ops/op=complete/n=5000-2") || strings.Contains(out.String(), "✗ Ops/op=next") {
		t.Errorf("15%% slower on complete only, but the report marks:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"-smoke", old, slower}, &out); err != nil || !strings.Contains(out.String(), "not failing") {
		t.Errorf("-smoke, 15%% slower: %v\n%s", err, out.String())
	}
	faster := write(t, "faster.txt", 3, 10, 255_000, 0.08, 0)
	if err := run([]string{old, faster}, &out); err != nil {
		t.Errorf("15%% faster: %v", err)
	}
	allocs := write(t, "allocs.txt", 4, 10, 300_000, 0.08, 1)
	if err := run([]string{old, allocs}, &out); !errors.Is(err, ErrSlower) {
		t.Errorf("one more alloc a pass: %v, want ErrSlower", err)
	}
}

// TestCheckRefuses: a baseline benchmark missing from the new results, a
// file that is not there or has no results, and bad flags are errors,
// -smoke or not.
func TestCheckRefuses(t *testing.T) {
	t.Parallel()
	old := write(t, "old.txt", 1, 3, 300_000, 0.08, 0)
	empty := filepath.Join(t.TempDir(), "empty.txt")
	os.WriteFile(empty, []byte("goos: linux\n"), 0o644)
	other := filepath.Join(t.TempDir(), "other.txt")
	os.WriteFile(other, []byte("BenchmarkX-2 \t 1 \t 5 ns/op\n"), 0o644)
	for _, args := range [][]string{
		{old},
		{old, filepath.Join(t.TempDir(), "nope.txt")},
		{old, empty},
		{"-smoke", old, other},
		{"-threshold", "-1", old, old},
		{"-alpha", "1", old, old},
	} {
		var out bytes.Buffer
		if err := run(args, &out); err == nil || errors.Is(err, ErrSlower) {
			t.Errorf("check %q: %v, want an error that is not ErrSlower", args, err)
		}
	}
}

// TestCheckInstructions: counts of instructions are compared by their
// medians alone: 15% more in complete fails (three runs each, one of the
// new ones an outlier below), 2% more passes.
func TestCheckInstructions(t *testing.T) {
	t.Parallel()
	file := func(name string, counts ...int) string {
		var b strings.Builder
		for _, c := range counts {
			fmt.Fprintf(&b, "BenchmarkInstr/op=complete/shape=independent/n=5000 1 %d instructions/op\n", c)
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := file("old.txt", 1_786_407, 1_784_513, 1_785_001)
	var out bytes.Buffer
	if err := run([]string{old, file("slow.txt", 2_058_031, 2_057_990, 1_500_000)}, &out); !errors.Is(err, ErrSlower) {
		t.Errorf("15%% more instructions: %v, want ErrSlower\n%s", err, out.String())
	}
	out.Reset()
	if err := run([]string{old, file("same.txt", 1_820_000, 1_821_000, 1_819_000)}, &out); err != nil {
		t.Errorf("2%% more instructions: %v\n%s", err, out.String())
	}
}
