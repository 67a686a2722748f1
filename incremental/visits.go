package incremental

// Watcher is implemented by strategies that can say which nodes their
// checks reach, so that a playground can highlight them. Every strategy of
// this package implements it.
type Watcher interface {
	// Watch makes every later Insert call f once per visit, with the node
	// at the head of the edge examined (a node may come more than once).
	// Watch(nil) stops it. Nobody watching costs a nil check per visit.
	Watch(f func(v int32))
}

// counter counts a strategy's visits and reports them to a watcher. The
// strategies embed it.
type counter struct {
	visits uint64
	watch  func(int32)
}

// visit counts one edge examined, whose head is w.
func (c *counter) visit(w int32) {
	c.visits++
	if c.watch != nil {
		c.watch(w)
	}
}

// visitAll counts one visit for each node of ws, the heads of edges
// examined in that order.
func (c *counter) visitAll(ws []int32) {
	c.visits += uint64(len(ws))
	if c.watch != nil {
		for _, w := range ws {
			c.watch(w)
		}
	}
}

// Visits implements [Strategy]: the edges examined by all calls so far.
func (c *counter) Visits() uint64 { return c.visits }

// Watch implements [Watcher].
func (c *counter) Watch(f func(v int32)) { c.watch = f }
