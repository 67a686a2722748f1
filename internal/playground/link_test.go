package playground_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/playground"
)

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestParseLink(t *testing.T) {
	t.Parallel()
	const script = "submit a\n"
	tests := []struct {
		name, query, fragment string
		want                  playground.Link
		bad                   []string // the parameters reported, in order
	}{
		{"Empty", "", "", playground.Link{}, nil},
		{"ScenarioInTheQuery", "?scenario=diamond-redrive&step=end", "",
			playground.Link{Scenario: "diamond-redrive", Step: playground.StepEnd, HasStep: true}, nil},
		{"FragmentWinsOverQuery", "?scenario=tricky-cycle&step=2", "#step=5&strategy=pk&embed=1",
			playground.Link{Scenario: "tricky-cycle", Step: 5, HasStep: true, Strategy: "pk", Embed: true}, nil},
		{"ScriptWinsOverScenario", "scenario=tricky-cycle", "script=c3VibWl0IGEK",
			playground.Link{Script: script, HasScript: true}, nil},
		{"PaddedScriptIsAccepted", "", "script=c3VibWl0IGEK%3D", playground.Link{Script: script, HasScript: true}, nil},
		{"OtherParametersAreIgnored", "utm=x&embed=0", "", playground.Link{}, nil},
		{"StepLastIsTheEnd", "", "#script=" + b64(script) + "&step=last",
			playground.Link{Script: script, HasScript: true, Step: playground.StepEnd, HasStep: true}, nil},
		{"StrategyInAnyCase", "?scenario=two-roots&strategy=DFS", "",
			playground.Link{Scenario: "two-roots", Strategy: "dfs"}, nil},
		// A bad parameter is reported and left out; the rest holds.
		{"BadStepKeepsTheScenario", "?scenario=two-roots&step=abc", "",
			playground.Link{Scenario: "two-roots"}, []string{"step"}},
		{"BadStepKeepsTheScript", "", "#script=" + b64(script) + "&step=-1",
			playground.Link{Script: script, HasScript: true}, []string{"step"}},
		{"StepWithSign", "?scenario=two-roots&step=+3", "", playground.Link{Scenario: "two-roots"}, []string{"step"}},
		{"BadEmbedKeepsTheRest", "?scenario=two-roots&embed=yes&step=2", "",
			playground.Link{Scenario: "two-roots", Step: 2, HasStep: true}, []string{"embed"}},
		{"UnknownStrategyKeepsTheScript", "", "#script=" + b64(script) + "&strategy=bfs&step=1",
			playground.Link{Script: script, HasScript: true, Step: 1, HasStep: true}, []string{"strategy"}},
		{"UnknownScenario", "?scenario=nope&step=3", "", playground.Link{Step: 3, HasStep: true}, []string{"scenario"}},
		{"BadBase64FallsBackToTheScenario", "?scenario=two-roots", "#script=ab$d",
			playground.Link{Scenario: "two-roots"}, []string{"script"}},
		{"UnknownEncoding", "", "#script=" + b64(script) + "&enc=zstd", playground.Link{}, []string{"script"}},
		{"NotDeflate", "", "#script=" + b64(script) + "&enc=deflate", playground.Link{}, []string{"script"}},
		{"BadEscapeIsOneParameter", "?scenario=%zz&step=2", "", playground.Link{Step: 2, HasStep: true}, []string{"scenario"}},
		{"ManyBad", "?scenario=nope&step=x&embed=2&strategy=y", "", playground.Link{}, []string{"scenario", "step", "embed", "strategy"}},
		{"Panels", "?scenario=two-roots&embed=1&panels=title,dlq,dlq", "", playground.Link{Scenario: "two-roots", Embed: true, Panels: []string{"title", "dlq"}}, nil},
		{"AnUnknownPanelIsLeftOut", "?embed=1&panels=dlq,log", "", playground.Link{Embed: true, Panels: []string{"dlq"}}, []string{"panels"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := playground.ParseLink(tt.query, tt.fragment)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLink = %+v, want %+v", got, tt.want)
			}
			var params []string
			for _, err := range errs {
				var le *playground.LinkError
				if !errors.As(err, &le) {
					t.Fatalf("error %v is not a *LinkError", err)
				}
				if !strings.HasPrefix(err.Error(), "playground: link: "+le.Param+": ") {
					t.Errorf("error %q does not name its parameter", err)
				}
				params = append(params, le.Param)
			}
			if fmt.Sprint(params) != fmt.Sprint(tt.bad) {
				t.Errorf("reported %v (%v), want %v", params, errs, tt.bad)
			}
		})
	}
}

func TestLinkFormats(t *testing.T) {
	t.Parallel()
	t.Run("ShortScriptIsPlainBase64url", func(t *testing.T) {
		l := playground.Link{Script: "submit a\n", HasScript: true, Step: playground.StepEnd, HasStep: true}
		if got := l.Fragment(); got != "#script=c3VibWl0IGEK&step=end" {
			t.Fatalf("Fragment = %q", got)
		}
	})
	t.Run("LongScriptIsDeflated", func(t *testing.T) {
		e, _ := scenario.Lookup("wide-1000")
		l := playground.Link{Script: e.Text, HasScript: true, Step: 3, HasStep: true}
		f := l.Fragment()
		if !strings.Contains(f, "&enc=deflate&step=3") {
			t.Fatalf("fragment %.80q… does not say it is deflated", f)
		}
		plain := len(b64(e.Text))
		if len(f) > plain/5 {
			t.Errorf("the compressed link is %d bytes; the plain one would be %d", len(f), plain)
		}
		back, errs := playground.ParseLink("", f)
		if errs != nil || !reflect.DeepEqual(back, l) {
			t.Fatalf("ParseLink(Fragment) = %+v, %v", back.Step, errs)
		}
	})
	t.Run("OldUncompressedLinksStillOpen", func(t *testing.T) {
		e, _ := scenario.Lookup("two-roots")
		back, errs := playground.ParseLink("", "#script="+b64(e.Text)+"&step=4")
		if errs != nil || back.Script != e.Text || back.Step != 4 {
			t.Fatalf("ParseLink = %+v, %v", back, errs)
		}
	})
	t.Run("ScenarioAsQuery", func(t *testing.T) {
		l := playground.Link{Scenario: "tricky-cycle", Step: 4, HasStep: true, Strategy: "pk", Embed: true}
		if got := l.Query(); got != "?scenario=tricky-cycle&step=4&strategy=pk&embed=1" {
			t.Fatalf("Query = %q", got)
		}
		back, errs := playground.ParseLink(l.Query(), "")
		if errs != nil || !reflect.DeepEqual(back, l) {
			t.Fatalf("ParseLink(Query) = %+v, %v", back, errs)
		}
	})
}

// TestLinkRoundTrips is a property test: any script, step and strategy,
// written as a link, reads back the same.
func TestLinkRoundTrips(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 1))
	defer func() {
		if t.Failed() {
			t.Logf("seed %d", seed)
		}
	}()
	alphabet := []rune("ab c\n#&=?%+/é😀\t")
	strategies := append([]string{""}, "dfs", "pk", "twoway")
	for i := range 300 {
		n := rng.IntN(1 << uint(rng.IntN(12)))
		r := make([]rune, n)
		for j := range r {
			r[j] = alphabet[rng.IntN(len(alphabet))]
		}
		l := playground.Link{Script: string(r), HasScript: true, Strategy: strategies[rng.IntN(len(strategies))], Embed: rng.IntN(2) == 0}
		if l.Embed && rng.IntN(2) == 0 {
			l.Panels = [][]string{{"dlq"}, {"title"}, {"title", "dlq"}}[rng.IntN(3)]
		}
		if rng.IntN(3) > 0 {
			l.HasStep, l.Step = true, rng.IntN(1000)
		}
		back, errs := playground.ParseLink("", l.Fragment())
		if errs != nil || !reflect.DeepEqual(back, l) {
			t.Fatalf("case %d (seed %d): ParseLink(Fragment(%+v)) = %+v, %v", i, seed, l, back, errs)
		}
	}
}

func TestParseStep(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"0": 0, "12": 12, "end": playground.StepEnd, "last": playground.StepEnd, "99999999999999999999999": playground.StepEnd} {
		if got, ok := playground.ParseStep(v); !ok || got != want {
			t.Errorf("ParseStep(%q) = %d, %v; want %d", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "-1", "+1", "1.5", "abc", " 3", "-99999999999999999999999"} {
		if _, ok := playground.ParseStep(v); ok {
			t.Errorf("ParseStep(%q) accepted", v)
		}
	}
}

// TestAScriptThatDoesNotRunStaysInTheAddress: a link whose script opens
// but does not run shows it with its error; the address the page writes
// back keeps the script (it said "#script=", and a reload showed
// nothing), until a command is acted on the empty page shown instead.
func TestAScriptThatDoesNotRunStaysInTheAddress(t *testing.T) {
	t.Parallel()
	p := playground.New()
	text, _, err := p.Open("", "#script=AAAAAAAA")
	if err == nil || text != "\x00\x00\x00\x00\x00\x00" {
		t.Fatalf("the link opened %q, error %v; want six NULs that do not run", text, err)
	}
	if l, errs := playground.ParseLink("", p.Address()); len(errs) > 0 || l.Script != text {
		t.Errorf("the page's address %q holds the script %q (%v); want %q", p.Address(), l.Script, errs, text)
	}
	if _, err := p.Act("submit a"); err != nil {
		t.Fatal(err)
	}
	if l, _ := playground.ParseLink("", p.Address()); l.Script != "submit a\n" {
		t.Errorf("acted on, the page's address holds %q; want the script acted", l.Script)
	}
}
