package playground

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
)

// StepEnd is the step that means the last step, however many there are.
const StepEnd = scenario.StepEnd

// Deflate is the value of the enc parameter of a link whose script is
// compressed: raw deflate (RFC 1951), then base64url without padding.
const Deflate = "deflate"

// compressAbove is the length of script text from which a link carries it
// compressed: below it the plain base64url is about as short, and an old
// reader can open it.
const compressAbove = 200

// maxScript caps the script text a link may inflate to, so that a small
// link cannot expand into gigabytes.
const maxScript = 8 << 20

// Link is what a playground address says, in its query (?…) or its
// fragment (#…): a library scenario or a shared script, the step to show,
// whether the page is embedded, and the strategy.
type Link struct {
	Scenario  string // scenario=NAME: a library scenario
	Script    string // script=BASE64URL: the script text, when HasScript
	HasScript bool
	Step      int // step=N or step=end (StepEnd), when HasStep
	HasStep   bool
	Embed     bool // embed=1: show only the drawing and the timeline
	// Panels are, with Embed, the page's parts shown besides the drawing
	// and the timeline: panels=dlq,title (see [Panels]).
	Panels   []string
	Strategy string // strategy=NAME: the cycle check to run with
	// Practice is the practice mode the link asks for, if any (see
	// [PracticeLink]).
	Practice PracticeLink
	// Live is live=DAG: a live DAG of wq serve --db (see [Page.OpenLive]).
	Live string
	// Show is show=DEAD,BLOCKED: the drawing shows only the tasks in these
	// states, in the order of core.States (see [Page.Filter]).
	Show []core.State
}

// Address is a page's address read once: its [Link], the parameters that
// could not be read, and the script as the address wrote it, whose
// encoding the page keeps until the script changes.
type Address struct {
	Link Link
	Errs []error // as ParseLink reports them

	encoded    string // the script parameter, when Link.HasScript
	compressed bool   // whether it is deflated
}

// ReadAddress reads an address as [ParseLink] does, keeping the script's
// encoding too.
func ReadAddress(query, fragment string) Address {
	l, errs, params := parseLink(query, fragment)
	a := Address{Link: l, Errs: errs}
	if l.HasScript {
		a.encoded, a.compressed = params["script"], params["enc"] == Deflate
	}
	return a
}

// Panels are the parts of the page an embedded page may show besides the
// drawing and the timeline: the dead-letter queue and the scenario's title.
var Panels = []string{"dlq", "title"}

// clipParam cuts a parameter's value echoed in a message to 40 bytes.
func clipParam(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// LinkNotices says each [LinkError] of errs as the page's notice does:
// "This link's step could not be read (…), so it was left out."
func LinkNotices(errs []error) []string {
	var notices []string
	for _, e := range errs {
		var le *LinkError
		if errors.As(e, &le) {
			notices = append(notices, "This link's "+le.Param+" could not be read ("+le.Msg+"), so it was left out.")
		}
	}
	return notices
}

// LinkError is a parameter of a link that could not be read: [ParseLink]
// reports it and reads the rest of the link without it.
type LinkError struct {
	Param string // the parameter, e.g. "step"
	Value string // its value as given
	Msg   string // what is wrong with it
}

func (e *LinkError) Error() string {
	return "playground: link: " + e.Param + ": " + e.Msg
}

// Fragment returns the link as a fragment: "#script=…&step=…" (with
// "&enc=deflate" when the script is long enough to be worth compressing),
// or "#scenario=NAME&step=…" for a link without a script, followed by
// "&strategy=NAME" and "&embed=1" when set.
func (l Link) Fragment() string { return "#" + l.params() }

// Query returns the link as a query, "?scenario=NAME&step=N…", in the same
// order as [Link.Fragment]; it is meant for links to library scenarios,
// which are short and which servers and their logs see whole.
func (l Link) Query() string { return "?" + l.params() }

func (l Link) params() string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(v)
	}
	switch {
	case l.HasScript:
		enc, compressed := EncodeScript(l.Script)
		add("script", enc)
		if compressed {
			add("enc", Deflate)
		}
	case l.Scenario != "":
		add("scenario", url.QueryEscape(l.Scenario))
	}
	if l.HasStep {
		if l.Step == StepEnd {
			add("step", "end")
		} else {
			add("step", strconv.Itoa(l.Step))
		}
	}
	if l.Strategy != "" {
		add("strategy", url.QueryEscape(l.Strategy))
	}
	if l.Embed {
		add("embed", "1")
	}
	if len(l.Panels) > 0 {
		add("panels", strings.Join(l.Panels, ","))
	}
	if len(l.Show) > 0 {
		names := make([]string, len(l.Show))
		for i, st := range l.Show {
			names[i] = string(st)
		}
		add("show", strings.Join(names, ","))
	}
	l.Practice.params(add)
	return b.String()
}

// EncodeScript returns a script as a link carries it: base64url (no
// padding) of the text, or, for a text of 200 bytes or more that
// compresses, of its raw deflate; compressed says which.
func EncodeScript(text string) (enc string, compressed bool) {
	if len(text) >= compressAbove {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write([]byte(text))
		w.Close()
		if buf.Len() < len(text) {
			return base64.RawURLEncoding.EncodeToString(buf.Bytes()), true
		}
	}
	return base64.RawURLEncoding.EncodeToString([]byte(text)), false
}

// DecodeScript reads a script parameter: base64url (padding allowed) of
// the text, or of its raw deflate when enc is [Deflate]; enc "" means
// plain.
func DecodeScript(v, enc string) (string, error) {
	data, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil {
		return "", errors.New("not base64url")
	}
	switch enc {
	case "":
		return string(data), nil
	case Deflate:
		r := flate.NewReader(bytes.NewReader(data))
		text, err := io.ReadAll(io.LimitReader(r, maxScript+1))
		if err != nil {
			return "", errors.New("not deflate data")
		}
		if len(text) > maxScript {
			return "", fmt.Errorf("longer than %d MB once inflated", maxScript>>20)
		}
		return string(text), nil
	}
	return "", fmt.Errorf("unknown encoding %q (want %s)", enc, Deflate)
}

// ParseLink reads the parameters of a playground address from its query
// and its fragment, with or without their leading ? and #; a parameter in
// the fragment wins over the same one in the query. It understands
// scenario=NAME, script=BASE64URL (with enc=deflate when compressed),
// step=N|end|last, embed=1|0, strategy=NAME (in any case) and the
// practice parameters ([PracticeLink]), and ignores any other. A script wins over a scenario.
//
// It is tolerant: a parameter that cannot be read is left out of the link
// and reported as a [*LinkError]; the rest of the link still holds. The
// errors come in the order script, scenario, step, embed, strategy.
func ParseLink(query, fragment string) (Link, []error) {
	l, errs, _ := parseLink(query, fragment)
	return l, errs
}

// parseLink is ParseLink, returning the address's parameters too.
func parseLink(query, fragment string) (Link, []error, map[string]string) {
	var l Link
	params, errs := linkParams(query, fragment)
	bad := func(param, value, msg string) {
		errs = append(errs, &LinkError{Param: param, Value: value, Msg: msg})
	}
	if v, ok := params["script"]; ok {
		text, err := DecodeScript(v, params["enc"])
		if err != nil {
			bad("script", v, "the script could not be read: "+err.Error())
		} else {
			l.Script, l.HasScript = text, true
		}
	}
	if v, ok := params["scenario"]; ok && !l.HasScript {
		if _, found := scenario.Lookup(v); found {
			l.Scenario = v
		} else {
			var names []string
			for _, e := range scenario.Library() {
				names = append(names, e.Name)
			}
			bad("scenario", v, fmt.Sprintf("no scenario %q (want %s)", v, orList(names)))
		}
	}
	if v, ok := params["step"]; ok {
		if n, ok := ParseStep(v); ok {
			l.Step, l.HasStep = n, true
		} else {
			bad("step", v, fmt.Sprintf("must be a whole number or end, got %q", v))
		}
	}
	if v, ok := params["embed"]; ok {
		switch v {
		case "1", "true", "":
			l.Embed = true
		case "0", "false":
		default:
			bad("embed", v, fmt.Sprintf("must be 1 or 0, got %q", v))
		}
	}
	if v, ok := params["panels"]; ok {
		for _, name := range strings.Split(v, ",") {
			switch {
			case !slices.Contains(Panels, name):
				bad("panels", v, fmt.Sprintf("unknown panel %q (want %s)", clipParam(name), orList(Panels)))
			case !slices.Contains(l.Panels, name):
				l.Panels = append(l.Panels, name)
			}
		}
	}
	if v, ok := params["strategy"]; ok && v != "" {
		if name, ok := strategyNamed(v); ok {
			l.Strategy = name
		} else {
			bad("strategy", v, fmt.Sprintf("unknown strategy %q (want %s)", v, orList(incremental.Names())))
		}
	}
	if v, ok := params["live"]; ok {
		if v == "" {
			bad("live", v, "names no DAG")
		} else {
			l.Live = v
		}
	}
	if v, ok := params["show"]; ok {
		l.Show = parseFilter(v, bad)
	}
	parsePractice(params, &l, bad)
	return l, errs, params
}

// linkParams returns the parameters of an address, those of its fragment
// winning over those of its query, and a [*LinkError] for each one that is
// not escaped right.
func linkParams(query, fragment string) (map[string]string, []error) {
	params := map[string]string{}
	var errs []error
	for _, part := range []string{strings.TrimPrefix(query, "?"), strings.TrimPrefix(fragment, "#")} {
		for kv := range strings.SplitSeq(part, "&") {
			if kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			key, err1 := url.QueryUnescape(k)
			val, err2 := url.QueryUnescape(v)
			if err1 != nil || err2 != nil {
				errs = append(errs, &LinkError{Param: k, Value: v, Msg: "not a valid escape"})
				continue
			}
			params[key] = val
		}
	}
	return params, errs
}

// ParseStep reads a step as a link or the timeline slider gives it: a
// whole number (no sign), or "end" or "last" for [StepEnd]. A step past
// the last is the last, as the page shows it: so is a whole number too
// big for an int.
func ParseStep(v string) (int, bool) {
	switch strings.ToLower(v) {
	case "end", "last":
		return StepEnd, true
	}
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return StepEnd, true // only a range error is left
	}
	return n, true
}

// strategyNamed finds a strategy by name, in any case.
func strategyNamed(v string) (string, bool) {
	names := incremental.Names()
	if slices.Contains(names, v) {
		return v, true
	}
	for _, n := range names {
		if strings.EqualFold(n, v) {
			return n, true
		}
	}
	return "", false
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
