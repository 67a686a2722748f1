package core

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestNameTableAgreesWithAMap: names put into, and removed from, a name
// table in a random order (the most recent ones, as a refused submit forgets
// them, or any) are found exactly when a map holds them, under their ids,
// and the table stays at most half full, through many doublings.
func TestNameTableAgreesWithAMap(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for round := range 20 {
		table := newNameTable(rng.IntN(40))
		var nodes nodeStore // a removed id's name is ""
		want := map[string]int32{}
		check := func(name string) {
			t.Helper()
			id, ok, _, _ := table.find(&nodes, name)
			wid, wok := want[name]
			if ok != wok || ok && id != wid {
				t.Fatalf("seed %d, round %d: find(%q) = %d, %v; want %d, %v", seed, round, name, id, ok, wid, wok)
			}
		}
		for range 3000 {
			switch r := rng.IntN(10); {
			case r < 6 || len(want) == 0: // a name, new or known
				name := "n" + strconv.Itoa(rng.IntN(4000))
				if _, ok, slot, h := table.find(&nodes, name); !ok {
					id := nodes.add(name)
					table.put(slot, h, id)
					want[name] = id
				}
				check(name)
			case r < 8: // the newest names go, as forget drops them
				k := min(rng.IntN(4)+1, nodes.len())
				for v := nodes.len() - k; v < nodes.len(); v++ {
					if name := nodes.at(int32(v)).name; name != "" {
						table.remove(&nodes, name)
						delete(want, name)
					}
				}
				nodes.truncate(nodes.len() - k)
			default: // any name goes
				id := int32(rng.IntN(nodes.len()))
				if name := nodes.at(id).name; name != "" {
					table.remove(&nodes, name)
					delete(want, name)
					nodes.at(id).name = ""
				}
			}
			if 2*table.used > len(table.slots) || table.used != len(want) {
				t.Fatalf("seed %d, round %d: %d slots used of %d, %d names", seed, round, table.used, len(table.slots), len(want))
			}
		}
		for i := range 4000 {
			check("n" + strconv.Itoa(i))
		}
	}
}

// TestNameHashSpreadsNames: names that differ in a few bytes anywhere, at
// the start, in the middle of a long name or at its end, as generated names
// do, land in a table as if at random: a lookup probes about 1.5 slots on
// average, as linear probing at a load of at most one half does with a
// random hash, and no two of 2^16 names share all 32 bits of their hash
// more often than chance would (about half a pair).
func TestNameHashSpreadsNames(t *testing.T) {
	forms := map[string]func(i int) string{
		"short":  func(i int) string { return "t" + strconv.Itoa(i) },
		"middle": func(i int) string { return "pipeline/stage-" + strconv.Itoa(i) + "/shard-0000000000000001" },
		"end":    func(i int) string { return "a-long-common-prefix-of-forty-bytes-----" + strconv.Itoa(i) },
		"bytes":  func(i int) string { return string([]byte{byte(i), byte(i >> 8)}) },
	}
	const n = 1 << 16
	for form, name := range forms {
		t.Run(form, func(t *testing.T) {
			table := newNameTable(0)
			var nodes nodeStore
			seen := map[uint32]int{}
			same := 0
			for i := range n {
				s := name(i)
				_, ok, slot, h := table.find(&nodes, s)
				if ok {
					t.Fatalf("%q found before it was put", s)
				}
				table.put(slot, h, nodes.add(s))
				same += seen[h]
				seen[h]++
			}
			probes := 0
			mask := len(table.slots) - 1
			for v := range n {
				s := nodes.at(int32(v)).name
				for i := int(table.hash(s)) & mask; ; i = (i + 1) & mask {
					probes++
					if uint32(table.slots[i]) == uint32(v)+1 {
						break
					}
				}
			}
			if avg := float64(probes) / n; avg > 2 || same > 8 {
				t.Errorf("%d names: %.2f probes a lookup on average, want at most 2; %d pairs with equal hashes, want about 0.5", n, avg, same)
			}
		})
	}
}

// TestTouchOnlyReads: touch, on a large table, with names known and unknown
// and more deps than it reads ahead, changes no slot, and finds a known
// name's node (its sum is then at least the name's first byte).
func TestTouchOnlyReads(t *testing.T) {
	table := newNameTable(0)
	var nodes nodeStore
	for i := range touchSlots / 2 {
		name := "n" + strconv.Itoa(i)
		_, _, slot, h := table.find(&nodes, name)
		table.put(slot, h, nodes.add(name))
	}
	if !table.large() {
		t.Fatalf("%d slots for %d names: not large", len(table.slots), nodes.len())
	}
	before := append([]uint64(nil), table.slots...)
	deps := []string{"n1", "unknown", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"}
	if sum := table.touch(&nodes, "n0", deps); sum < 'n' {
		t.Errorf("touch(n0, %q) = %d, want at least %d", deps, sum, 'n')
	}
	table.touch(&nodes, "also unknown", nil)
	if !slices.Equal(before, table.slots) {
		t.Fatal("touch changed the table's slots")
	}
}

// TestALargeShuffledDAGRunsInDependencyOrder: a random DAG of more tasks
// than a large name table holds (so that Submit reads ahead with touch),
// each waiting on up to three earlier tasks and arriving shuffled, with
// repeated deps, is handed out in an order that respects every dependency,
// and every task succeeds.
func TestALargeShuffledDAGRunsInDependencyOrder(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	const n = touchSlots
	deps := make([][]string, n)
	for i := 1; i < n; i++ {
		for range rng.IntN(4) {
			deps[i] = append(deps[i], "t"+strconv.Itoa(rng.IntN(i)))
		}
		if len(deps[i]) > 0 && rng.IntN(10) == 0 {
			deps[i] = append(deps[i], deps[i][0]) // a repeat
		}
	}
	q, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range rng.Perm(n) {
		if err := q.Submit("t"+strconv.Itoa(i), deps[i]...); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if !q.table.large() {
		t.Fatalf("%d slots: the table is not large", len(q.table.slots))
	}
	done := make(map[string]bool, n)
	for range n {
		l, ok := q.Next()
		if !ok {
			t.Fatalf("seed %d: nothing READY after %d of %d", seed, len(done), n)
		}
		i, _ := strconv.Atoi(l.Task[1:])
		for _, d := range deps[i] {
			if !done[d] {
				t.Fatalf("seed %d: %s handed out before its dependency %s", seed, l.Task, d)
			}
		}
		if err := q.Complete(l); err != nil {
			t.Fatal(err)
		}
		done[l.Task] = true
	}
	for i := range n {
		if s, _ := q.Status("t" + strconv.Itoa(i)); s != Succeeded {
			t.Fatalf("seed %d: t%d is %v", seed, i, s)
		}
	}
}
