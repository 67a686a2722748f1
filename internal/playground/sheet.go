package playground

// Sheet is where a sheet over a phone's screen goes (the task detail
// panel): at the bottom or the top of the screen, at most MaxHeight
// pixels tall.
type Sheet struct {
	Top       bool
	MaxHeight float64
}

// SheetMin is the least height a sheet is given, in pixels; SheetShare
// the most of the screen's height it takes.
const (
	SheetMin   = 220
	SheetShare = 0.45
)

// PlaceSheet places a sheet on a screen screenH pixels tall so that it
// covers nothing of the band from clearTop to clearBottom (the task it is
// about, with its popover): at the bottom, under the band, if there is
// room there for SheetMin pixels; else at the top, over it, if there is
// room there; else at the bottom, as tall as SheetMin, wherever the band
// is (the band then fills the screen). Either way it takes at most
// SheetShare of the screen, and at least SheetMin (or all of a smaller
// screen). The cost is O(1).
func PlaceSheet(screenH, clearTop, clearBottom float64) Sheet {
	const gap = 8
	most := max(SheetMin, screenH*SheetShare)
	least := min(SheetMin, screenH)
	below := screenH - clearBottom - gap
	above := clearTop - gap
	switch {
	case below >= least:
		return Sheet{MaxHeight: min(most, below)}
	case above >= least:
		return Sheet{Top: true, MaxHeight: min(most, above)}
	}
	return Sheet{MaxHeight: least}
}
