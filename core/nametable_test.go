package core

import (
	"math/rand/v2"
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
