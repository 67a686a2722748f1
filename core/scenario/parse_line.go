package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/incremental"
)

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
	firstSubmit  int       // line of the first submit, 0 if none yet
	toks         []token   // the tokens of the line being parsed, reused line after line
	cur          lineParse // the line being parsed, kept here so that it is not allocated a line at a time
}

// lineParse is one line being parsed: where it is, its tokens, and the
// command it fills in. Each command's parse function (see commandParsers)
// reads its arguments from it and reports a *SyntaxError at a column of
// the line.
type lineParse struct {
	p    *parser
	n    int    // the line's number
	line string // the line, its comment cut off
	word token  // the command word
	last token  // the last token
	args []token
	c    Command
}

// commandParsers maps each command word to the function that parses the
// rest of its line. A word not in it is an unknown command.
var commandParsers = map[string]func(*lineParse) error{
	"attempts":  (*lineParse).attempts,
	"strategy":  (*lineParse).strategy,
	"submit":    (*lineParse).submit,
	"next":      (*lineParse).next,
	"complete":  (*lineParse).complete,
	"heartbeat": (*lineParse).heartbeat,
	"redrive":   (*lineParse).redrive,
	"redrive!":  (*lineParse).redrive,
	"preview":   (*lineParse).preview,
	"dlq":       (*lineParse).dlq,
	"poison":    (*lineParse).poison,
	"alert":     (*lineParse).alert,
	"fail":      (*lineParse).fail,
	"fail!":     (*lineParse).fail,
	"expect":    (*lineParse).expect,
	"lease":     (*lineParse).lease,
	"backoff":   (*lineParse).backoff,
	"jitter":    (*lineParse).jitter,
	"advance":   (*lineParse).advance,
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
	l := &p.cur
	*l = lineParse{p: p, n: n, line: line, word: toks[0], last: toks[len(toks)-1], args: toks[1:]}
	l.c = Command{Line: n, Col: l.word.col, Text: line[l.word.start:l.last.end]}
	parse, ok := commandParsers[l.word.text]
	if !ok {
		return Command{}, false, l.errAt(l.word.col, "unknown command %s (want %s)", quoted(l.word.text), orList(commandWords()))
	}
	if err := parse(l); err != nil {
		return Command{}, false, err
	}
	return l.c, true, nil
}

// ---- what the commands share ----

// errAt returns a *SyntaxError at col of the line.
func (l *lineParse) errAt(col int, format string, args ...any) error {
	return &SyntaxError{Line: l.n, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// missing returns a *SyntaxError just past the line's last token, where a
// missing argument would be.
func (l *lineParse) missing(format string, args ...any) error {
	return l.errAt(l.last.colAfter, format, args...)
}

// name checks a task name argument.
func (l *lineParse) name(t token) error {
	if len(t.text) > MaxName {
		return l.errAt(t.col, "task name %s is %d bytes long, longer than the %d a name may be", quoted(t.text), len(t.text), MaxName)
	}
	if col, bad, ok := badChar(t); ok {
		return l.errAt(col, "bad task name %s: %q is not allowed (names use letters, digits and _ . : / -)", quoted(t.text), bad)
	}
	return nil
}

// leased parses the task of "OP T[@N]" commands: T, or T with the attempt
// whose lease acts.
func (l *lineParse) leased(t token) error {
	nm, at, hasAt := strings.Cut(t.text, "@")
	if err := l.name(token{text: nm, col: t.col}); err != nil {
		return err
	}
	if nm == "" {
		return l.errAt(t.col, "%s needs a task before @", l.c.Op)
	}
	l.c.Task = nm
	if !hasAt {
		return nil
	}
	l.p.script.earlierLeases = true
	col := t.col + utf8.RuneCountInString(nm) + 1
	n, err := strconv.Atoi(at)
	if err != nil || n < 1 || strings.TrimLeft(at, "0123456789") != "" || n > maxAttempts {
		return l.errAt(col, "the attempt after @ must be a whole number from 1 to %d, got %s", maxAttempts, quoted(at))
	}
	l.c.Attempt = n
	return nil
}

// duration parses a duration argument: Go's form (250ms, 30s, 2m), at
// least min, at most maxDuration.
func (l *lineParse) duration(t token, what string, min time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(t.text)
	switch {
	case err != nil:
		return 0, l.errAt(t.col, "%s must be a duration such as 250ms, 30s or 2m, got %s", what, quoted(t.text))
	case d < min && min > 0:
		return 0, l.errAt(t.col, "%s must be more than 0, got %s", what, quoted(t.text))
	case d < min:
		return 0, l.errAt(t.col, "%s cannot be negative, got %s", what, quoted(t.text))
	case d > maxDuration:
		return 0, l.errAt(t.col, "%s must be at most %s, got %s", what, FormatDuration(maxDuration), quoted(t.text))
	}
	return d, nil
}

// argCount counts the arguments of a command that takes exactly n.
func (l *lineParse) argCount(n int, want string) error {
	if len(l.args) < n {
		return l.missing("%s needs %s", l.c.Op, want)
	}
	if len(l.args) > n {
		return l.errAt(l.args[n].col, "%s takes %s, got extra %s", l.c.Op, want, quoted(l.args[n].text))
	}
	return nil
}

// oneTask parses the "OP T" commands.
func (l *lineParse) oneTask() error {
	if len(l.args) == 0 {
		return l.missing("%s needs a task", l.c.Op)
	}
	if err := l.name(l.args[0]); err != nil {
		return err
	}
	if len(l.args) > 1 {
		return l.errAt(l.args[1].col, "%s takes one task, got extra %s", l.c.Op, quoted(l.args[1].text))
	}
	l.c.Task = l.args[0].text
	return nil
}

// header checks that a setting's line is in its place: once, before the
// first submit; seen is where the parser keeps the line it was on.
func (l *lineParse) header(seen *int) error {
	if *seen != 0 {
		return l.errAt(l.word.col, "%s given twice (first on line %d)", l.c.Op, *seen)
	}
	if l.p.firstSubmit != 0 {
		return l.errAt(l.word.col, "%s must come before the first submit (on line %d)", l.c.Op, l.p.firstSubmit)
	}
	*seen = l.n
	return nil
}

// oneArg refuses an argument after the first of attempts or strategy.
func (l *lineParse) oneArg() error {
	if len(l.args) > 1 {
		return l.errAt(l.args[1].col, "%s takes one argument, got extra %s", l.c.Op, quoted(l.args[1].text))
	}
	return nil
}

// noArgs refuses any argument of a command that takes none.
func (l *lineParse) noArgs() error {
	if len(l.args) > 0 {
		return l.errAt(l.args[0].col, "%s takes no arguments, got %s", l.c.Op, quoted(l.args[0].text))
	}
	return nil
}

// ---- the commands, one function each ----

// attempts N
func (l *lineParse) attempts() error {
	l.c.Op = OpAttempts
	if err := l.header(&l.p.attemptsLine); err != nil {
		return err
	}
	if len(l.args) == 0 {
		return l.missing("attempts needs a number")
	}
	a := l.args[0]
	if strings.TrimLeft(a.text, "0123456789") != "" {
		return l.errAt(a.col, "attempts must be a whole number, got %s", quoted(a.text))
	}
	v, err := strconv.Atoi(a.text)
	switch {
	case err != nil || v > maxAttempts:
		return l.errAt(a.col, "attempts %s is too large (at most %d)", clipEcho(a.text), maxAttempts)
	case v < 1:
		return l.errAt(a.col, "attempts must be at least 1, got %s", clipEcho(a.text))
	}
	if err := l.oneArg(); err != nil {
		return err
	}
	l.c.N = v
	l.p.script.Attempts = v
	return nil
}

// strategy NAME
func (l *lineParse) strategy() error {
	l.c.Op = OpStrategy
	if err := l.header(&l.p.strategyLine); err != nil {
		return err
	}
	names := incremental.Names()
	if len(l.args) == 0 {
		return l.missing("strategy needs a name (want %s)", orList(names))
	}
	a := l.args[0]
	if !slices.Contains(names, a.text) {
		return l.errAt(a.col, "unknown strategy %s (want %s)", quoted(a.text), orList(names))
	}
	if err := l.oneArg(); err != nil {
		return err
	}
	l.c.Strategy = a.text
	l.p.script.Strategy = a.text
	return nil
}

// submit T [DEP...]
func (l *lineParse) submit() error {
	l.c.Op = OpSubmit
	if len(l.args) == 0 {
		return l.missing("submit needs a task")
	}
	for _, a := range l.args {
		if err := l.name(a); err != nil {
			return err
		}
	}
	l.c.Task = l.args[0].text
	for _, a := range l.args[1:] {
		l.c.Deps = append(l.c.Deps, a.text)
	}
	if l.p.firstSubmit == 0 {
		l.p.firstSubmit = l.n
	}
	return nil
}

// next
func (l *lineParse) next() error {
	l.c.Op = OpNext
	return l.noArgs()
}

// complete T[@N]
func (l *lineParse) complete() error {
	l.c.Op = OpComplete
	return l.leasedTask()
}

// heartbeat T[@N]
func (l *lineParse) heartbeat() error {
	l.c.Op = OpHeartbeat
	return l.leasedTask()
}

// leasedTask parses the one argument of complete and heartbeat.
func (l *lineParse) leasedTask() error {
	if len(l.args) == 0 {
		return l.missing("%s needs a task", l.c.Op)
	}
	if err := l.argCount(1, "one task"); err != nil {
		return err
	}
	return l.leased(l.args[0])
}

// redrive T, redrive! T, redrive cancel, redrive matching TEXT… [at N/D],
// redrive group G [at N/D]
func (l *lineParse) redrive() error {
	l.c.Op = OpRedrive
	l.c.Force = l.word.text == "redrive!"
	args := l.args
	switch {
	case l.c.Force:
	case len(args) == 1 && args[0].text == "cancel":
		l.c.Op = OpRedriveCancel
		return nil
	case len(args) >= 2 && (args[0].text == "matching" || args[0].text == "group"):
		return l.bulk(args)
	}
	return l.oneTask()
}

// preview redrive matching TEXT… | preview redrive group G
func (l *lineParse) preview() error {
	l.c.Op = OpPreview
	args := l.args
	if len(args) == 0 || args[0].text != "redrive" {
		if len(args) == 0 {
			return l.missing("preview needs what to preview: preview redrive matching TEXT or preview redrive group G")
		}
		return l.errAt(args[0].col, "preview what? want preview redrive matching TEXT or preview redrive group G, got %s", quoted(args[0].text))
	}
	if len(args) < 2 {
		return l.missing("preview redrive needs matching TEXT or group G")
	}
	if err := l.bulk(args[1:]); err != nil {
		return err
	}
	if l.c.Rate != (core.Rate{}) {
		return l.errAt(args[len(args)-2].col, "preview redrive takes no rate: the preview is of the whole redrive")
	}
	return nil
}

// dlq
func (l *lineParse) dlq() error {
	l.c.Op = OpDLQ
	return l.noArgs()
}

// poison N
func (l *lineParse) poison() error {
	l.c.Op = OpPoison
	if err := l.header(&l.p.poisonLine); err != nil {
		return err
	}
	if err := l.argCount(1, "a number of redrives"); err != nil {
		return err
	}
	v, err := wholeNumber(l.args[0], 1, maxAttempts)
	if err != nil {
		return l.errAt(l.args[0].col, "poison %s", err)
	}
	l.c.N = v
	l.p.script.PoisonAfter = v
	return nil
}

// alert N D
func (l *lineParse) alert() error {
	l.c.Op = OpAlert
	if err := l.header(&l.p.alertLine); err != nil {
		return err
	}
	if err := l.argCount(2, "a number of entries and a window, as alert 10 1m"); err != nil {
		return err
	}
	v, err := wholeNumber(l.args[0], 1, maxAlertEntries)
	if err != nil {
		return l.errAt(l.args[0].col, "the entries %s", err)
	}
	d, err := l.duration(l.args[1], "the window", 1)
	if err != nil {
		return err
	}
	l.c.N, l.c.Dur = v, d
	l.p.script.Alert = core.Alert{Entries: v, Window: d}
	return nil
}

// fail T[@N] [ERROR TEXT], fail! T[@N] [ERROR TEXT]
func (l *lineParse) fail() error {
	l.c.Op = OpFail
	l.c.Permanent = l.word.text == "fail!"
	if len(l.args) == 0 {
		return l.missing("%s needs a task", l.word.text)
	}
	if err := l.leased(l.args[0]); err != nil {
		return err
	}
	if len(l.args) > 1 {
		l.c.Err = l.line[l.args[1].start:l.last.end]
	}
	return nil
}

// expect T STATE
func (l *lineParse) expect() error {
	l.c.Op = OpExpect
	args := l.args
	if len(args) < 2 {
		if len(args) == 1 {
			if err := l.name(args[0]); err != nil {
				return err
			}
		}
		return l.missing("expect needs a task and a state")
	}
	if err := l.name(args[0]); err != nil {
		return err
	}
	st := core.State(args[1].text)
	if !slices.Contains(core.States(), st) {
		up := core.State(strings.ToUpper(args[1].text))
		if slices.Contains(core.States(), up) {
			return l.errAt(args[1].col, "unknown state %s (states are upper-case: %s)", quoted(args[1].text), up)
		}
		return l.errAt(args[1].col, "unknown state %s (want %s)", quoted(args[1].text), orList(stateNames()))
	}
	if len(args) > 2 {
		return l.errAt(args[2].col, "expect takes a task and a state, got extra %s", quoted(args[2].text))
	}
	l.c.Task, l.c.Want = args[0].text, st
	return nil
}

// lease D
func (l *lineParse) lease() error {
	l.c.Op = OpLease
	if err := l.header(&l.p.leaseLine); err != nil {
		return err
	}
	if err := l.argCount(1, "a duration"); err != nil {
		return err
	}
	d, err := l.duration(l.args[0], "lease", 1)
	if err != nil {
		return err
	}
	l.c.Dur = d
	l.p.script.Lease = d
	return nil
}

// backoff BASE FACTOR MAX
func (l *lineParse) backoff() error {
	l.c.Op = OpBackoff
	if err := l.header(&l.p.backoffLine); err != nil {
		return err
	}
	if err := l.argCount(3, "a base, a factor and a most delay, as backoff 1s 2 1m"); err != nil {
		return err
	}
	args := l.args
	base, err := l.duration(args[0], "the base", 1)
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(args[1].text, 64)
	if err != nil || f < 1 || f > 1000 {
		return l.errAt(args[1].col, "the factor must be a number from 1 to 1000, got %s", quoted(args[1].text))
	}
	most, err := l.duration(args[2], "the most delay", 0)
	if err != nil {
		return err
	}
	if most < base {
		return l.errAt(args[2].col, "the most delay %s is less than the base %s", args[2].text, args[0].text)
	}
	l.c.Dur, l.c.Factor, l.c.Max = base, f, most
	b := &l.p.script.Backoff
	b.Base, b.Factor, b.Max = base, f, most
	return nil
}

// jitter none|full|equal [SEED]
func (l *lineParse) jitter() error {
	l.c.Op = OpJitter
	if err := l.header(&l.p.jitterLine); err != nil {
		return err
	}
	args := l.args
	if len(args) == 0 {
		return l.missing("jitter needs none, full or equal, and a seed")
	}
	j, err := core.ParseJitter(args[0].text)
	if err != nil {
		return l.errAt(args[0].col, "unknown jitter %s (want none, full or equal)", quoted(args[0].text))
	}
	l.c.Jitter = j
	if len(args) > 1 {
		seed, err := strconv.ParseUint(args[1].text, 10, 64)
		if err != nil {
			return l.errAt(args[1].col, "the seed must be a whole number from 0 to %d, got %s", uint64(math.MaxUint64), quoted(args[1].text))
		}
		l.c.Seed = seed
	}
	if len(args) > 2 {
		return l.errAt(args[2].col, "jitter takes a kind and a seed, got extra %s", quoted(args[2].text))
	}
	l.p.script.Backoff.Jitter, l.p.script.Backoff.Seed = l.c.Jitter, l.c.Seed
	return nil
}

// advance D
func (l *lineParse) advance() error {
	l.c.Op = OpAdvance
	if err := l.argCount(1, "a duration"); err != nil {
		return err
	}
	d, err := l.duration(l.args[0], "advance", 0)
	if err != nil {
		return err
	}
	l.c.Dur = d
	return nil
}

// bulk parses the rest of a bulk redrive, after "redrive" or "preview
// redrive": matching TEXT… or group FINGERPRINT|N, then perhaps "at N/D"
// (the last two tokens; "N/s" means "N/1s"). TEXT and FINGERPRINT are the
// rest of the line as written (a comment cut off), so they may hold any
// character but '#'.
func (l *lineParse) bulk(args []token) error {
	c := &l.c
	kind := args[0]
	switch kind.text {
	case "matching", "group":
	default:
		return l.errAt(kind.col, "%s: want matching TEXT or group G, got %s", c.Op, quoted(kind.text))
	}
	rest := args[1:]
	if len(rest) == 0 {
		return l.missing("%s %s needs %s", c.Op, kind.text, map[string]string{"matching": "the text the error contains", "group": "a fingerprint or a group number"}[kind.text])
	}
	if n := len(rest); n >= 3 && rest[n-2].text == "at" {
		at := rest[n-1]
		num, per, ok := strings.Cut(at.text, "/")
		if !ok {
			return l.errAt(at.col, "the rate must be N/DURATION, as at 2/1s or at 10/m, got %s", quoted(at.text))
		}
		v, err := wholeNumber(token{text: num}, 1, maxRate)
		if err != nil {
			return l.errAt(at.col, "the rate's count %s", err)
		}
		if slices.Contains([]string{"ns", "us", "µs", "ms", "s", "m", "h"}, per) {
			per = "1" + per // N/s: N per second
		}
		d, err := l.duration(token{text: per, col: at.col + len(num) + 1}, "the rate's period", 1)
		if err != nil {
			return err
		}
		c.Rate = core.Rate{N: v, Per: d}
		rest = rest[:n-2]
	}
	text := l.line[rest[0].start:rest[len(rest)-1].end]
	switch {
	case kind.text == "matching":
		c.Match = text
		if c.Op == OpRedrive {
			c.Op = OpRedriveMatching
		}
	case strings.TrimLeft(text, "0123456789") == "":
		v, err := wholeNumber(rest[0], 1, maxRate)
		if err != nil {
			return l.errAt(rest[0].col, "the group number %s", err)
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
