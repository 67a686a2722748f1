package core

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestArenaLists: lists built by push and copyOf, interleaved at random,
// some long enough for chunks of their own, read back as plain slices
// built beside them; no list writes into another, and a chunk push frees
// is no live list's.
func TestArenaLists(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 7))
	var a arena
	const lists = 200
	spans := make([]span, lists)
	want := make([][]int32, lists)
	var copies []span
	var copied [][]int32
	for i := range 60000 {
		k := r.IntN(lists)
		if k < 3 { // three long lists, past arenaChunk/4
			for range 40 {
				spans[k] = a.push(spans[k], int32(i))
				want[k] = append(want[k], int32(i))
			}
		}
		spans[k] = a.push(spans[k], int32(i))
		want[k] = append(want[k], int32(i))
		if r.IntN(50) == 0 {
			s := make([]int32, r.IntN(arenaChunk/3))
			for j := range s {
				s[j] = r.Int32()
			}
			copies = append(copies, a.copyOf(s))
			copied = append(copied, s)
		}
	}
	live := map[uint32]bool{}
	for k, s := range spans {
		if got := a.ints(s); !slices.Equal(got, want[k]) {
			t.Fatalf("seed %d: list %d holds %d elements, want %d; first difference at %d", seed, k, len(got), len(want[k]), firstDiff(got, want[k]))
		}
		if len(a.ints(s)) != cap(a.ints(s)) {
			t.Fatalf("seed %d: list %d has spare capacity %d", seed, k, cap(a.ints(s)))
		}
		live[s.at>>arenaChunkBits] = true
	}
	for i, s := range copies {
		if !slices.Equal(a.ints(s), copied[i]) {
			t.Fatalf("seed %d: copy %d changed", seed, i)
		}
		live[s.at>>arenaChunkBits] = true
	}
	if len(want[0]) <= arenaChunk/4 {
		t.Fatalf("seed %d: the longest list holds %d, not past a shared chunk", seed, len(want[0]))
	}
	freed := 0
	for c, chunk := range a.chunks[1:] {
		if chunk == nil {
			freed++
			if live[uint32(c+1)] {
				t.Fatalf("seed %d: chunk %d is freed and a live list's", seed, c+1)
			}
		}
	}
	if freed == 0 {
		t.Fatalf("seed %d: no long list's old chunk was freed", seed)
	}
	if got := a.ints(span{}); got != nil {
		t.Fatalf("the zero span reads %v", got)
	}
}

func firstDiff(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
