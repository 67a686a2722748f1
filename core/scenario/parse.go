package scenario

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
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

// settings reports whether op sets up the queue (attempts, strategy, lease,
// backoff, jitter): such a line comes before the first submit, and the
// queue is made from all of them.
func (op Op) settings() bool {
	switch op {
	case OpAttempts, OpStrategy, OpLease, OpBackoff, OpJitter, OpPoison, OpAlert:
		return true
	}
	return false
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

// parser holds what the header rules need to know across lines.
type parser struct {
	script       *Script
	attemptsLine int // line of the attempts command, 0 if none yet
	strategyLine int
	leaseLine    int
	backoffLine  int
	jitterLine   int
	poisonLine   int
	alertLine    int
	firstSubmit  int     // line of the first submit, 0 if none yet
	toks         []token // the tokens of the line being parsed, reused line after line
}

// line parses one line: its command, and false for a line without one
// (blank, or only a comment).
func (p *parser) line(n int, line string) (Command, bool, error) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	p.toks = tokenize(p.toks[:0], line)
	toks := p.toks
	if len(toks) == 0 {
		return Command{}, false, nil
	}
	last := toks[len(toks)-1]
	word := toks[0]
	errAt := func(col int, format string, args ...any) error {
		return &SyntaxError{Line: n, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	missing := func(format string, args ...any) error {
		return errAt(last.colAfter, format, args...)
	}
	c := Command{Line: n, Col: word.col, Text: line[word.start:last.end]}
	args := toks[1:]

	// name checks a task name argument.
	name := func(t token) error {
		if len(t.text) > MaxName {
			return errAt(t.col, "task name %s is %d bytes long, longer than the %d a name may be", quoted(t.text), len(t.text), MaxName)
		}
		if col, bad, ok := badChar(t); ok {
			return errAt(col, "bad task name %s: %q is not allowed (names use letters, digits and _ . : / -)", quoted(t.text), bad)
		}
		return nil
	}
	// leased parses the task of "OP T[@N]" commands: T, or T with the
	// attempt whose lease acts.
	leased := func(t token) error {
		nm, at, hasAt := strings.Cut(t.text, "@")
		if err := name(token{text: nm, col: t.col}); err != nil {
			return err
		}
		if nm == "" {
			return errAt(t.col, "%s needs a task before @", c.Op)
		}
		c.Task = nm
		if !hasAt {
			return nil
		}
		p.script.earlierLeases = true
		col := t.col + utf8.RuneCountInString(nm) + 1
		n, err := strconv.Atoi(at)
		if err != nil || n < 1 || strings.TrimLeft(at, "0123456789") != "" || n > maxAttempts {
			return errAt(col, "the attempt after @ must be a whole number from 1 to %d, got %s", maxAttempts, quoted(at))
		}
		c.Attempt = n
		return nil
	}
	// duration parses a duration argument: Go's form (250ms, 30s, 2m),
	// at least min, at most maxDuration.
	duration := func(t token, what string, min time.Duration) (time.Duration, error) {
		d, err := time.ParseDuration(t.text)
		switch {
		case err != nil:
			return 0, errAt(t.col, "%s must be a duration such as 250ms, 30s or 2m, got %s", what, quoted(t.text))
		case d < min && min > 0:
			return 0, errAt(t.col, "%s must be more than 0, got %s", what, quoted(t.text))
		case d < min:
			return 0, errAt(t.col, "%s cannot be negative, got %s", what, quoted(t.text))
		case d > maxDuration:
			return 0, errAt(t.col, "%s must be at most %s, got %s", what, FormatDuration(maxDuration), quoted(t.text))
		}
		return d, nil
	}
	// args counts the arguments of a command that takes exactly n.
	argCount := func(n int, want string) error {
		if len(args) < n {
			return missing("%s needs %s", c.Op, want)
		}
		if len(args) > n {
			return errAt(args[n].col, "%s takes %s, got extra %s", c.Op, want, quoted(args[n].text))
		}
		return nil
	}
	// oneTask parses the "OP T" commands.
	oneTask := func() error {
		if len(args) == 0 {
			return missing("%s needs a task", c.Op)
		}
		if err := name(args[0]); err != nil {
			return err
		}
		if len(args) > 1 {
			return errAt(args[1].col, "%s takes one task, got extra %s", c.Op, quoted(args[1].text))
		}
		c.Task = args[0].text
		return nil
	}
	// header checks that an attempts or strategy line is in its place.
	header := func(seen *int) error {
		if *seen != 0 {
			return errAt(word.col, "%s given twice (first on line %d)", c.Op, *seen)
		}
		if p.firstSubmit != 0 {
			return errAt(word.col, "%s must come before the first submit (on line %d)", c.Op, p.firstSubmit)
		}
		*seen = n
		return nil
	}
	// oneArg refuses an argument after the first of attempts or strategy.
	oneArg := func() error {
		if len(args) > 1 {
			return errAt(args[1].col, "%s takes one argument, got extra %s", c.Op, quoted(args[1].text))
		}
		return nil
	}

	switch word.text {
	case "attempts":
		c.Op = OpAttempts
		if err := header(&p.attemptsLine); err != nil {
			return Command{}, false, err
		}
		if len(args) == 0 {
			return Command{}, false, missing("attempts needs a number")
		}
		a := args[0]
		if strings.TrimLeft(a.text, "0123456789") != "" {
			return Command{}, false, errAt(a.col, "attempts must be a whole number, got %s", quoted(a.text))
		}
		v, err := strconv.Atoi(a.text)
		switch {
		case err != nil || v > maxAttempts:
			return Command{}, false, errAt(a.col, "attempts %s is too large (at most %d)", clipEcho(a.text), maxAttempts)
		case v < 1:
			return Command{}, false, errAt(a.col, "attempts must be at least 1, got %s", clipEcho(a.text))
		}
		if err := oneArg(); err != nil {
			return Command{}, false, err
		}
		c.N = v
		p.script.Attempts = v
	case "strategy":
		c.Op = OpStrategy
		if err := header(&p.strategyLine); err != nil {
			return Command{}, false, err
		}
		names := incremental.Names()
		if len(args) == 0 {
			return Command{}, false, missing("strategy needs a name (want %s)", orList(names))
		}
		a := args[0]
		if !slices.Contains(names, a.text) {
			return Command{}, false, errAt(a.col, "unknown strategy %s (want %s)", quoted(a.text), orList(names))
		}
		if err := oneArg(); err != nil {
			return Command{}, false, err
		}
		c.Strategy = a.text
		p.script.Strategy = a.text
	case "submit":
		c.Op = OpSubmit
		if len(args) == 0 {
			return Command{}, false, missing("submit needs a task")
		}
		for _, a := range args {
			if err := name(a); err != nil {
				return Command{}, false, err
			}
		}
		c.Task = args[0].text
		for _, a := range args[1:] {
			c.Deps = append(c.Deps, a.text)
		}
		if p.firstSubmit == 0 {
			p.firstSubmit = n
		}
	case "next":
		c.Op = OpNext
		if len(args) > 0 {
			return Command{}, false, errAt(args[0].col, "next takes no arguments, got %s", quoted(args[0].text))
		}
	case "complete", "heartbeat":
		c.Op = OpComplete
		if word.text == "heartbeat" {
			c.Op = OpHeartbeat
		}
		if len(args) == 0 {
			return Command{}, false, missing("%s needs a task", c.Op)
		}
		if err := argCount(1, "one task"); err != nil {
			return Command{}, false, err
		}
		if err := leased(args[0]); err != nil {
			return Command{}, false, err
		}
	case "redrive", "redrive!":
		c.Op = OpRedrive
		c.Force = word.text == "redrive!"
		switch {
		case c.Force:
		case len(args) == 1 && args[0].text == "cancel":
			c.Op = OpRedriveCancel
			return c, true, nil
		case len(args) >= 2 && (args[0].text == "matching" || args[0].text == "group"):
			if err := p.bulk(&c, line, args, errAt, missing, duration); err != nil {
				return Command{}, false, err
			}
			return c, true, nil
		}
		if err := oneTask(); err != nil {
			return Command{}, false, err
		}
	case "preview":
		c.Op = OpPreview
		if len(args) == 0 || args[0].text != "redrive" {
			if len(args) == 0 {
				return Command{}, false, missing("preview needs what to preview: preview redrive matching TEXT or preview redrive group G")
			}
			return Command{}, false, errAt(args[0].col, "preview what? want preview redrive matching TEXT or preview redrive group G, got %s", quoted(args[0].text))
		}
		if len(args) < 2 {
			return Command{}, false, missing("preview redrive needs matching TEXT or group G")
		}
		if err := p.bulk(&c, line, args[1:], errAt, missing, duration); err != nil {
			return Command{}, false, err
		}
		if c.Rate != (core.Rate{}) {
			return Command{}, false, errAt(args[len(args)-2].col, "preview redrive takes no rate: the preview is of the whole redrive")
		}
	case "dlq":
		c.Op = OpDLQ
		if len(args) > 0 {
			return Command{}, false, errAt(args[0].col, "dlq takes no arguments, got %s", quoted(args[0].text))
		}
	case "poison":
		c.Op = OpPoison
		if err := header(&p.poisonLine); err != nil {
			return Command{}, false, err
		}
		if err := argCount(1, "a number of redrives"); err != nil {
			return Command{}, false, err
		}
		v, err := wholeNumber(args[0], 1, maxAttempts)
		if err != nil {
			return Command{}, false, errAt(args[0].col, "poison %s", err)
		}
		c.N = v
		p.script.PoisonAfter = v
	case "alert":
		c.Op = OpAlert
		if err := header(&p.alertLine); err != nil {
			return Command{}, false, err
		}
		if err := argCount(2, "a number of entries and a window, as alert 10 1m"); err != nil {
			return Command{}, false, err
		}
		v, err := wholeNumber(args[0], 1, maxAlertEntries)
		if err != nil {
			return Command{}, false, errAt(args[0].col, "the entries %s", err)
		}
		d, err := duration(args[1], "the window", 1)
		if err != nil {
			return Command{}, false, err
		}
		c.N, c.Dur = v, d
		p.script.Alert = core.Alert{Entries: v, Window: d}
	case "fail", "fail!":
		c.Op = OpFail
		c.Permanent = word.text == "fail!"
		if len(args) == 0 {
			return Command{}, false, missing("%s needs a task", word.text)
		}
		if err := leased(args[0]); err != nil {
			return Command{}, false, err
		}
		if len(args) > 1 {
			c.Err = line[args[1].start:last.end]
		}
	case "expect":
		c.Op = OpExpect
		if len(args) < 2 {
			if len(args) == 1 {
				if err := name(args[0]); err != nil {
					return Command{}, false, err
				}
			}
			return Command{}, false, missing("expect needs a task and a state")
		}
		if err := name(args[0]); err != nil {
			return Command{}, false, err
		}
		st := core.State(args[1].text)
		if !slices.Contains(core.States(), st) {
			up := core.State(strings.ToUpper(args[1].text))
			if slices.Contains(core.States(), up) {
				return Command{}, false, errAt(args[1].col, "unknown state %s (states are upper-case: %s)", quoted(args[1].text), up)
			}
			return Command{}, false, errAt(args[1].col, "unknown state %s (want %s)", quoted(args[1].text), orList(stateNames()))
		}
		if len(args) > 2 {
			return Command{}, false, errAt(args[2].col, "expect takes a task and a state, got extra %s", quoted(args[2].text))
		}
		c.Task, c.Want = args[0].text, st
	case "lease":
		c.Op = OpLease
		if err := header(&p.leaseLine); err != nil {
			return Command{}, false, err
		}
		if err := argCount(1, "a duration"); err != nil {
			return Command{}, false, err
		}
		d, err := duration(args[0], "lease", 1)
		if err != nil {
			return Command{}, false, err
		}
		c.Dur = d
		p.script.Lease = d
	case "backoff":
		c.Op = OpBackoff
		if err := header(&p.backoffLine); err != nil {
			return Command{}, false, err
		}
		if err := argCount(3, "a base, a factor and a most delay, as backoff 1s 2 1m"); err != nil {
			return Command{}, false, err
		}
		base, err := duration(args[0], "the base", 1)
		if err != nil {
			return Command{}, false, err
		}
		f, err := strconv.ParseFloat(args[1].text, 64)
		if err != nil || f < 1 || f > 1000 {
			return Command{}, false, errAt(args[1].col, "the factor must be a number from 1 to 1000, got %s", quoted(args[1].text))
		}
		most, err := duration(args[2], "the most delay", 0)
		if err != nil {
			return Command{}, false, err
		}
		if most < base {
			return Command{}, false, errAt(args[2].col, "the most delay %s is less than the base %s", args[2].text, args[0].text)
		}
		c.Dur, c.Factor, c.Max = base, f, most
		p.script.Backoff.Base, p.script.Backoff.Factor, p.script.Backoff.Max = base, f, most
	case "jitter":
		c.Op = OpJitter
		if err := header(&p.jitterLine); err != nil {
			return Command{}, false, err
		}
		if len(args) == 0 {
			return Command{}, false, missing("jitter needs none, full or equal, and a seed")
		}
		j, err := core.ParseJitter(args[0].text)
		if err != nil {
			return Command{}, false, errAt(args[0].col, "unknown jitter %s (want none, full or equal)", quoted(args[0].text))
		}
		c.Jitter = j
		if len(args) > 1 {
			seed, err := strconv.ParseUint(args[1].text, 10, 64)
			if err != nil {
				return Command{}, false, errAt(args[1].col, "the seed must be a whole number from 0 to %d, got %s", uint64(math.MaxUint64), quoted(args[1].text))
			}
			c.Seed = seed
		}
		if len(args) > 2 {
			return Command{}, false, errAt(args[2].col, "jitter takes a kind and a seed, got extra %s", quoted(args[2].text))
		}
		p.script.Backoff.Jitter, p.script.Backoff.Seed = c.Jitter, c.Seed
	case "advance":
		c.Op = OpAdvance
		if err := argCount(1, "a duration"); err != nil {
			return Command{}, false, err
		}
		d, err := duration(args[0], "advance", 0)
		if err != nil {
			return Command{}, false, err
		}
		c.Dur = d
	default:
		return Command{}, false, errAt(word.col, "unknown command %s (want %s)", quoted(word.text), orList(commandWords()))
	}
	return c, true, nil
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

// bulk parses the rest of a bulk redrive, after "redrive" or "preview
// redrive": matching TEXT… or group FINGERPRINT|N, then perhaps "at N/D"
// (the last two tokens; "N/s" means "N/1s"). TEXT and FINGERPRINT are the
// rest of the line as written (a comment cut off), so they may hold any
// character but '#'.
func (p *parser) bulk(c *Command, line string, args []token,
	errAt func(int, string, ...any) error, missing func(string, ...any) error,
	duration func(token, string, time.Duration) (time.Duration, error)) error {
	kind := args[0]
	switch kind.text {
	case "matching", "group":
	default:
		return errAt(kind.col, "%s: want matching TEXT or group G, got %s", c.Op, quoted(kind.text))
	}
	rest := args[1:]
	if len(rest) == 0 {
		return missing("%s %s needs %s", c.Op, kind.text, map[string]string{"matching": "the text the error contains", "group": "a fingerprint or a group number"}[kind.text])
	}
	if n := len(rest); n >= 3 && rest[n-2].text == "at" {
		at := rest[n-1]
		num, per, ok := strings.Cut(at.text, "/")
		if !ok {
			return errAt(at.col, "the rate must be N/DURATION, as at 2/1s or at 10/m, got %s", quoted(at.text))
		}
		v, err := wholeNumber(token{text: num}, 1, maxRate)
		if err != nil {
			return errAt(at.col, "the rate's count %s", err)
		}
		if slices.Contains([]string{"ns", "us", "µs", "ms", "s", "m", "h"}, per) {
			per = "1" + per // N/s: N per second
		}
		d, err := duration(token{text: per, col: at.col + len(num) + 1}, "the rate's period", 1)
		if err != nil {
			return err
		}
		c.Rate = core.Rate{N: v, Per: d}
		rest = rest[:n-2]
	}
	text := line[rest[0].start:rest[len(rest)-1].end]
	switch {
	case kind.text == "matching":
		c.Match = text
		if c.Op == OpRedrive {
			c.Op = OpRedriveMatching
		}
	case strings.TrimLeft(text, "0123456789") == "":
		v, err := wholeNumber(rest[0], 1, maxRate)
		if err != nil {
			return errAt(rest[0].col, "the group number %s", err)
		}
		c.Group = v
	default:
		c.Fingerprint = text
	}
	if kind.text == "group" && c.Op == OpRedrive {
		c.Op = OpRedriveGroup
	}
	return nil
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
