package render

import "math"

// placement is where the nodes of a graph go.
type placement struct {
	layer  []int     // layer of each node
	x, y   []float64 // centre of each node's box
	cell   []bool    // the node is a cell of a compact grid
	grids  []Grid    // the compact grids, top first
	bottom float64   // the lowest box edge
}

// The slots of a row are half a pitch apart: a box takes a slot and keeps
// its two neighbours free, so boxes are at least a pitch apart and a box
// can sit midway between two others, under the middle of its two
// dependencies. A row of n boxes has slots 0 to 2(n−1).
const slotW = pitch / 2

// place orders each layer and gives every node its coordinates. It is the
// barycentre heuristic of Sugiyama, Tagawa and Toda ("Methods for Visual
// Understanding of Hierarchical System Structures", IEEE Trans. SMC 11(2),
// 1981) in one downward sweep, with each box kept where it first landed:
//
//   - layer 0 is packed from slot 0 rightwards in input order, rowN
//     boxes a row (maxRow, or fewer to fit a narrow screen: [Compact]);
//   - in every other layer, a node wants the slot nearest the barycentre
//     (the mean slot) of its dependencies, all of them already placed
//     since they lie above; a barycentre midway between two slots goes to
//     the even one, so that such ties do not all lean the same way and a
//     deep graph does not drift to one side;
//   - the nodes of a layer take, in input order, the free slot nearest the
//     one they want in the first row of the layer that has room, ties to
//     the right; a layer that does not fit in a row of rowN boxes wraps
//     into further rows, which stay together under the layer above;
//   - slots run from 0 to 2(rowN−1), so the drawing is never wider than
//     rowN boxes (but for a compact grid) and its left edge is the first
//     root's.
//
// Input order is arrival order, so a node's slot depends only on the
// layers above it and on the nodes of its own layer that arrived earlier:
// a task that arrives last moves no box, unless it opens a new row of a
// wrapped layer, which moves the layers below down by a row; the
// playground's animation shows it land among boxes that stay put. Keeping
// the left edge fixed (rather than centring each layer) is what keeps a
// new box from shifting the whole drawing. Crossings are reduced only as
// far as the barycentre order reduces them; no further sweeps are made, as
// they would move boxes above a newcomer.
//
// A layer of more than compactAbove nodes (when compactAbove > 0) is
// instead a compact grid: cells in input order, CompactRow a row, from
// the left edge.
//
// The complexity is O(V·rowN + E).
func (g *graph) place(compactAbove, rowN int) placement {
	last := 2 * (rowN - 1) // the rightmost slot
	n := len(g.names)
	p := placement{layer: g.layers(), x: make([]float64, n), y: make([]float64, n), cell: make([]bool, n)}
	var byLayer [][]int
	for v, l := range p.layer {
		for len(byLayer) <= l {
			byLayer = append(byLayer, nil)
		}
		byLayer[l] = append(byLayer[l], v)
	}
	slot := make([]int, n)
	var rows []row
	y := margin + nodeH/2
	for l, vs := range byLayer {
		if compactAbove > 0 && len(vs) > compactAbove {
			top := y - nodeH/2 // the layer's top edge
			for i, v := range vs {
				p.cell[v] = true
				p.x[v] = margin + cellW/2 + float64(i%CompactRow)*(cellW+cellGap)
				p.y[v] = top + cellW/2 + float64(i/CompactRow)*(cellW+cellGap)
			}
			rowsUsed := (len(vs) + CompactRow - 1) / CompactRow
			p.bottom = top + float64(rowsUsed)*(cellW+cellGap) - cellGap
			p.grids = append(p.grids, Grid{Layer: l, Cells: len(vs), X0: margin, Y0: top,
				X1: margin + float64(min(len(vs), CompactRow))*(cellW+cellGap) - cellGap, Y1: p.bottom})
			y = p.bottom + gapY + nodeH/2
			// The layers below go by the slots above them, in a row's
			// slots: the slot nearest each cell.
			for _, v := range vs {
				slot[v] = min(max(int(math.Round((p.x[v]-margin-nodeW/2)/slotW)), 0), last)
			}
			continue
		}
		rows = rows[:0]
		open := 0 // rows[:open] are full
		for i, v := range vs {
			want := 2 * (i % rowN)
			if l > 0 {
				sum := 0
				for _, u := range g.deps[v] {
					sum += slot[u]
				}
				want = int(math.RoundToEven(float64(sum) / float64(len(g.deps[v]))))
			}
			r := open
			for ; r < len(rows); r++ {
				if s, ok := rows[r].nearestFree(want); ok {
					slot[v] = s
					break
				}
				if r == open {
					open++
				}
			}
			if r == len(rows) {
				rows = append(rows, make(row, last+1))
				slot[v], _ = rows[r].nearestFree(want)
			}
			rows[r][slot[v]] = true
			p.x[v] = margin + nodeW/2 + float64(slot[v])*slotW
			p.y[v] = y + float64(r)*(nodeH+rowGap)
		}
		p.bottom = y + float64(len(rows)-1)*(nodeH+rowGap) + nodeH/2
		y = p.bottom + gapY + nodeH/2
	}
	return p
}

// row is the slots of one row, taken or not: 2n−1 of them for a row of n
// boxes.
type row []bool

// free reports whether a box fits at slot s: s is in the band and no box
// is at s or next to it.
func (r row) free(s int) bool {
	last := len(r) - 1
	return s >= 0 && s <= last && !r[s] && (s == 0 || !r[s-1]) && (s == last || !r[s+1])
}

// nearestFree returns the free slot nearest want, the right one of two
// as near; false if the row is full. The complexity is O(boxes in a row).
func (r row) nearestFree(want int) (int, bool) {
	last := len(r) - 1
	want = min(max(want, 0), last)
	for d := 0; want-d >= 0 || want+d <= last; d++ {
		if r.free(want + d) {
			return want + d, true
		}
		if r.free(want - d) {
			return want - d, true
		}
	}
	return 0, false
}
