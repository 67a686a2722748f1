package hostile

import (
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

// TestScriptsParse: every script is one the parser accepts (an attack
// that is refused as a syntax error attacks nothing), and is as large as
// its doc says.
func TestScriptsParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   string
		min, max int
	}{
		{"FanOutRedriven", FanOutRedriven(), 60 << 10, 64 << 10},
		{"LongRoot", LongRoot(256, 100<<10), 99 << 10, 100 << 10},
		{"ChainOf", ChainOf(1000, "c0"), 1000 * len("submit c1 c0\n"), 1000 * len("submit c1000 c999\n")},
		{"Fill", Fill(ChainOf(10, "x"), "submit x c10\n"), MaxScript - len("submit x c10\n"), MaxScript},
		{"Submits", Submits(10 << 10), 10 << 10, 10<<10 + len("submit s0000000\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n := len(tc.script); n < tc.min || n > tc.max {
				t.Errorf("%d bytes, want %d to %d", n, tc.min, tc.max)
			}
			if _, err := scenario.NewStream(tc.script, scenario.Options{}); err != nil {
				t.Errorf("does not parse: %v", err)
			}
		})
	}
}

// TestSVGQueryIsAPlaygroundLink: the query reads back, as the site reads
// it, to the same script, animated or not.
func TestSVGQueryIsAPlaygroundLink(t *testing.T) {
	script := FanOutRedriven()
	for _, animate := range []bool{false, true} {
		q := SVGQuery(script, animate)
		link, errs := playground.ParseLink(strings.TrimPrefix(q, "?"), "")
		if len(errs) > 0 {
			t.Fatalf("animate=%v: %v", animate, errs)
		}
		if !link.HasScript || link.Script != script {
			t.Errorf("animate=%v: the link does not carry the script back", animate)
		}
		if got := strings.Contains(q, "&animate=1"); got != animate {
			t.Errorf("animate=%v: query %.60q…", animate, q)
		}
		if len(q) > 9<<10 {
			t.Errorf("animate=%v: query of %d bytes, want about 8 KB deflated", animate, len(q))
		}
	}
}
