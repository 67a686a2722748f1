package core

import (
	"math/bits"
	"math/rand/v2"
)

// nameTable maps the names the queue knows to their ids: a hash table with
// open addressing and linear probing, whose slots hold an id and 32 bits of
// its name's hash, the names themselves staying in the nodes. A slot is 8
// bytes without a pointer, so the garbage collector never scans the table,
// and growing it rehashes no name: a slot's hash says where it goes.
//
// Invariants: slots has a power of two length, at least minSlots, and at
// most half of them are used, so a probe always ends at an empty slot; a
// name's slot is reached from its home, hash & (len(slots)-1), through used
// slots only. The hash is keyed per table with random keys, so that no set
// of names chosen in advance collides.
//
// A lookup, an insertion and a removal cost O(1) expected, and an insertion
// amortized O(1) when the table doubles.
type nameTable struct {
	k0, k1 uint64   // the hash's keys
	slots  []uint64 // 0: empty; else hash<<32 | id+1
	used   int
}

const minSlots = 16

// newNameTable returns an empty table with room for n names.
func newNameTable(n int) nameTable {
	size := minSlots
	for size < 2*n {
		size *= 2
	}
	return nameTable{k0: rand.Uint64(), k1: rand.Uint64(), slots: make([]uint64, size)}
}

// hash returns 32 bits of a keyed hash of name. It reads the name 16 bytes
// at a time, and its last 1 to 16 bytes as two words, overlapping when
// shorter (up to 8 bytes, one word); each pair of words, one xored with a key and one with the state,
// is multiplied to 128 bits and folded, in the manner of Wang Yi's wyhash.
// Inline and without a call for the short names tasks have, it costs a
// third of what hash/maphash's call does, the hash a Go map uses. O(len(name)).
func (t *nameTable) hash(name string) uint32 {
	h := t.k0 ^ uint64(len(name))
	for len(name) > 16 {
		h = fold(le64(name)^t.k1, le64(name[8:])^h)
		name = name[16:]
	}
	var x, y uint64
	switch n := len(name); {
	case n >= 8:
		x, y = le64(name), le64(name[n-8:])
	case n >= 4:
		x = uint64(le32(name))<<32 | uint64(le32(name[n-4:]))
	case n > 0:
		x = uint64(name[0])<<16 | uint64(name[n/2])<<8 | uint64(name[n-1])
	}
	h = fold(x^t.k1, y^h)
	return uint32(fold(h, t.k0^0x9e3779b97f4a7c15))
}

// fold multiplies a and b to 128 bits and xors the halves.
func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// le64 and le32 read s's first 8 or 4 bytes as a little-endian word.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// find returns the id of name and true, or the empty slot where name would
// go, its hash and false. nodes.at(id).name is the name of id.
func (t *nameTable) find(nodes *nodeStore, name string) (id int32, ok bool, slot int, h uint32) {
	h = t.hash(name)
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false, i, h
		}
		if uint32(s>>32) == h && nodes.at(int32(uint32(s)-1)).name == name {
			return int32(uint32(s) - 1), true, i, h
		}
	}
}

// large says whether the table is too large for the processor's caches to
// hold, with its nodes: then touch pays for itself.
func (t *nameTable) large() bool { return len(t.slots) >= touchSlots }

// touchSlots is the size from which a table is large: 512 KiB of slots,
// for more than 16,384 names, whose nodes take at least 1.4 MiB more.
const touchSlots = 1 << 16

// touch reads the home slots of task and deps and the nodes those slots
// hold, and returns a sum of what it read. In a large table each is a cache
// miss; find pays them one after the other, each probe waiting for the one
// before it, while touch's reads of different names do not depend on each
// other, so the processor has them all in flight at once, and the finds
// of the submit that follows hit the cache. It hashes each name once more,
// which pays only when there are several misses to overlap: Submit calls
// it for a task with two deps or more in a large table, and the lifecycle
// of a random DAG (up to three deps a task, shuffled) then takes 8% less
// time at 10^6 tasks and 12% less at 10^5; with one dep it cost a chain
// at 10^5 a quarter more. O(1+len(deps)).
func (t *nameTable) touch(nodes *nodeStore, task string, deps []string) (sum uint64) {
	var s [1 + touchDeps]uint64
	mask := len(t.slots) - 1
	s[0] = t.slots[int(t.hash(task))&mask]
	deps = deps[:min(len(deps), touchDeps)]
	for i, d := range deps {
		s[1+i] = t.slots[int(t.hash(d))&mask]
	}
	for _, x := range s[:1+len(deps)] {
		if x != 0 {
			sum += uint64(nodes.at(int32(uint32(x) - 1)).name[0])
		}
	}
	return sum
}

// touchDeps is the most deps touch reads ahead.
const touchDeps = 7

// put fills the empty slot find returned with id, for a name of hash h.
// No other insertion or removal may come between find and put. It doubles
// the table when more than half of it is used.
func (t *nameTable) put(slot int, h uint32, id int32) {
	t.slots[slot] = uint64(h)<<32 | uint64(uint32(id)+1)
	t.used++
	if 2*t.used > len(t.slots) {
		t.grow()
	}
}

// grow doubles the table, placing each slot anew by its hash. O(slots).
func (t *nameTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := int(s>>32) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// remove drops name, which has an id. Each slot after it in its run of used
// slots moves back into the hole if the hole lies between that slot's home
// and the slot, so that every name stays reachable from its home (Knuth,
// The Art of Computer Programming, vol. 3, 6.4, Algorithm R).
func (t *nameTable) remove(nodes *nodeStore, name string) {
	_, ok, hole, _ := t.find(nodes, name)
	if !ok {
		panic("core: removing the name " + name + ", which has no id")
	}
	mask := len(t.slots) - 1
	for j := (hole + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		home := int(t.slots[j]>>32) & mask
		// The slot stays if its home is cyclically in (hole, j].
		if hole <= j && hole < home && home <= j || hole > j && (hole < home || home <= j) {
			continue
		}
		t.slots[hole] = t.slots[j]
		hole = j
	}
	t.slots[hole] = 0
	t.used--
}
