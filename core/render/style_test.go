package render

import (
	"math"
	"strconv"
	"testing"

	"github.com/dagq/dagq/core"
)

func TestStyleOf(t *testing.T) {
	t.Parallel()
	t.Run("EveryStateHasItsOwnLabelIconAndColours", func(t *testing.T) {
		icons, fills, strokes := map[string]core.State{}, map[string]core.State{}, map[string]core.State{}
		for _, s := range core.States() {
			st := StyleOf(s)
			if st.Label != string(s) {
				t.Errorf("%s: label %q", s, st.Label)
			}
			if st.Icon == "" {
				t.Errorf("%s: no icon", s)
			}
			for _, seen := range []struct {
				m map[string]core.State
				v string
			}{{icons, st.Icon}, {fills, st.Fill}, {strokes, st.Stroke}} {
				if other, dup := seen.m[seen.v]; dup {
					t.Errorf("%s and %s share %q", other, s, seen.v)
				}
				seen.m[seen.v] = s
			}
		}
	})
	t.Run("TextIsReadableOnItsFill", func(t *testing.T) {
		for _, s := range append(core.States(), "", "OTHER") {
			st := StyleOf(s)
			if c := contrast(st.Text, st.Fill); c < 7 {
				t.Errorf("%q: text %s on %s has contrast %.2f, want ≥ 7 (WCAG AAA)", s, st.Text, st.Fill, c)
			}
		}
	})
	t.Run("AnUnknownStateIsPlainWithItsName", func(t *testing.T) {
		if st := StyleOf("OTHER"); st.Label != "OTHER" || st.Icon != "" || st.Fill != "#ffffff" {
			t.Errorf("StyleOf(OTHER) = %+v", st)
		}
	})
}

// contrast is the WCAG 2 contrast ratio of two colours #rrggbb.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	lin := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16&0xff) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}
