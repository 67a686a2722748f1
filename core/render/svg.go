package render

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/escape"
)

// Options says what to show besides the graph. The zero Options draws
// every task plain.
type Options struct {
	States    map[string]core.State // state of each task; a task without one is drawn plain
	Reasons   map[string]string     // DLQ reason per DEAD/BLOCKED task, shown as a <title> tooltip
	Highlight map[string]bool       // tasks to emphasise, e.g. the tasks a cycle check visited
	Caption   string                // a line or three under the drawing, wrapped to its width; "" for none
	Title     string                // the drawing's <title>; "" for a count of tasks and edges
}

// maxName is the most characters of a name a box shows; a longer name is
// cut, ending in "…", and shown whole in the box's tooltip.
const maxName = 17

// WriteSVG writes a standalone SVG document of the graph laid out as l,
// normally by [LayOut] on the same nodes. Edges are drawn first, so boxes
// hide the parts of long edges that pass behind them. The document keeps
// this structure, which tests and style sheets may rely on:
//
//	<svg class="dagq" …>
//	  <title>…</title> <style>…</style> <defs>…</defs>
//	  <g class="edges">
//	    <path class="edge" data-from="DEP" data-to="TASK" d="…"/>   one per edge
//	  </g>
//	  <g class="tasks">
//	    <g class="task" data-task="NAME" data-state="STATE" transform="translate(X,Y)">
//	      <title>NAME — STATE: REASON</title>
//	      <rect class="box" …/>
//	      <text class="name" …>NAME</text>
//	      <text class="state" …>ICON LABEL</text>
//	    </g>                                                              one per task
//	  </g>
//	</svg>
//
// X,Y is the centre of the task's box; data-state is "" for a task with no
// state; a highlighted task also has data-highlight="true" and a dashed
// halo (<rect class="halo">) before its box. The embedded style sheet
// colours boxes by data-state, scoped to svg.dagq, so a page may restyle
// an inline drawing and a script may change a state by setting
// data-state; the same colours are also given as attributes, for viewers
// that ignore style sheets.
//
// WriteSVG returns an error, having written nothing, if a task has no
// position in l; otherwise only the writer's errors.
func WriteSVG(w io.Writer, nodes []Node, l Layout, opt Options) error {
	g := newGraph(nodes)
	for _, name := range g.names {
		if _, ok := l.Pos[name]; !ok {
			return fmt.Errorf("render: task %q has no position in the layout", name)
		}
	}
	edges := 0
	for _, deps := range g.deps {
		edges += len(deps)
	}
	s := svgWriter{bufio.NewWriter(w)}
	var caption [][]string
	if opt.Caption != "" {
		caption = captionLines([]Frame{{Caption: opt.Caption}}, l.Width)
	}
	width, height := num(captionWidth(l, caption)), num(l.Height+captionHeight(caption))
	s.raw(`<svg xmlns="http://www.w3.org/2000/svg" class="dagq" width="` + width + `" height="` + height +
		`" viewBox="0 0 ` + width + " " + height + `" role="img">` + "\n")
	s.raw("<title>")
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("task graph: %s, %s", plural(len(g.names), "task"), plural(edges, "edge"))
	}
	s.text(title)
	s.raw("</title>\n")
	s.raw(styleSheet)
	s.raw(`<defs><marker id="dagq-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,1L10,5L0,9z" fill="#8c8c8c"/></marker></defs>` + "\n")

	s.raw(`<g class="edges">` + "\n")
	for v, deps := range g.deps {
		for _, u := range deps {
			s.raw(`<path class="edge" data-from="`)
			s.text(g.names[u])
			s.raw(`" data-to="`)
			s.text(g.names[v])
			s.raw(`" d="` + EdgePath(l.Pos[g.names[u]], l.Pos[g.names[v]], l) +
				`" fill="none" stroke="#8c8c8c" marker-end="url(#dagq-arrow)"/>` + "\n")
		}
	}
	s.raw("</g>\n")

	box, halo := boxGeometry(l)
	s.raw(`<g class="tasks">` + "\n")
	for _, name := range g.names {
		state := opt.States[name]
		st := StyleOf(state)
		p := l.Pos[name]
		s.raw(`<g class="task" data-task="`)
		s.text(name)
		s.raw(`" data-state="`)
		s.text(string(state))
		s.raw(`"`)
		if opt.Highlight[name] {
			s.raw(` data-highlight="true"`)
		}
		s.raw(` transform="translate(` + num(p.X) + "," + num(p.Y) + `)">`)
		s.raw("<title>")
		tip := name
		if st.Label != "" {
			tip += " — " + st.Label
			if r := opt.Reasons[name]; r != "" {
				tip += ": " + r
			}
		} else if r := opt.Reasons[name]; r != "" {
			tip += " — " + r
		}
		s.text(tip)
		s.raw("</title>")
		if opt.Highlight[name] {
			s.raw(`<rect class="halo" ` + halo + ` fill="none" stroke="#000000" stroke-dasharray="3 2"/>`)
		}
		s.raw(`<rect class="box" ` + box + ` fill="` + st.Fill + `" stroke="` + st.Stroke + `"/>`)
		label := st.Label
		if st.Icon != "" {
			label = st.Icon + " " + label
		}
		nameY := "-4"
		if label == "" {
			nameY = "4" // alone: centred
		}
		s.raw(`<text class="name" y="` + nameY + `" text-anchor="middle" fill="` + st.Text + `">`)
		s.text(shorten(name, maxName))
		s.raw(`</text>`)
		if label != "" {
			s.raw(`<text class="state" y="14" text-anchor="middle" fill="` + st.Text + `">`)
			s.text(label)
			s.raw(`</text>`)
		}
		s.raw("</g>\n")
	}
	s.raw("</g>\n")
	for _, lines := range caption {
		s.raw(`<text class="caption">`)
		for k, line := range lines {
			s.raw(`<tspan x="` + num(margin) + `" y="` + num(l.Height+captionLine*float64(k+1)) + `">`)
			s.text(line)
			s.raw(`</tspan>`)
		}
		s.raw("</text>\n")
	}
	s.raw("</svg>\n")
	return s.Flush()
}

// boxGeometry returns the attributes of a task's box and of its halo,
// centred on the task's position.
func boxGeometry(l Layout) (box, halo string) {
	box = `x="-` + num(l.NodeW/2) + `" y="-` + num(l.NodeH/2) + `" width="` + num(l.NodeW) + `" height="` + num(l.NodeH) + `" rx="6"`
	halo = `x="-` + num(l.NodeW/2+4) + `" y="-` + num(l.NodeH/2+4) + `" width="` + num(l.NodeW+8) +
		`" height="` + num(l.NodeH+8) + `" rx="9"`
	return box, halo
}

// styleSheet is the embedded style: the look of every part, and each
// state's colours keyed by data-state, scoped to svg.dagq.
var styleSheet = func() string {
	css := "<style>\n" +
		"svg.dagq{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,\"DejaVu Sans Mono\",monospace;font-size:12px}\n" +
		"svg.dagq .edge{fill:none;stroke:#8c8c8c;stroke-width:1.25}\n" +
		"svg.dagq .task .box{stroke-width:1.5}\n" +
		"svg.dagq .task .name{font-weight:600}\n" +
		"svg.dagq .task .state{font-size:11px}\n" +
		"svg.dagq .task .halo{fill:none;stroke:#000000;stroke-width:1.5;stroke-dasharray:3 2}\n" +
		"svg.dagq .task[data-highlight=\"true\"] .box{stroke-width:3}\n" +
		"svg.dagq .caption{fill:#222222;font-size:13px}\n"
	for _, state := range append(core.States(), "") {
		st := StyleOf(state)
		sel := `svg.dagq .task[data-state="` + string(state) + `"]`
		css += sel + " .box{fill:" + st.Fill + ";stroke:" + st.Stroke + "}\n"
		css += sel + " text{fill:" + st.Text + "}\n"
	}
	css += "svg.dagq .task[data-state=\"BLOCKED\"] .box{stroke-dasharray:5 3}\n"
	return css + "</style>\n"
}()

// svgWriter writes markup; text escapes for XML text and attribute values.
type svgWriter struct{ *bufio.Writer }

func (s svgWriter) raw(m string) { s.WriteString(m) }

// text writes s escaped (& < > " ' and control characters), with any
// character XML cannot hold replaced by U+FFFD.
// Its error stays in the bufio.Writer, whose Flush returns it.
func (s svgWriter) text(t string) { _ = escape.XMLText(s, t) }

// shorten cuts s to at most n characters, the last of them "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n-1 {
			break
		}
		k++
	}
	return s[:i] + "…"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
