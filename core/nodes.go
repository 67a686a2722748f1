package core

// nodeStore holds the nodes by id, in pages of nodePage nodes that never
// move once allocated. A queue that grows allocates each node once, a page
// at a time: no slice of nodes is copied into one twice as large, which
// for a growing queue allocated three to five times the nodes' size in
// all, in large objects the runtime zeroes and returns to the system over
// and over.
//
// Invariant: the ids 0..n-1 have nodes; the nodes of pages past them are
// zero. Reading a node is O(1), two loads; adding one is O(1).
type nodeStore struct {
	pages []*[nodePage]node
	n     int
}

const (
	nodePageBits = 8
	nodePage     = 1 << nodePageBits
)

// newNodeStore returns an empty store with room for the pages of n nodes.
func newNodeStore(n int) nodeStore {
	return nodeStore{pages: make([]*[nodePage]node, 0, (n+nodePage-1)/nodePage)}
}

// at returns the node of id v, which must be below len().
func (s *nodeStore) at(v int32) *node { return &s.pages[v>>nodePageBits][v&(nodePage-1)] }

// len returns the number of ids.
func (s *nodeStore) len() int { return s.n }

// add makes a node for the next id, named name, and returns that id.
func (s *nodeStore) add(name string) int32 {
	v := int32(s.n)
	if s.n == len(s.pages)*nodePage {
		s.pages = append(s.pages, new([nodePage]node))
	}
	s.n++
	s.at(v).name = name // the node is zero: past the ids
	return v
}

// truncate drops the nodes from id n on, zeroing them. O(len()-n).
func (s *nodeStore) truncate(n int) {
	for v := n; v < s.n; v++ {
		*s.at(int32(v)) = node{}
	}
	s.n = n
}
