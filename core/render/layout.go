package render

// Node is a task and the tasks it waits on. A dependency that names no
// node of the graph is ignored, and so is a node's dependency on itself, a
// repeated dependency, and every node after the first of the same name.
type Node struct {
	Name string
	Deps []string
}

// Point is a position in SVG user units; y grows downward.
type Point struct{ X, Y float64 }

// Layout places every task of a graph: dependencies above dependents. All
// positions are in SVG user units, from the top-left corner of the
// drawing, y growing downward; every box lies within Width×Height, margins
// included.
type Layout struct {
	Pos           map[string]Point // centre of each task's box, in SVG user units
	Width, Height float64          // the drawing's size, margins included
	NodeW, NodeH  float64          // box size
	Layer         map[string]int   // layer of each task (0 = top: tasks with no deps)
	// Compact holds the tasks drawn as cells of a compact grid, CellW×CellH
	// (see [Compact]); nil when there are none.
	Compact      map[string]bool
	CellW, CellH float64
	Grids        []Grid // the compact grids, top first
}

// Grid is a compact grid of a layout: the cells of one layer, and the
// rectangle they fill.
type Grid struct {
	Layer          int
	Cells          int
	X0, Y0, X1, Y1 float64
}

// Compact lays out a layer of more than Above tasks as a compact grid: each
// task a small cell, without its name, CompactRow cells a row, in arrival
// order, so that a layer of a thousand tasks takes the room of about 160
// boxes rather than 1,000, and a drawing of it a thousand small elements.
// The zero Compact lays out every task as a box.
//
// Row, when above 0, is the most boxes in a row (never more than the 40
// of [LayOut]): a layer of more wraps into rows of Row boxes, so that a
// drawing fits a narrow screen across at its size ([BoxesIn] says how many
// fit a width). A compact grid keeps its CompactRow cells a row.
type Compact struct{ Above, Row int }

// BoxesIn returns how many boxes a row of a drawing width units wide
// holds, margins included: at least 1, at most the 40 of [LayOut]. The
// cost is O(1).
func BoxesIn(width float64) int {
	return min(maxRow, max(1, int((width-2*margin+gapX)/pitch)))
}

// Geometry of a compact grid, in SVG user units.
const (
	cellW      = 26.0 // cell width and height
	cellGap    = 6.0  // between the cells of a grid
	CompactRow = 40   // cells in a row of a compact grid
)

// Box returns the size of a task's box: a cell for a task of a compact
// grid, else NodeW×NodeH.
func (l Layout) Box(task string) (w, h float64) {
	if l.Compact[task] {
		return l.CellW, l.CellH
	}
	return l.NodeW, l.NodeH
}

// Edge returns the path of the edge from dependency dep to task (see
// [EdgePath]), from the bottom of dep's box to the top of task's, cells
// included.
func (l Layout) Edge(dep, task string) string {
	_, h0 := l.Box(dep)
	_, h1 := l.Box(task)
	return EdgeBetween(l.Pos[dep], l.Pos[task], h0, h1)
}

// Geometry of a drawing, in SVG user units.
const (
	nodeW  = 136.0        // box width
	nodeH  = 44.0         // box height
	gapX   = 20.0         // between the boxes of a row
	pitch  = nodeW + gapX // from one box centre to the next in a row
	gapY   = 56.0         // between layers
	rowGap = 20.0         // between the rows of a wrapped layer
	margin = 20.0         // around the drawing
	maxRow = 40           // boxes in a row; a wider layer wraps
)

// LayOut places the tasks of a graph in layers, dependencies above
// dependents, and returns where each box goes (the package documentation
// tells how). The nodes are expected in arrival order, which breaks ties,
// so that a task added at the end moves no box (unless it opens a new row
// of a layer wider than 40 boxes, which moves the layers below it down).
// The result depends only on the nodes and their order.
//
// The graph is expected to be acyclic, as a queue's always is; should it
// not be, LayOut ignores each edge that closes a cycle (found depth-first
// from the nodes in input order) and lays out the rest.
//
// The complexity is O(V·maxRow + E) for V nodes and E edges, maxRow being
// the 40 boxes of a row.
func LayOut(nodes []Node) Layout { return Compact{}.LayOut(nodes) }

// LayOut lays out the tasks of a graph as the package function [LayOut]
// does, except that a layer of more than c.Above tasks (if c.Above > 0) is
// a compact grid of cells. The complexity is the same.
func (c Compact) LayOut(nodes []Node) Layout {
	g := newGraph(nodes)
	rowN := maxRow
	if c.Row > 0 {
		rowN = min(c.Row, maxRow)
	}
	p := g.place(c.Above, rowN)
	l := Layout{
		Pos:    make(map[string]Point, len(g.names)),
		Layer:  make(map[string]int, len(g.names)),
		NodeW:  nodeW,
		NodeH:  nodeH,
		Width:  2 * margin,
		Height: 2 * margin,
	}
	if len(g.names) == 0 {
		return l
	}
	cells := 0
	for _, c := range p.cell {
		if c {
			cells++
		}
	}
	if cells > 0 {
		// Sized at once: a grid can hold most of 10⁵ tasks.
		l.Compact = make(map[string]bool, cells)
		l.CellW, l.CellH = cellW, cellW
	}
	right := 0.0
	for v, name := range g.names {
		l.Pos[name] = Point{p.x[v], p.y[v]}
		l.Layer[name] = p.layer[v]
		w := nodeW
		if p.cell[v] {
			l.Compact[name] = true
			w = cellW
		}
		right = max(right, p.x[v]+w/2)
	}
	l.Width = right + margin
	l.Height = p.bottom + margin
	l.Grids = p.grids
	return l
}

// graph is the nodes with dense ids in input order.
type graph struct {
	names []string
	deps  [][]int // deps[v]: the ids v waits on; known nodes only, no self, no repeats
}

func newGraph(nodes []Node) *graph {
	g := &graph{names: make([]string, 0, len(nodes))}
	id := make(map[string]int, len(nodes))
	keep := make([]int, 0, len(nodes))
	for i, n := range nodes {
		if _, dup := id[n.Name]; dup {
			continue
		}
		id[n.Name] = len(g.names)
		g.names = append(g.names, n.Name)
		keep = append(keep, i)
	}
	g.deps = make([][]int, len(g.names))
	seen := make([]int, len(g.names)) // seen[u] == v+1: u is already a dep of v
	for v, i := range keep {
		for _, d := range nodes[i].Deps {
			if u, ok := id[d]; ok && u != v && seen[u] != v+1 {
				seen[u] = v + 1
				g.deps[v] = append(g.deps[v], u)
			}
		}
	}
	return g
}
