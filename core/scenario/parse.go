package scenario

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
)

// Op is the command of a script line.
type Op uint8

// The commands of the language. The zero Op is no command.
const (
	OpAttempts        Op = iota + 1 // attempts N: the queue's max attempts
	OpStrategy                      // strategy NAME: the cycle-check strategy
	OpSubmit                        // submit T [DEP...]
	OpNext                          // next: hand out the front READY task
	OpComplete                      // complete T: complete T's current lease
	OpFail                          // fail T [ERROR TEXT]: fail T's current lease
	OpRedrive                       // redrive T
	OpExpect                        // expect T STATE: assert T's state
	OpLease                         // lease D: leases expire D after hand-out or heartbeat
	OpBackoff                       // backoff BASE FACTOR MAX: the retry delay
	OpJitter                        // jitter none|full|equal [SEED]: the retry delay's jitter
	OpAdvance                       // advance D: move the clock
	OpHeartbeat                     // heartbeat T[@N]: renew T's lease
	OpPoison                        // poison N: a task redriven N times that dies again needs a human
	OpAlert                         // alert N D: alert when N tasks enter the DLQ within D
	OpRedriveMatching               // redrive matching TEXT… [at N/D]: redrive the DEAD tasks whose error contains TEXT
	OpRedriveGroup                  // redrive group FINGERPRINT|N [at N/D]: redrive a group of the dlq view
	OpPreview                       // preview redrive matching TEXT… | preview redrive group G: what it would do
	OpRedriveCancel                 // redrive cancel: stop the redrive in progress
	OpDLQ                           // dlq: show the dead-letter queue grouped by root cause
)

var opNames = [...]string{
	OpAttempts: "attempts", OpStrategy: "strategy", OpSubmit: "submit", OpNext: "next",
	OpComplete: "complete", OpFail: "fail", OpRedrive: "redrive", OpExpect: "expect",
	OpLease: "lease", OpBackoff: "backoff", OpJitter: "jitter", OpAdvance: "advance",
	OpHeartbeat: "heartbeat", OpPoison: "poison", OpAlert: "alert",
	OpRedriveMatching: "redrive matching", OpRedriveGroup: "redrive group", OpPreview: "preview redrive",
	OpRedriveCancel: "redrive cancel", OpDLQ: "dlq",
}

// commandWords lists the first word of every command, each once, for the
// error of an unknown command.
func commandWords() []string {
	var out []string
	for _, n := range opNames[1:] {
		w, _, _ := strings.Cut(n, " ")
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// String returns the command word, e.g. "submit".
func (op Op) String() string {
	if int(op) < len(opNames) && opNames[op] != "" {
		return opNames[op]
	}
	return fmt.Sprintf("Op(%d)", op)
}

// Script is a parsed scenario.
type Script struct {
	// Attempts is the max attempts from the attempts line; 0 when there is
	// none, which means [DefaultAttempts].
	Attempts int
	// Strategy is the cycle-check strategy from the strategy line; "" when
	// there is none, which means incremental.Default.
	Strategy string
	// Lease is the lease timeout from the lease line; 0 when there is none:
	// leases never expire.
	Lease time.Duration
	// Backoff is the retry delay from the backoff and jitter lines; its zero
	// value, without them, retries at once.
	Backoff core.Backoff
	// PoisonAfter is the poison-pill cap from the poison line; 0 when there
	// is none: off.
	PoisonAfter int
	// Alert is the growth alert from the alert line; zero when there is
	// none: off.
	Alert core.Alert
	// Commands are the script's commands in order, the attempts and
	// strategy lines included.
	Commands []Command
	// earlierLeases is whether a command acts with an earlier attempt's
	// lease (complete T@N): only then must a run remember every lease
	// handed out.
	earlierLeases bool
}

// DefaultAttempts is the max attempts of a script without an attempts line.
const DefaultAttempts = 3

// Command is one line of a script.
type Command struct {
	Line, Col int // 1-based position of the command word; a tab counts as one column
	Op        Op
	Task      string        // submit, complete, fail, redrive, expect: the task
	Deps      []string      // submit: the dependencies, as written
	Err       string        // fail: the error text, the rest of the line trimmed ("" if none)
	Want      core.State    // expect: the state asserted
	N         int           // attempts: the number
	Strategy  string        // strategy: the name
	Attempt   int           // complete, fail, heartbeat: the N of T@N, the lease of attempt N; 0 for the current lease
	Permanent bool          // fail: written fail!, a permanent error
	Dur       time.Duration // lease, advance: the duration; backoff: the base
	Factor    float64       // backoff: the factor
	Max       time.Duration // backoff: the most delay
	Jitter    core.Jitter   // jitter: the kind
	Seed      uint64        // jitter: the seed
	Force     bool          // redrive: written redrive!, a forced redrive (a poisoned task moves)
	// The bulk redrive commands (redrive matching, redrive group, preview
	// redrive): the text the error contains (Match), or the group by its
	// fingerprint (Fingerprint) or by its number in the dlq view, from 1
	// (Group); exactly one is set. Rate is the pace after "at" (zero: all
	// at once).
	Match       string
	Fingerprint string
	Group       int
	Rate        core.Rate
	Text        string // the line without its comment, trimmed
}

// String formats the command in canonical form: single spaces, no comment.
// Parsing it gives the same command back (at column 1).
func (c Command) String() string {
	var b strings.Builder
	b.WriteString(c.Op.String())
	if c.Op == OpFail && c.Permanent || c.Op == OpRedrive && c.Force {
		b.WriteByte('!')
	}
	// task writes T, or T@N for a lease of attempt N.
	task := func() {
		b.WriteByte(' ')
		b.WriteString(c.Task)
		if c.Attempt > 0 {
			b.WriteByte('@')
			b.WriteString(strconv.Itoa(c.Attempt))
		}
	}
	switch c.Op {
	case OpLease, OpAdvance:
		b.WriteByte(' ')
		b.WriteString(FormatDuration(c.Dur))
	case OpBackoff:
		fmt.Fprintf(&b, " %s %s %s", FormatDuration(c.Dur), strconv.FormatFloat(c.Factor, 'g', -1, 64), FormatDuration(c.Max))
	case OpJitter:
		fmt.Fprintf(&b, " %s %d", c.Jitter, c.Seed)
	case OpHeartbeat:
		task()
	case OpAttempts:
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(c.N))
	case OpStrategy:
		b.WriteByte(' ')
		b.WriteString(c.Strategy)
	case OpSubmit:
		b.WriteByte(' ')
		b.WriteString(c.Task)
		for _, d := range c.Deps {
			b.WriteByte(' ')
			b.WriteString(d)
		}
	case OpRedrive:
		b.WriteByte(' ')
		b.WriteString(c.Task)
	case OpPoison:
		fmt.Fprintf(&b, " %d", c.N)
	case OpAlert:
		fmt.Fprintf(&b, " %d %s", c.N, FormatDuration(c.Dur))
	case OpRedriveMatching, OpRedriveGroup, OpPreview:
		if c.Op == OpPreview && c.Match != "" {
			b.WriteString(" matching")
		} else if c.Op == OpPreview {
			b.WriteString(" group")
		}
		switch {
		case c.Match != "":
			b.WriteString(" " + c.Match)
		case c.Fingerprint != "":
			b.WriteString(" " + c.Fingerprint)
		default:
			b.WriteString(" " + strconv.Itoa(c.Group))
		}
		if c.Rate != (core.Rate{}) {
			fmt.Fprintf(&b, " at %d/%s", c.Rate.N, FormatDuration(c.Rate.Per))
		}
	case OpComplete:
		task()
	case OpFail:
		task()
		if c.Err != "" {
			b.WriteByte(' ')
			b.WriteString(c.Err)
		}
	case OpExpect:
		b.WriteByte(' ')
		b.WriteString(c.Task)
		b.WriteByte(' ')
		b.WriteString(string(c.Want))
	}
	return b.String()
}

// String formats the script in canonical form, one command a line in order,
// each ending in a newline, without blank lines or comments. Parsing the
// result gives the same script back, with Line renumbered. If Attempts or
// Strategy is set but the script has no such command (a Script built by
// hand), the line is written first.
func (s *Script) String() string {
	var b strings.Builder
	hasAttempts := slices.ContainsFunc(s.Commands, func(c Command) bool { return c.Op == OpAttempts })
	hasStrategy := slices.ContainsFunc(s.Commands, func(c Command) bool { return c.Op == OpStrategy })
	if s.Attempts != 0 && !hasAttempts {
		b.WriteString(Command{Op: OpAttempts, N: s.Attempts}.String())
		b.WriteByte('\n')
	}
	if s.Strategy != "" && !hasStrategy {
		b.WriteString(Command{Op: OpStrategy, Strategy: s.Strategy}.String())
		b.WriteByte('\n')
	}
	for _, c := range s.Commands {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// SyntaxError is a script that cannot be parsed. Line and Col (1-based, a
// tab counting as one column) point at the offending token or character, or
// one past the end of the line where an argument is missing.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "LINE:COL: MSG".
func (e *SyntaxError) Error() string {
	return strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// token is a run of non-space characters on a line.
type token struct {
	text     string
	col      int // column of its first character
	start    int // byte offsets in the line
	end      int
	colAfter int // column just past it
}

// Parse parses a scenario script. It stops at the first malformed line and
// returns a [*SyntaxError] for it.
//
// The cost is O(len(src)).
func Parse(src string) (*Script, error) {
	// A command a line at most: counting the lines first spares the
	// copies of a growing slice of commands.
	s := &Script{Commands: make([]Command, 0, strings.Count(src, "\n")+1)}
	p := parser{script: s}
	n := 0
	for line := range strings.Lines(src) {
		n++
		c, ok, err := p.line(n, strings.TrimSuffix(line, "\n"))
		if err != nil {
			return nil, err
		}
		if ok {
			s.Commands = append(s.Commands, c)
		}
	}
	return s, nil
}

// check parses src as [Parse] does but keeps no command: it returns the
// script's header (Attempts and Strategy; no Commands) and the line of its
// last command (0 if it has none), or the first [*SyntaxError]. It needs
// O(1) memory besides src, so that a script of any size can be checked
// before it runs and then run a line at a time (see [commands]).
func check(src string) (header *Script, lastLine int, err error) {
	header = &Script{}
	p := parser{script: header}
	n := 0
	for line := range strings.Lines(src) {
		n++
		_, ok, err := p.line(n, strings.TrimSuffix(line, "\n"))
		if err != nil {
			return nil, 0, err
		}
		if ok {
			lastLine = n
		}
	}
	return header, lastLine, nil
}

// commands yields the commands of src, which [check] accepted, one at a
// time, each parsed as it is reached.
func commands(src string) iter.Seq[Command] {
	return func(yield func(Command) bool) {
		p := parser{script: &Script{}}
		n := 0
		for line := range strings.Lines(src) {
			n++
			c, ok, err := p.line(n, strings.TrimSuffix(line, "\n"))
			if err != nil {
				panic("scenario: a checked script no longer parses: " + err.Error())
			}
			if ok && !yield(c) {
				return
			}
		}
	}
}

// maxAttempts is the largest attempts a script may ask for; core refuses
// more.
const maxAttempts = 1 << 30

// maxAlertEntries is the largest entries an alert line may ask for; core
// refuses more.
const maxAlertEntries = 1 << 24

// maxRate is the most tasks a rate may redrive at once.
const maxRate = 1 << 30

// wholeNumber parses a whole number from min to max, or says what is wrong
// with it ("must be …").
func wholeNumber(t token, min, max int) (int, error) {
	v, err := strconv.Atoi(t.text)
	if err != nil || strings.TrimLeft(t.text, "0123456789") != "" || v < min || v > max {
		return 0, fmt.Errorf("must be a whole number from %d to %d, got %s", min, max, quoted(t.text))
	}
	return v, nil
}

// maxDuration is the longest duration a script may name: a hundred years,
// so that no sum of a script's durations can overflow the clock for a long
// while (the clock holds 292 years; core refuses to pass them).
const maxDuration = 100 * 365 * 24 * time.Hour

// FormatDuration writes a duration as the language reads it, in Go's form
// without zero units: 1m rather than 1m0s, 1h30m rather than 1h30m0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// tokenize splits a line at white space, recording where each token is,
// and appends the tokens to toks. Columns count characters (runes; a byte
// of invalid UTF-8 counts as one).
func tokenize(toks []token, line string) []token {
	col := 1
	in := false
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) {
			if in {
				t := &toks[len(toks)-1]
				t.end, t.text, t.colAfter = i, line[t.start:i], col
				in = false
			}
		} else if !in {
			toks = append(toks, token{col: col, start: i})
			in = true
		}
		i += size
		col++
	}
	if in {
		t := &toks[len(toks)-1]
		t.end, t.text, t.colAfter = len(line), line[t.start:], col
	}
	return toks
}

// badChar returns the column and character of the first character of t not
// allowed in a name.
func badChar(t token) (col int, bad rune, found bool) {
	col = t.col
	for _, r := range t.text {
		if !nameChar(r) {
			return col, r, true
		}
		col++
	}
	return 0, 0, false
}

// MaxName is the longest a task name may be, in bytes ([core.MaxName]):
// the parser refuses a longer one with its line and column. Names are
// repeated in a trace (a task BLOCKED by a dead root names it as its root
// and in its reason), so that their length bounds what one event costs to
// keep and to write.
const MaxName = core.MaxName

// nameChar reports whether r may appear in a task name: [A-Za-z0-9_.:/-].
func nameChar(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return true
	}
	return strings.ContainsRune("_.:/-", r)
}

func stateNames() []string {
	var out []string
	for _, s := range core.States() {
		out = append(out, string(s))
	}
	return out
}

// echoMax is how many characters of a user's input an error message
// repeats: enough to recognise it, never the whole of a huge token.
const echoMax = 40

// clip returns s, or its first echoMax characters and "…" when longer.
func clipEcho(s string) string {
	n := 0
	for i := range s {
		if n == echoMax {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// quoted returns s, clipped, as a Go string literal, for an error message.
func quoted(s string) string { return strconv.Quote(clipEcho(s)) }

// orList formats "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return "nothing"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
