// Package render lays out a dagq task graph in layers and draws it as a
// standalone SVG document: the playground draws and animates from the
// layout, and `wq svg` and the documentation embed the drawing. It is pure
// Go and deterministic: the same tasks in the same order always give the
// same layout and the same bytes.
//
// # Layout
//
// [LayOut] takes the tasks in arrival order, each with the tasks it waits
// on, and places them in layers, dependencies above dependents:
//
//  1. Layers: longest path. A task with no dependency is in layer 0; any
//     other is one layer below its deepest dependency, so every edge
//     points down and the drawing is as short as the longest chain.
//  2. Order and position, in one downward sweep: a task wants to sit under
//     the barycentre (mean position) of its dependencies, the heuristic of
//     Sugiyama, Tagawa and Toda (1981). Positions are slots half a box
//     pitch apart, a box keeping its neighbouring slots free; the tasks of
//     a layer take, in arrival order, the free slot nearest the one they
//     want. Layer 0 is packed from the left in arrival order.
//  3. Wrapping: a row holds at most 40 boxes. A wider layer, such as the
//     1,000 shards of the wide-1000 scenario, wraps into rows of 40, which
//     stay together (20 units apart, where layers are 56 apart): the
//     drawing is never more than 40 boxes wide and grows downward instead,
//     to be scrolled vertically.
//
// Stability. The playground tweens each box from its old position to its
// new one at every step, so a layout should change no more than the graph
// did. Here a task's place depends only on the layers above it and on the
// tasks of its own layer that arrived before it. A task that arrives
// waiting on others therefore moves no box, and one that arrives with no
// dependency lands at the right end of the top row; the only exception is
// a newcomer opening a new row of a wrapped layer, which moves the layers
// below it down by a row. Boxes move sideways only when a task arrives
// that others had already named as a dependency: they drop below it, as
// they must. The left edge is the first root's, never centred, as
// centring a layer would shift all of it for every newcomer.
// TestAddingATaskMovesFewBoxes measures it: adding a task (a leaf waiting
// on three or on one random earlier task, or a root) to a 50-task random
// graph moved no box, over 200 graphs each.
//
// The price is crossings: one sweep, with slots kept by earlier arrivals,
// crosses more edges than the global reordering of a classic layered
// layout (see the figures below: a quarter to a third more than autog's
// on a random graph, as many on chains and diamonds). On a wrapped fan the count
// rises too, as edges to the lower rows pass behind the boxes of the upper
// ones, which are drawn over them.
//
// Cost: O(V·40 + E) for V tasks and E edges: under 1 ms for 1,000 tasks of
// any of the shapes below, about 0.1 s for 100,000.
//
// # Drawing
//
// [WriteSVG] draws each task as a box showing its name and its state's icon
// and label, and each edge as a curve from the bottom of the dependency to
// an arrowhead on the top of the dependent. [StyleOf] gives each state its
// colours (a colour-blind safe palette), icon and label, so that states are
// told apart without colour. The document's structure, which browser tests
// and page styles rely on, is described at WriteSVG.
//
// # Why not autog
//
// github.com/nulab/autog v0.11.0, a Sugiyama-style layered layout, was
// measured against LayOut on the same graphs with
//
//	go test ./core/render -run '^$' -bench 'BenchmarkLayOut|BenchmarkAutog' -autog.budget 10s
//
// Shapes: chain (each task waits on the one before), lattice (rows of 5,
// each task waiting on two of the row above: stacked diamonds), random3
// (each task waits on three random earlier ones), fan (one root, n−2
// tasks waiting on it, one task waiting on them all). autog's phase
// choices: default (greedy cycle breaking, network simplex layering,
// weighted median ordering, sink colouring positions, polyline edges); and
// longest-path layering with depth-first cycle breaking and straight
// edges, ordered by weighted median or not at all, positioned by
// Brandes–Köpf (BK) or vertical alignment (VA). Milliseconds per layout on
// a shared 2-core machine (ns/op ÷ 10⁶), with crossings at n = 50 in
// brackets (edges taken as straight lines between box centres); "–" means
// a first layout took over 10 s, so that size and the larger ones were
// skipped:
//
//	shape    layout                 n=50          n=100   n=300   n=1000
//	chain    autog default          0.39   (0)    0.69    1.6     6.0
//	         autog median + BK      0.29   (0)    0.61    2.3     10
//	         autog median + VA      0.12   (0)    0.24    0.73    2.7
//	         autog no order + VA    0.08   (0)    0.18    0.65    2.1
//	         LayOut                 0.020  (0)    0.036   0.082   0.31
//	lattice  autog default          168    (9)    389     5,319   –
//	         autog median + BK      8.8    (9)    17      48      227
//	         autog median + VA      8.2    (9)    17      68      469
//	         autog no order + VA    0.27   (9)    0.27    1.0     4.3
//	         LayOut                 0.024  (9)    0.039   0.10    0.39
//	random3  autog default          1,804  (615)  –       –       –
//	         autog median + BK      1,810  (558)  –       –       –
//	         autog median + VA      3,363  (606)  –       –       –
//	         autog no order + VA    0.19   (886)  0.39    1.2     5.2
//	         LayOut                 0.023  (753)  0.062   0.13    0.58
//	fan      autog default          0.75   (0)    2.7     14      133
//	         autog median + BK      0.37   (0)    0.79    4.9     61
//	         autog median + VA      0.18   (0)    0.39    1.8     18
//	         autog no order + VA    0.18   (0)    0.46    2.0     13
//	         LayOut                 0.021  (20)   0.037   0.10    0.33
//
// The choice: LayOut at every size; autog is only a test dependency, kept
// for this comparison. autog's crossing reduction (the weighted median,
// its only ordering phase) takes seconds at 50 tasks of a random graph,
// and the playground needs a layout at every step; without it autog is
// fast but reduces no crossings at all, the one thing it would add over
// LayOut (it then crosses about as many edges as LayOut: 886 against 753
// at 50 random tasks). Even on small graphs,
// where it is fast enough, it was not used: it lays out a disconnected
// graph differently from run to run (it gathers each connected component
// in a Go map; see TestAutogIsNotDeterministicOnDisconnectedGraphs), its
// global reordering may move every box when one task arrives, it cannot
// wrap a wide layer, and switching layouts at a size threshold would make
// the animation jump there.
package render
