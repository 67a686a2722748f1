package incremental

// orderList keeps some of the nodes in a total order, labelling them with
// integers that grow along it, so two nodes compare in O(1) and a node can be
// put next to any other. When two neighbours' labels leave no room between
// them, the nodes around are relabelled evenly, the window doubling until it
// is sparse enough, as in M. A. Bender, R. Cole, E. D. Demaine,
// M. Farach-Colton and J. Zito, "Two Simplified Algorithms for Maintaining
// Order in a List", ESA 2002: amortized O(log n) relabels per insertion.
//
// Invariant: following next from head visits every node of the list once,
// with labels strictly increasing, all in [1, labelMax). A node not in the
// list has label 0.
type orderList struct {
	at   []link
	head int32 // -1 when the list is empty
	tail int32
}

// link is a node's place in the list and, beside it, what the search of
// the strategy that keeps the list knows of the node (see [TwoWay]): a
// search reads a node's label and marks it in the same visit, so both live
// in one 24-byte record, one cache line or two at most, where two arrays
// would cost two misses on a big graph. The list itself never reads or
// writes mark and parent.
type link struct {
	label  uint64
	prev   int32  // -1 before head
	next   int32  // -1 after tail
	mark   uint32 // the search's mark; see TwoWay
	parent int32  // the search's parent link; see TwoWay
}

const (
	labelMax  = 1 << 62
	labelStep = 1 << 20 // the gap left after the tail and before the head
)

// density[i] is the most nodes a window of 2^i labels may hold, the new one
// included, before it is relabelled: about (2/1.3)^i, and never so many that
// the gaps after relabelling fall below 2.
var density = func() (t [63]uint64) {
	f := 1.0
	for i := range t {
		t[i] = min(uint64(f), uint64(1)<<i/2)
		f *= 2 / 1.3
	}
	return t
}()

// grow makes room for the nodes 0..n-1; new ones are not in the list. The
// capacity past len(l.at) was zeroed by make and is never written, so
// growing within it is a reslice, and past it the capacity doubles: O(1)
// amortized per node, where growing by append would clear the new nodes on
// every call.
func (l *orderList) grow(n int) {
	if n <= len(l.at) {
		return
	}
	if len(l.at) == 0 {
		l.head, l.tail = -1, -1
	}
	if n > cap(l.at) {
		at := make([]link, len(l.at), max(n, 2*cap(l.at)))
		copy(at, l.at)
		l.at = at
	}
	l.at = l.at[:n]
}

func (l *orderList) label(u int32) uint64 { return l.at[u].label }

// insertAfter puts u, not in the list, just after x. The cost is O(1),
// amortized O(log n) when a window must be relabelled.
func (l *orderList) insertAfter(x, u int32) {
	next := uint64(labelMax)
	if nx := l.at[x].next; nx >= 0 {
		next = l.at[nx].label
	}
	if next-l.at[x].label < 2 {
		l.spread(x)
		next = labelMax
		if nx := l.at[x].next; nx >= 0 {
			next = l.at[nx].label
		}
	}
	lx := l.at[x].label
	l.at[u].label = lx + min((next-lx)/2, labelStep)
	l.link(x, u, l.at[x].next)
}

// insertRunAfter puts the nodes of run, none in the list, just after x (or
// at the front if x is -1) in the order given, spacing their labels evenly
// over the gap so that later insertions there find room. The cost is
// O(len(run)), amortized O(len(run) log n) when windows must be relabelled.
func (l *orderList) insertRunAfter(x int32, run []int32) {
	next := uint64(labelMax)
	if nx := l.headOrNext(x); nx >= 0 {
		next = l.at[nx].label
	}
	lx := uint64(0)
	if x >= 0 {
		lx = l.at[x].label
	}
	step := (next - lx) / uint64(len(run)+1)
	if step < 2 || x < 0 && l.head < 0 {
		for _, u := range run { // one at a time, relabelling as needed
			if x < 0 {
				l.pushFront(u)
			} else {
				l.insertAfter(x, u)
			}
			x = u
		}
		return
	}
	step = min(step, labelStep)
	for _, u := range run {
		lx += step
		l.at[u].label = lx
		l.link(x, u, l.headOrNext(x))
		x = u
	}
}

// headOrNext returns the node after x, or the head if x is -1.
func (l *orderList) headOrNext(x int32) int32 {
	if x < 0 {
		return l.head
	}
	return l.at[x].next
}

// pushBack puts u, not in the list, after every node.
func (l *orderList) pushBack(u int32) {
	t := l.tail
	if t < 0 {
		l.first(u)
		return
	}
	lt := l.at[t].label
	if labelMax-lt < 2 {
		l.insertAfter(t, u) // relabels
		return
	}
	l.at[u].label = lt + min((labelMax-lt)/2, labelStep)
	l.at[u].prev, l.at[u].next = t, -1
	l.at[t].next = u
	l.tail = u
}

// pushFront puts u, not in the list, before every node.
func (l *orderList) pushFront(u int32) {
	if l.head < 0 {
		l.first(u)
		return
	}
	if l.at[l.head].label < 2 {
		l.spread(l.head)
	}
	h := l.at[l.head].label
	l.at[u].label = h - min(h/2, labelStep)
	l.link(-1, u, l.head)
}

func (l *orderList) first(u int32) {
	l.at[u].label, l.at[u].prev, l.at[u].next = labelMax/2, -1, -1
	l.head, l.tail = u, u
}

// link puts u between p and n (either may be -1).
func (l *orderList) link(p, u, n int32) {
	l.at[u].prev, l.at[u].next = p, n
	if p >= 0 {
		l.at[p].next = u
	} else {
		l.head = u
	}
	if n >= 0 {
		l.at[n].prev = u
	} else {
		l.tail = u
	}
}

// remove takes u out of the list.
func (l *orderList) remove(u int32) {
	p, n := l.at[u].prev, l.at[u].next
	if p >= 0 {
		l.at[p].next = n
	} else {
		l.head = n
	}
	if n >= 0 {
		l.at[n].prev = p
	} else {
		l.tail = p
	}
	l.at[u].label, l.at[u].prev, l.at[u].next = 0, -1, -1
}

// spread relabels, evenly, the smallest aligned window of 2^i labels around
// x that is sparse enough, leaving a gap of 2 or more before its first node
// and after each of its nodes.
func (l *orderList) spread(x int32) {
	a, b, count := x, x, uint64(1)
	lx := l.at[x].label
	for i := uint(1); i < 63; i++ {
		lo := lx &^ (1<<i - 1)
		hi := lo | (1<<i - 1)
		// Invariant: a..b are the nodes whose labels lie in [lo, hi].
		for p := l.at[a].prev; p >= 0 && l.at[p].label >= lo; p = l.at[a].prev {
			a = p
			count++
		}
		for n := l.at[b].next; n >= 0 && l.at[n].label <= hi; n = l.at[b].next {
			b = n
			count++
		}
		if count+1 > density[i] {
			continue
		}
		gap := (uint64(1) << i) / (count + 1)
		next := lo + gap
		for u := a; ; u = l.at[u].next {
			l.at[u].label = next
			next += gap
			if u == b {
				return
			}
		}
	}
	panic("incremental: order labels exhausted")
}
