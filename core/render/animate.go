package render

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
)

// Frame is the graph at one moment of an animation: the state of every
// task there (a task without a state has not arrived yet and is not drawn),
// the tasks to emphasise (a refused cycle's path) and a caption.
type Frame struct {
	States    map[string]core.State
	Highlight map[string]bool
	Caption   string
}

// AnimateOptions sets the pace of an animation.
type AnimateOptions struct {
	Title string        // the drawing's <title>; "" for a count of tasks and frames
	Frame time.Duration // how long each frame shows; 0 means DefaultFrame
	Hold  time.Duration // how much longer the last frame shows before the loop; 0 means DefaultHold
}

// The default pace of an animation.
const (
	DefaultFrame = 1200 * time.Millisecond
	DefaultHold  = 3 * time.Second
)

// WriteAnimatedSVG writes a standalone SVG that plays frames in order and
// loops: each task appears when it arrives and changes colour, icon and
// label in place as its state changes, a highlighted path is haloed, and
// the caption under the drawing is the current frame's. l is the layout of
// every node, normally [LayOut] of all of them: a layout is stable as a
// graph grows, so every frame keeps its boxes where the last one has them.
//
// The animation is declarative — CSS keyframes with step timing, no
// script, no external reference — so it plays wherever an SVG image does,
// an <img> in a README included. Without animation (a viewer that runs
// none, or prefers-reduced-motion) the drawing shows the last frame.
//
// Keyframes are shared between the elements whose timelines are the same,
// so the size grows with the distinct timelines, not with tasks × frames.
// It returns an error, having written nothing, if a node has no position
// in l, or if there are no frames.
func WriteAnimatedSVG(w io.Writer, nodes []Node, l Layout, frames []Frame, opt AnimateOptions) error {
	if len(frames) == 0 {
		return fmt.Errorf("render: no frames to animate")
	}
	g := newGraph(nodes)
	for _, name := range g.names {
		if _, ok := l.Pos[name]; !ok {
			return fmt.Errorf("render: task %q has no position in the layout", name)
		}
	}
	step, hold := opt.Frame, opt.Hold
	if step <= 0 {
		step = DefaultFrame
	}
	if hold <= 0 {
		hold = DefaultHold
	}
	total := time.Duration(len(frames))*step + hold
	pct := func(i int) string {
		return strconv.FormatFloat(100*float64(time.Duration(i)*step)/float64(total), 'f', 2, 64) + "%"
	}
	last := frames[len(frames)-1]

	// Keyframes, shared by content: kf returns the name of the rules.
	var keyframes []string
	byRules := map[string]int{}
	kf := func(rules string) string {
		i, ok := byRules[rules]
		if !ok {
			i = len(keyframes)
			byRules[rules] = i
			keyframes = append(keyframes, rules)
		}
		return "k" + strconv.Itoa(i)
	}
	// switches writes opacity keyframes: visible in the frames where on
	// says so, hidden in the others.
	switches := func(on func(i int) bool) string {
		var b strings.Builder
		prev := -1
		for i := range frames {
			v := 0
			if on(i) {
				v = 1
			}
			if v != prev {
				b.WriteString(pct(i) + "{opacity:" + strconv.Itoa(v) + "}")
				prev = v
			}
		}
		return kf(b.String())
	}

	caption := captionLines(frames, l.Width)
	height := l.Height + captionHeight(caption)
	s := svgWriter{bufio.NewWriter(w)}
	width, hs := num(captionWidth(l, caption)), num(height)
	s.raw(`<svg xmlns="http://www.w3.org/2000/svg" class="dagq dagq-film" width="` + width + `" height="` + hs +
		`" viewBox="0 0 ` + width + " " + hs + `" role="img">` + "\n")
	s.raw("<title>")
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("task graph: %s, %s", plural(len(g.names), "task"), plural(len(frames), "frame"))
	}
	s.text(title)
	s.raw("</title>\n")

	// The body first, into a buffer: it names the keyframes the style
	// sheet must then hold.
	var body strings.Builder
	b := svgWriter{bufio.NewWriter(&body)}
	b.raw(`<defs><marker id="dagq-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,1L10,5L0,9z" fill="#8c8c8c"/></marker></defs>` + "\n")
	// A task is drawn from the frame it arrives in, or from the first frame
	// a task that waits on it is there, whichever comes first: until it
	// arrives it is drawn plain, as a name waited on.
	appear := map[string]int{}
	for i, f := range frames {
		for name, st := range f.States {
			if _, ok := appear[name]; !ok && st != "" {
				appear[name] = i
			}
		}
	}
	for v, deps := range g.deps {
		a, ok := appear[g.names[v]]
		if !ok {
			continue
		}
		for _, u := range deps {
			if cur, ok := appear[g.names[u]]; !ok || a < cur {
				appear[g.names[u]] = a
			}
		}
	}
	present := func(name string) func(i int) bool {
		return func(i int) bool {
			a, ok := appear[name]
			return ok && i >= a
		}
	}
	b.raw(`<g class="edges">` + "\n")
	for v, deps := range g.deps {
		for _, u := range deps {
			name := g.names[v]
			b.raw(`<path class="edge an ` + switches(present(name)) + `" data-from="`)
			b.text(g.names[u])
			b.raw(`" data-to="`)
			b.text(name)
			b.raw(`" d="` + EdgePath(l.Pos[g.names[u]], l.Pos[name], l) + `" marker-end="url(#dagq-arrow)"/>` + "\n")
		}
	}
	b.raw("</g>\n")

	box, halo := boxGeometry(l)
	b.raw(`<g class="tasks">` + "\n")
	for _, name := range g.names {
		p := l.Pos[name]
		final := last.States[name]
		st := StyleOf(final)
		b.raw(`<g class="task an ` + switches(present(name)) + `" data-task="`)
		b.text(name)
		b.raw(`" data-state="`)
		b.text(string(final))
		b.raw(`" transform="translate(` + num(p.X) + "," + num(p.Y) + `)"><title>`)
		b.text(name)
		b.raw("</title>")
		if slices.ContainsFunc(frames, func(f Frame) bool { return f.Highlight[name] }) {
			b.raw(`<rect class="halo an ` + switches(func(i int) bool { return frames[i].Highlight[name] }) + `" ` + halo + `/>`)
		}
		// The box's colours, frame by frame.
		var colours strings.Builder
		var seen []core.State
		prev := core.State("?")
		for i, f := range frames {
			s := f.States[name]
			if !present(name)(i) || s == prev {
				continue
			}
			prev = s
			fs := StyleOf(s)
			colours.WriteString(pct(i) + "{fill:" + fs.Fill + ";stroke:" + fs.Stroke + "}")
			if s != "" && !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
		b.raw(`<rect class="box an ` + kf(colours.String()) + `" ` + box + ` fill="` + st.Fill + `" stroke="` + st.Stroke + `"/>`)
		b.raw(`<text class="name" y="-4" text-anchor="middle">`)
		b.text(shorten(name, maxName))
		b.raw(`</text>`)
		// One label per state the task takes, shown while it is in it.
		for _, state := range seen {
			ls := StyleOf(state)
			opacity := ""
			if state != final {
				opacity = ` opacity="0"`
			}
			b.raw(`<text class="state an ` + switches(func(i int) bool { return frames[i].States[name] == state }) +
				`" y="14" text-anchor="middle"` + opacity + `>`)
			b.text(ls.Icon + " " + ls.Label)
			b.raw(`</text>`)
		}
		b.raw("</g>\n")
	}
	b.raw("</g>\n")

	b.raw(`<g class="captions">` + "\n")
	for i, lines := range caption {
		opacity := ""
		if i != len(caption)-1 {
			opacity = ` opacity="0"`
		}
		b.raw(`<text class="caption an ` + switches(func(j int) bool { return j == i }) + `"` + opacity + `>`)
		for k, line := range lines {
			b.raw(`<tspan x="` + num(margin) + `" y="` + num(l.Height+captionLine*float64(k+1)) + `">`)
			b.text(line)
			b.raw(`</tspan>`)
		}
		b.raw("</text>\n")
	}
	b.raw("</g>\n</svg>\n")
	if err := b.Flush(); err != nil {
		return err
	}

	s.raw(filmStyle)
	s.raw("svg.dagq-film .an{animation:" + strconv.FormatInt(total.Milliseconds(), 10) + "ms step-end infinite}\n")
	for i, rules := range keyframes {
		k := "k" + strconv.Itoa(i)
		s.raw("svg.dagq-film ." + k + "{animation-name:" + k + "}@keyframes " + k + "{" + rules + "}\n")
	}
	s.raw("@media (prefers-reduced-motion:reduce){svg.dagq-film .an{animation:none}}\n</style>\n")
	s.raw(body.String())
	return s.Flush()
}

// filmStyle opens the style sheet of an animation: the look of every part
// (the animations follow).
const filmStyle = "<style>\n" +
	"svg.dagq{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"DejaVu Sans Mono\",monospace;font-size:12px}\n" +
	"svg.dagq .edge{fill:none;stroke:#8c8c8c;stroke-width:1.25}\n" +
	"svg.dagq .task .box{stroke-width:1.5}\n" +
	"svg.dagq .task text{fill:#222222}\n" +
	"svg.dagq .task .name{font-weight:600}\n" +
	"svg.dagq .task .state{font-size:11px}\n" +
	"svg.dagq .task .halo{fill:none;stroke:#000000;stroke-width:2;stroke-dasharray:3 2}\n" +
	"svg.dagq .caption{fill:#222222;font-size:13px}\n"

// Captions: up to captionMax lines of captionLine units each, under the
// drawing, cut to its width at about charWidth units a character.
const (
	captionLine = 18.0
	captionMax  = 3
	charWidth   = 7.9
)

// minCaptionWidth is the narrowest a drawing with a caption gets, so that
// a caption under a small graph still has room for a sentence a line.
const minCaptionWidth = 560.0

// captionWidth is the width of a drawing with these captions.
func captionWidth(l Layout, lines [][]string) float64 {
	if len(lines) == 0 {
		return l.Width
	}
	return max(l.Width, minCaptionWidth)
}

// captionLines wraps each frame's caption to the drawing's width.
func captionLines(frames []Frame, width float64) [][]string {
	perLine := int((max(width, minCaptionWidth) - 2*margin) / charWidth)
	out := make([][]string, len(frames))
	for i, f := range frames {
		out[i] = wrap(f.Caption, perLine, captionMax)
	}
	return out
}

// captionHeight is the band the captions need under the drawing.
func captionHeight(lines [][]string) float64 {
	n := 0
	for _, l := range lines {
		n = max(n, len(l))
	}
	if n == 0 {
		return 0
	}
	return captionLine*float64(n) + margin/2
}

// wrap breaks text into at most most lines of at most width characters,
// at spaces where it can; what does not fit ends in "…".
func wrap(text string, width, most int) []string {
	var lines []string
	words := strings.Fields(text)
	var cur []rune
	for len(words) > 0 {
		w := []rune(words[0])
		switch {
		case len(cur) == 0 && len(w) > width:
			lines = append(lines, string(w[:width-1])+"…")
			words = words[1:]
			continue
		case len(cur) == 0:
			cur = w
		case len(cur)+1+len(w) <= width:
			cur = append(append(cur, ' '), w...)
		default:
			lines = append(lines, string(cur))
			cur = nil
			continue
		}
		words = words[1:]
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	if len(lines) > most {
		lines = lines[:most]
		end := []rune(lines[most-1])
		if len(end) >= width {
			end = end[:width-1]
		}
		lines[most-1] = string(end) + "…"
	}
	return lines
}
