package core

// arena hands out int32 slices carved from large chunks, so that the many
// short adjacency lists of a queue cost an allocation per chunk rather than
// one per task. A slice it returns has its capacity cut to its segment, so an
// append past it never writes into a neighbour.
type arena struct {
	chunk []int32 // free space of the current chunk
}

const arenaChunk = 1 << 14

// take returns a slice of length 0 and capacity n.
func (a *arena) take(n int) []int32 {
	if n > len(a.chunk) {
		if n > arenaChunk/4 {
			return make([]int32, 0, n)
		}
		a.chunk = make([]int32, arenaChunk)
	}
	s := a.chunk[:0:n]
	a.chunk = a.chunk[n:]
	return s
}

// copyOf returns a copy of s with no spare capacity.
func (a *arena) copyOf(s []int32) []int32 {
	return append(a.take(len(s)), s...)
}

// push appends v to s, moving s to a segment twice as large when it is full.
// The old segment is abandoned, so at most half the arena is waste.
// Amortized O(1).
func (a *arena) push(s []int32, v int32) []int32 {
	if len(s) == cap(s) {
		t := a.take(max(2*cap(s), 2))
		s = append(t, s...)
	}
	return append(s, v)
}
