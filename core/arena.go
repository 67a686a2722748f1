package core

// arena holds the queue's int32 lists (each task's deps and dependents) in
// large chunks, so that the many short lists of a queue cost an allocation
// per chunk rather than one per task. A list is named by a span, an address
// and a length, not a slice: a node's lists then add no pointer to it, for
// the collector to follow or to put barriers on the writes of.
//
// Invariant: a span's elements lie inside one chunk, which never moves;
// chunks[0] is never handed out, so the zero span is the empty list.
type arena struct {
	chunks [][]int32 // by index; a chunk too large to share is a list's alone
	free   uint32    // the address of the current chunk's free space
	left   int       // its length
}

// span names a list of the arena: its first element at address at (the
// chunk's index << arenaChunkBits | the offset in it) and its length.
type span struct {
	at, len uint32
}

const (
	arenaChunkBits = 14
	arenaChunk     = 1 << arenaChunkBits
)

// ints returns the elements of s, a slice whose capacity ends with them, so
// an append past it never writes into a neighbour. O(1).
func (a *arena) ints(s span) []int32 {
	if s.len == 0 {
		return nil
	}
	c, o := a.chunks[s.at>>arenaChunkBits], s.at&(arenaChunk-1)
	return c[o : o+s.len : o+s.len]
}

// take returns the address of n new elements: more than arenaChunk/4 get
// a chunk of their own (which push may free), fewer share one.
func (a *arena) take(n int) uint32 {
	if len(a.chunks) == 0 {
		a.chunks = append(a.chunks, nil) // so that no list has address 0
	}
	if n > arenaChunk/4 || n > a.left {
		if len(a.chunks) == 1<<(32-arenaChunkBits) {
			panic("core: the arena's addresses are exhausted")
		}
		if n > arenaChunk/4 { // a chunk of its own, and only then
			a.chunks = append(a.chunks, make([]int32, n))
			return uint32(len(a.chunks)-1) << arenaChunkBits
		}
		a.chunks = append(a.chunks, make([]int32, arenaChunk))
		a.free, a.left = uint32(len(a.chunks)-1)<<arenaChunkBits, arenaChunk
	}
	at := a.free
	a.free += uint32(n)
	a.left -= n
	return at
}

// copyOf returns a span holding a copy of s. O(len(s)).
func (a *arena) copyOf(s []int32) span {
	if len(s) == 0 {
		return span{}
	}
	t := span{at: a.take(len(s)), len: uint32(len(s))}
	copy(a.ints(t), s)
	return t
}

// push appends v to s, a list built by push alone: one of length l has a
// segment of room for max(2, l rounded up to a power of two) elements, so
// when its length is 0 or a power of two past 1 it is full and moves to a
// segment twice as large. The old segment is abandoned (a chunk of its own
// is freed), so at most half the arena is waste. Amortized O(1).
func (a *arena) push(s span, v int32) span {
	if s.len == 0 || s.len >= 2 && s.len&(s.len-1) == 0 {
		t := span{at: a.take(max(2*int(s.len), 2)), len: s.len}
		copy(a.ints(t), a.ints(s))
		if s.len > arenaChunk/4 { // its segment was a chunk of its own
			a.chunks[s.at>>arenaChunkBits] = nil
		}
		s = t
	}
	c, o := a.chunks[s.at>>arenaChunkBits], s.at&(arenaChunk-1)
	c[o+s.len] = v
	s.len++
	return s
}
