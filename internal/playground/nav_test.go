package playground_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
	"github.com/dagq/dagq/internal/session"
)

func TestZoom(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		got, want float64
	}{
		{"SmallGraphAtItsSize", playground.FitZoom(300, 200, 800, 600), 1},
		{"WideGraphShrunk", playground.FitZoom(1600, 300, 800, 600), 0.5},
		{"TallGraphShrunk", playground.FitZoom(200, 2400, 800, 600), 0.25},
		{"HugeGraphAtTheLeast", playground.FitZoom(1e6, 300, 800, 600), playground.MinZoom},
		{"EmptyView", playground.FitZoom(300, 200, 0, 0), 1},
		{"ClampHigh", playground.ClampZoom(10), playground.MaxZoom},
		{"ClampNaN", playground.ClampZoom(math.NaN()), 1},
		{"WheelUpZoomsIn", math.Round(playground.WheelZoom(1, -300)*1000) / 1000, math.Round(math.E*1000) / 1000},
		{"WheelDownZoomsOut", playground.WheelZoom(0.2, 3000), playground.MinZoom},
		{"FindKeepsAReadableZoom", playground.FindZoom(0.8), 0.8},
		{"FindKeepsAZoomIn", playground.FindZoom(2), 2},
		{"FindZoomsASpeckToItsSize", playground.FindZoom(0.02), 1},
		{"FindZoomsAFittedGridToItsSize", playground.FindZoom(0.31), 1},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestZoomAroundKeepsThePointStill is a property test: the spot of the
// drawing under the pointer stays under it.
func TestZoomAroundKeepsThePointStill(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 3))
	for i := range 1000 {
		v := playground.Scroll{Left: rng.Float64() * 2000, Top: rng.Float64() * 2000, Width: 800, Height: 600}
		z0, z1 := 0.1+rng.Float64()*2, 0.1+rng.Float64()*2
		x, y := rng.Float64()*v.Width, rng.Float64()*v.Height
		left, top := playground.ZoomAround(v, z0, z1, x, y)
		// The drawing's point under the pointer, before and after.
		bx, by := (v.Left+x)/z0, (v.Top+y)/z0
		ax, ay := (left+x)/z1, (top+y)/z1
		if (left > 0 && math.Abs(ax-bx) > 1e-6) || (top > 0 && math.Abs(ay-by) > 1e-6) {
			t.Fatalf("case %d (seed %d): (%v, %v) moved to (%v, %v)", i, seed, bx, by, ax, ay)
		}
	}
}

func TestFollow(t *testing.T) {
	t.Parallel()
	v := playground.Scroll{Left: 100, Top: 100, Width: 800, Height: 600}
	// A phone's: its bottom 300 px under the timeline stuck to the screen.
	phone := v
	phone.Below = 300
	// Scrolled half off the screen's top, its bottom under the timeline.
	both := v
	both.Above, both.Below = 100, 200
	// So little in sight (50 px) that it follows in the whole view.
	little := v
	little.Above, little.Below = 300, 250
	for _, tt := range []struct {
		v         playground.Scroll
		x, y      float64
		left, top float64
		move      bool
	}{
		{v, 500, 400, 100, 100, false}, // in view: stays
		{v, 3000, 400, 2600, 100, true},
		{v, 500, 5000, 100, 4700, true},
		{v, 10, 10, 0, 0, true},
		{phone, 500, 300, 100, 100, false}, // in sight: stays
		{phone, 500, 450, 100, 300, true},  // in view but under the bar: centred in sight
		{phone, 500, 5000, 100, 4850, true},
		{both, 500, 1000, 100, 750, true}, // in sight from 850 to 1150
		{both, 500, 350, 100, 100, false}, // in sight from 200 to 500
		{both, 500, 150, 100, 0, true},    // above the part in sight
		{little, 500, 450, 100, 100, false},
		{little, 500, 5000, 100, 4700, true},
	} {
		left, top, move := playground.Follow(tt.v, tt.x, tt.y, playground.Margin{X: 60, Y: 60})
		if left != tt.left || top != tt.top || move != tt.move {
			t.Errorf("Follow in %+v to (%v, %v) = %v, %v, %v; want %v, %v, %v", tt.v, tt.x, tt.y, left, top, move, tt.left, tt.top, tt.move)
		}
	}
}

func TestFollowAll(t *testing.T) {
	t.Parallel()
	v := playground.Scroll{Left: 100, Top: 100, Width: 800, Height: 600}
	phone := v
	phone.Below = 300 // in sight from 100 to 400
	// A minimap over the view's top right corner, 200×150.
	mapped := v
	mapped.Cover = playground.Rect{X0: 600, Y0: 0, X1: 800, Y1: 150}
	pt := func(x, y float64) render.Point { return render.Point{X: x, Y: y} }
	for _, tt := range []struct {
		name      string
		v         playground.Scroll
		pts       []render.Point
		left, top float64
		move      bool
	}{
		{"none", v, nil, 100, 100, false},
		{"one, as Follow", v, []render.Point{pt(500, 5000)}, 100, 4700, true},
		{"all in sight", v, []render.Point{pt(300, 300), pt(500, 500)}, 100, 100, false},
		{"the second under the bar: both brought up", phone, []render.Point{pt(300, 300), pt(300, 420)}, 100, 210, true},
		{"too far apart: the first", phone, []render.Point{pt(300, 300), pt(300, 900)}, 100, 100, false},
		{"too far apart, the first out of sight", phone, []render.Point{pt(300, 500), pt(300, 1500)}, 100, 350, true},
		{"sideways", v, []render.Point{pt(850, 300), pt(1000, 300)}, 525, 100, true},
		{"under the minimap: centred", mapped, []render.Point{pt(800, 150)}, 400, 0, true},
		{"under the minimap, with another", mapped, []render.Point{pt(300, 300), pt(800, 150)}, 150, 0, true},
		{"beside the minimap", mapped, []render.Point{pt(650, 300)}, 100, 100, false},
		{"brought under the minimap: centred", mapped, []render.Point{pt(850, 1000)}, 450, 700, true},
	} {
		left, top, move := playground.FollowAll(tt.v, tt.pts, playground.Margin{X: 60, Y: 60})
		if left != tt.left || top != tt.top || move != tt.move {
			t.Errorf("%s: FollowAll(%v) = %v, %v, %v; want %v, %v, %v", tt.name, tt.pts, left, top, move, tt.left, tt.top, tt.move)
		}
	}
}

func TestFindAndLineage(t *testing.T) {
	t.Parallel()
	p := open(t, "", "#script="+b64("submit fetch\nsubmit parse fetch\nsubmit Parse2 parse\nsubmit index parse zz\nsubmit other\n")+"&step=end")
	for q, want := range map[string]string{"parse": "parse", "PAR": "parse", "2": "Parse2", "z": "zz", " index ": "index"} {
		if got, ok := p.Find(q); !ok || got != want {
			t.Errorf("Find(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
	if _, ok := p.Find("nope"); ok {
		t.Error("Find(nope) found something")
	}
	if _, ok := p.Find(" "); ok {
		t.Error("an empty search found something")
	}
	if got := fmt.Sprint(p.TaskNames()); got != "[fetch parse Parse2 zz index other]" {
		t.Errorf("TaskNames = %s", got)
	}
	l := p.Lineage("parse")
	if fmt.Sprint(l.Up) != "[fetch]" || fmt.Sprint(l.Down) != "[Parse2 index]" {
		t.Errorf("lineage of parse: up %v, down %v", l.Up, l.Down)
	}
	if fmt.Sprint(l.Edges) != "[[fetch parse] [parse Parse2] [parse index]]" {
		t.Errorf("edges %v", l.Edges)
	}
	if l := p.Lineage("other"); len(l.Up)+len(l.Down)+len(l.Edges) != 0 {
		t.Errorf("a lone task has lineage %+v", l)
	}
}

func TestWindow(t *testing.T) {
	t.Parallel()
	v := playground.Scroll{Left: 1000, Top: 500, Width: 800, Height: 600}
	r := playground.Window(v, 0, 34, 0.5)
	if want := (playground.Rect{X0: 1600, Y0: 632, X1: 4000, Y1: 2432}); r != want {
		t.Fatalf("Window = %+v, want %+v", r, want)
	}
	for _, tt := range []struct {
		x, y float64
		want bool
	}{{2000, 1000, true}, {1590, 700, true}, {1500, 700, false}, {2000, 2450, true}, {2000, 2500, false}} {
		if got := r.Holds(tt.x, tt.y, 150, 44); got != tt.want {
			t.Errorf("Holds(%v, %v) = %v", tt.x, tt.y, got)
		}
	}
	// What the view shows is always inside its window.
	seen := playground.Seen(v, 0, 34, 0.5)
	if want := (playground.Rect{X0: 2000, Y0: 932, X1: 3600, Y1: 2132}); seen != want {
		t.Errorf("Seen = %+v, want %+v", seen, want)
	}
	if !r.Contains(seen) {
		t.Errorf("the window %+v does not hold the view %+v", r, seen)
	}
}

func TestCrosses(t *testing.T) {
	t.Parallel()
	r := playground.Rect{X0: 0, Y0: 0, X1: 100, Y1: 100}
	for _, tt := range []struct {
		x0, y0, x1, y1, pad float64
		want                bool
	}{
		{50, 50, 60, 60, 0, true},       // inside
		{-50, 50, 150, 50, 0, true},     // through
		{-50, -50, 150, 150, 0, true},   // diagonal through
		{-50, 0, 0, -50, 0, false},      // past the corner
		{-50, 0, 0, -50, 30, true},      // past the corner, widened
		{200, 0, 200, 300, 0, false},    // beside, parallel
		{200, 0, 200, 300, 100, true},   // beside, widened to it
		{-10, 200, 300, 150, 0, false},  // below
		{150, -40, -40, 150, 0, true},   // cuts the corner
		{300, -500, -200, 600, 0, true}, // long and steep
	} {
		if got := r.Crosses(tt.x0, tt.y0, tt.x1, tt.y1, tt.pad); got != tt.want {
			t.Errorf("Crosses(%v, %v, %v, %v, pad %v) = %v", tt.x0, tt.y0, tt.x1, tt.y1, tt.pad, got)
		}
	}
}

// TestLogBack holds stepping back by one to drawing the whole log: the
// lines kept, less the ones removed, after the ones prepended, are the log.
func TestLogBack(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"?scenario=wide-1000", "?scenario=diamond-redrive", "?scenario=outage"} {
		p := playground.New()
		if _, _, err := p.Open(q, ""); err != nil {
			t.Fatal(err)
		}
		s := p.Session()
		for _, k := range []int{1, 2, 3, s.Len() / 3, s.Len() / 2, s.Len() - 1} {
			if k < 1 || k > s.Len() {
				continue
			}
			p.Seek(k)
			drawn, _ := p.Log()
			p.Seek(k - 1)
			want, wantMore := p.Log()
			remove, prepend, more := p.LogBack(len(drawn))
			got := append(append([]session.LogEntry(nil), prepend...), drawn[:len(drawn)-remove]...)
			if !slices.Equal(got, want) || more != wantMore {
				t.Fatalf("%s, back from step %d: %d lines (%q), want %d (%q)", q, k, len(got), more, len(want), wantMore)
			}
		}
	}
}

// TestAGraphTooBigOpensFitted lays out every library scenario's graph and
// asks the zoom it opens at in a desktop stage and a phone's: a graph too
// big for the stage opens fitted, wholly in view, as Fit shows it, when
// that keeps it at least OpenFittedMin of its size (wide-1000); one bigger still opens at its size (chain-200, outage); one
// that fits opens at 100%.
func TestAGraphTooBigOpensFitted(t *testing.T) {
	t.Parallel()
	for _, stage := range []struct {
		name   string
		vw, vh float64
		fitted []string // the scenarios that open fitted, below 100%
	}{
		{"Desktop", 860 - 16, 560 - 50, []string{"retry-storm", "retry-storm-jitter", "wide-1000"}},
		{"Phone", 390 - 16, 420 - 50, []string{"blocked-on-arrival", "retry-back-of-line", "retry-storm", "retry-storm-jitter", "wide-1000"}},
	} {
		t.Run(stage.name, func(t *testing.T) {
			var fitted []string
			for _, e := range scenario.Library() {
				s, err := session.New(e.Text, scenario.Options{})
				if err != nil {
					t.Fatal(err)
				}
				nodes, _ := playground.GraphNodes(s.GraphAt(playground.StepEnd))
				l := playground.LayOut(nodes)
				z := playground.AutoZoom(l.Width, l.Height, stage.vw, stage.vh)
				fit := playground.FitZoom(l.Width, l.Height, stage.vw, stage.vh)
				fits := l.Width <= stage.vw && l.Height <= stage.vh
				switch {
				case fits && z != 1:
					t.Errorf("%s (%v×%v) fits the stage and opens at %v, want 1", e.Name, l.Width, l.Height, z)
				case !fits && fit >= playground.OpenFittedMin && z != fit:
					t.Errorf("%s (%v×%v) opens at %v, not fitted (%v) as Fit shows it", e.Name, l.Width, l.Height, z, fit)
				case !fits && fit < playground.OpenFittedMin && z != 1:
					t.Errorf("%s (%v×%v) would fit only at %v, and opens at %v, want 1", e.Name, l.Width, l.Height, fit, z)
				case z < 1 && (l.Width*z > stage.vw+0.5 || l.Height*z > stage.vh+0.5):
					t.Errorf("%s opens at %v: %v×%v, not wholly in the stage's %v×%v", e.Name, z, l.Width*z, l.Height*z, stage.vw, stage.vh)
				}
				if z < 1 {
					fitted = append(fitted, e.Name)
				}
			}
			slices.Sort(fitted)
			if !slices.Equal(fitted, stage.fitted) {
				t.Errorf("opened fitted: %v, want %v", fitted, stage.fitted)
			}
		})
	}
}

// TestTabStops: a small graph has every task in the Tab order; a big one
// only the few tasks the step is about, so that Tab crosses it.
func TestTabStops(t *testing.T) {
	t.Parallel()
	small := open(t, "?scenario=diamond-redrive&step=14", "")
	if all, stops := small.TabStops(14); !all || stops != nil {
		t.Errorf("diamond-redrive: all %v, stops %v", all, stops)
	}
	w := open(t, "?scenario=wide-1000", "")
	s := w.Session()
	release := stepOf(t, s, "complete download", 1)
	for _, tt := range []struct {
		name string
		k    int
		want func(map[string]bool) bool
	}{
		{"NothingRunYetStopsAtTheFirstTask", 0, func(m map[string]bool) bool { return len(m) == 1 && m["download"] }},
		{"ASubmitStopsAtItsTask", 3, func(m map[string]bool) bool { return len(m) == 1 && m["shard-0002"] }},
		{"ThousandReleasedStopAtTheFirstFew", release, func(m map[string]bool) bool {
			return len(m) == playground.TabStopsMax && m["download"] && m["shard-0001"]
		}},
	} {
		all, stops := w.TabStops(tt.k)
		if all || !tt.want(stops) {
			t.Errorf("%s: step %d: all %v, stops %v", tt.name, tt.k, all, stops)
		}
		if !all {
			focus := w.Focus(tt.k)
			for task := range stops {
				if tt.k > 0 && !slices.Contains(focus, task) {
					t.Errorf("%s: %s is a stop but not what step %d is about", tt.name, task, tt.k)
				}
			}
		}
	}
}

// TestOpenZoomKeepsTextsReadable: no library scenario opens at a zoom
// that draws text under MinTextPx, but the ones with compact grids,
// opened fitted as an overview whose texts are not drawn (Readable is
// false there).
func TestOpenZoomKeepsTextsReadable(t *testing.T) {
	t.Parallel()
	for _, e := range scenario.Library() {
		s, err := session.New(e.Text, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		nodes, _ := playground.GraphNodes(s.GraphAt(playground.StepEnd))
		l := playground.LayOut(nodes)
		for _, stage := range [][2]float64{{860 - 16, 560 - 50}, {390 - 16, 420 - 50}} {
			z := playground.OpenZoom(l, stage[0], stage[1])
			if !playground.Readable(z) && len(l.Grids) == 0 {
				t.Errorf("%s opens at %v in %v: its labels %v px", e.Name, z, stage, z*playground.SmallestTextPx)
			}
		}
	}
	if playground.Readable(0.89) || !playground.Readable(0.9) {
		t.Error("Readable's threshold is not 9 px of a 10 px label")
	}
}

// TestFitNeverDrawsTextTooSmall: Fit shows every library scenario, on a
// desktop's stage and a phone's, at a zoom where its texts are drawn
// MinTextPx or more on the screen, or, for a graph of compact grids, as
// an overview without texts that shows the whole graph at no less than
// OpenFittedMin; the zoom buttons stop there. retry-storm-jitter's six
// tasks were fitted at 59%, state labels 5.9 px.
func TestFitNeverDrawsTextTooSmall(t *testing.T) {
	t.Parallel()
	for _, e := range scenario.Library() {
		s, err := session.New(e.Text, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		nodes, _ := playground.GraphNodes(s.GraphAt(playground.StepEnd))
		l := playground.LayOut(nodes)
		for _, stage := range [][2]float64{{860 - 16, 560 - 50}, {390 - 16, 420 - 50}} {
			fit, least := playground.FitFor(l, stage[0], stage[1]), playground.LeastZoom(l, stage[0], stage[1])
			if fit < least {
				t.Errorf("%s in %v: Fit shows it at %v, under the least zoom %v", e.Name, stage, fit, least)
			}
			if out := playground.ZoomWithin(least/playground.ZoomFactor, least); out != least {
				t.Errorf("%s in %v: zoomed out from the least zoom %v to %v", e.Name, stage, least, out)
			}
			if playground.Readable(least) {
				continue
			}
			whole := l.Width*least <= stage[0]+0.5 && l.Height*least <= stage[1]+0.5
			if len(l.Grids) == 0 || !whole || least < playground.OpenFittedMin {
				t.Errorf("%s in %v: zooms out to %v, its texts %v px: grids %d, whole %v", e.Name, stage, least, least*playground.SmallestTextPx, len(l.Grids), whole)
			}
		}
	}
	jitter, _ := scenario.Lookup("retry-storm-jitter")
	s, err := session.New(jitter.Text, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := playground.GraphNodes(s.GraphAt(playground.StepEnd))
	if z := playground.FitFor(playground.LayOut(nodes), 860-16, 560-50); z != playground.ReadableZoom {
		t.Errorf("retry-storm-jitter is fitted at %v, want %v", z, playground.ReadableZoom)
	}
	if why := playground.LeastZoomWhy(playground.ReadableZoom); !strings.Contains(why, "minimap") {
		t.Errorf("at the readable least zoom, − says %q", why)
	}
}

// TestRowsWrapToTheStage: laid out for a stage, no library scenario
// without compact grids is wider than the stage at 90%, on a desktop or
// on a phone, and retry-storm-jitter's six tasks, one row too wide for a
// phone, open there readable and whole (in rows of two). The outage,
// whose wrapped rows fit the stage at 27%, still opens readable.
func TestRowsWrapToTheStage(t *testing.T) {
	t.Parallel()
	for _, e := range scenario.Library() {
		s, err := session.New(e.Text, scenario.Options{})
		if err != nil {
			t.Fatal(err)
		}
		nodes, _ := playground.GraphNodes(s.GraphAt(playground.StepEnd))
		for _, stage := range [][2]float64{{860 - 16, 560 - 50}, {358 - 16, 420 - 50}} {
			l := playground.LayOutRow(nodes, playground.RowFor(stage[0]))
			if len(l.Grids) == 0 && l.Width*playground.ReadableZoom > stage[0] {
				t.Errorf("%s in %v: %v wide, rows of %d boxes", e.Name, stage, l.Width, playground.RowFor(stage[0]))
			}
			z := playground.OpenZoom(l, stage[0], stage[1])
			if e.Name == "retry-storm-jitter" && (z < playground.ReadableZoom || !playground.Fits(l.Width*z, l.Height*z, stage[0], stage[1])) {
				t.Errorf("%s in %v opens at %v, %v×%v", e.Name, stage, z, l.Width*z, l.Height*z)
			}
			// Of the graphs with grids, wide-1000 (two boxes) opens as an
			// overview, the outage (forty-four) readable.
			if e.Name == "wide-1000" && z >= playground.ReadableZoom || e.Name == "outage" && z < playground.ReadableZoom {
				t.Errorf("%s in %v opens at %v", e.Name, stage, z)
			}
		}
	}
	if playground.RowFor(0) != 0 || playground.RowFor(342) != 2 {
		t.Errorf("RowFor(0) = %d, RowFor(342) = %d, want 0 and 2", playground.RowFor(0), playground.RowFor(342))
	}
}
