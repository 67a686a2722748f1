package render

import "github.com/dagq/dagq/core"

// Style is how a task in one state is drawn: a box filled with Fill,
// outlined with Stroke, its text in Text, and under the name the state's
// Icon and Label, so that states are told apart without colour too.
type Style struct {
	Fill, Stroke, Text string // CSS colours
	Icon               string // a short glyph, e.g. "✓" for SUCCEEDED
	Label              string // the state name, e.g. "SUCCEEDED"
}

// StyleOf returns the style of a state. The strokes are the Okabe–Ito
// palette, which stays distinct under the common colour-vision
// deficiencies; the fills are light tints of them, and each text colour is
// a dark shade with a contrast above 7:1 on its fill. A BLOCKED box is
// also dashed (by the SVG's style sheet), DEAD and BLOCKED being the two
// states a reader must not confuse.
//
//	PENDING    …  grey            waiting on dependencies
//	READY      ●  blue            in the line
//	RUNNING    ▶  orange          leased
//	DELAYED    ◷  yellow          waiting out its retry delay
//	SUCCEEDED  ✓  bluish green    done
//	DEAD       ✗  vermillion      in the dead-letter queue
//	BLOCKED    ⊘  reddish purple  in the dead-letter queue, behind a dead task
//
// The glyphs are plain text characters found in the common monospace
// fonts (DejaVu Sans Mono, Menlo, Consolas), not emoji, which would come
// out in their own colours or as a missing-glyph box.
//
// Any other state, "" included, is drawn plain, white with a grey outline,
// its label the state as given and no icon.
func StyleOf(s core.State) Style {
	switch s {
	case core.Pending:
		return Style{Fill: "#f0f0f0", Stroke: "#767676", Text: "#303030", Icon: "…", Label: "PENDING"}
	case core.Ready:
		return Style{Fill: "#e0eff9", Stroke: "#0072b2", Text: "#00406a", Icon: "●", Label: "READY"}
	case core.Running:
		return Style{Fill: "#fdf0d2", Stroke: "#e69f00", Text: "#583a00", Icon: "▶", Label: "RUNNING"}
	case core.Delayed:
		return Style{Fill: "#fcf8d6", Stroke: "#f0e442", Text: "#4a4300", Icon: "◷", Label: "DELAYED"}
	case core.Succeeded:
		return Style{Fill: "#d9f2ea", Stroke: "#009e73", Text: "#004d38", Icon: "✓", Label: "SUCCEEDED"}
	case core.Dead:
		return Style{Fill: "#fae2d3", Stroke: "#d55e00", Text: "#732a00", Icon: "✗", Label: "DEAD"}
	case core.Blocked:
		return Style{Fill: "#f6e3ee", Stroke: "#cc79a7", Text: "#66204a", Icon: "⊘", Label: "BLOCKED"}
	}
	return Style{Fill: "#ffffff", Stroke: "#767676", Text: "#303030", Label: string(s)}
}
