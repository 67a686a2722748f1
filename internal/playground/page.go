package playground

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"

	"github.com/dagq/dagq/internal/wording"
)

// DefaultScenario is shown when the address names none, or names one that
// cannot be read.
const DefaultScenario = "diamond-redrive"

// maxUndo is how many changes of the script Undo can take back.
const maxUndo = 100

// Page is the playground's state and every decision it makes: the script
// being watched ([session.Session]), which library scenario it is, the
// strategy, the embed mode, and the changes Undo can take back. The
// browser code draws what a Page says and forwards input to it; a Page
// never touches the browser. A Page is not safe for concurrent use.
type Page struct {
	s        *session.Session
	name     string // the library scenario shown; "" for a script of one's own
	origin   string // the library scenario a script of one's own was made from by acting on it; "" if none
	strategy string // the strategy chosen in the page or the link; "" for the script's own
	embed    bool
	panels   []string // with embed, the panels shown besides the drawing
	undo     []snapshot

	visits     []uint64     // visits[k]: edges examined by the submits of steps 1…k
	visitsFor  visitsKey    // the run the visits were counted for
	times      timeSettings // what the script says of time, read for timesFor at timesLen steps
	timesFor   *session.Session
	timesLen   int
	encText    string // the script last encoded for the address
	encoded    string
	compressed bool

	frontFor *session.Session // the session and step front was read at
	frontAt  int
	front    string // the front of the READY line there

	preview *shownPreview // the console's last Preview, while its step is shown
	filter  []core.State  // the states the drawing shows; nil for all ([Page.Filter])

	live string // the live DAG shown ([Page.OpenLiveState]); "" for the simulator
	// livePaced is the live DAG's redrive at a rate under way, as its
	// state says; liveScript its script, once the page asked for it
	// ([Page.SetLiveScript]) for the Share panel.
	livePaced  *PacedRedrive
	liveScript string

	practising bool      // a practice's session is shown ([Page.ShowPractice])
	watched    *watching // what was shown before, for [Page.Watch]

	// unrun is a script the page opened that does not run, and unrunOf
	// the empty session shown in its place: until that session gets a
	// command, the address keeps the script, so that a reload shows it
	// with its error again rather than nothing.
	unrun   string
	unrunOf *session.Session
}

// snapshot is what Undo restores: a script, the step shown and the
// library scenario it was.
type snapshot struct {
	text, name string
	cursor     int
}

// New returns a page showing an empty script.
func New() *Page {
	s, _ := session.New("", scenario.Options{})
	return &Page{s: s}
}

// Session returns the session the page shows. Moving its cursor is how the
// page steps; changing its script goes through the page ([Page.Act],
// [Page.Run]), so that Undo can take it back.
func (p *Page) Session() *session.Session { return p.s }

// Scenario returns the name of the library scenario shown, or "" when the
// script is one's own (typed, shared or changed by acting).
func (p *Page) Scenario() string { return p.name }

// Embedded reports whether the page is embedded (embed=1): only the
// drawing and the timeline show.
func (p *Page) Embedded() bool { return p.embed }

// Panels returns the panels an embedded page shows besides the drawing and
// the timeline (panels=dlq,title in its link); none for a page not
// embedded.
func (p *Page) Panels() []string {
	if !p.embed {
		return nil
	}
	return p.panels
}

// Title returns the heading of what is shown: the library scenario's
// title, or "Your script".
//
// A library scenario acted on keeps its title (with a description that
// says the steps are one's own): a tap on a task once retitled the page
// "Your script", and the drawing moved under the finger.
func (p *Page) Title() string {
	if p.live != "" {
		return "Live: " + p.live
	}
	if e, ok := scenario.Lookup(p.name); ok {
		return e.Title
	}
	if e, ok := scenario.Lookup(p.origin); ok {
		return e.Title
	}
	return "Your script"
}

// Description returns the paragraph under the title: what the library
// scenario's opening comment says ([About]), or a line about one's own
// script.
func (p *Page) Description() string {
	if p.live != "" {
		return "This DAG's state in the database, redrawn as its workers change it. The dead-letter console acts on the live queue."
	}
	if e, ok := scenario.Lookup(p.name); ok {
		return About(e.Text)
	}
	if _, ok := scenario.Lookup(p.origin); ok {
		return "This scenario with steps of your own: step through it, or act on its tasks to extend it."
	}
	return "A script of your own: step through it, or act on its tasks to extend it."
}

// Open shows what an address asks for: a library scenario or a shared
// script, at a step, embedded or not, with a strategy. A parameter that
// cannot be read is left out and reported in the notices, one sentence
// each; the rest of the link holds. A shared script that does not parse is
// loaded as an empty session and its error returned as err, for the
// editor to show with the script's text, which Open returns too.
func (p *Page) Open(query, fragment string) (text string, notices []string, err error) {
	return p.OpenAddress(ReadAddress(query, fragment))
}

// OpenAddress is [Page.Open] for an address already read: the page reads
// its address once, to see first whether it asks for practice mode.
func (p *Page) OpenAddress(a Address) (text string, notices []string, err error) {
	l := a.Link
	notices = LinkNotices(a.Errs)
	p.embed = l.Embed
	p.panels = l.Panels
	p.filter = l.Show
	p.strategy = l.Strategy
	p.undo = nil
	step := 0
	if l.HasStep {
		step = l.Step
	}
	if l.HasScript {
		// The link's own encoding of the script serves the address until
		// the script changes: a long script is not compressed again.
		p.encText, p.encoded, p.compressed = l.Script, a.encoded, a.compressed
		return l.Script, notices, p.load(l.Script, "", step)
	}
	name := l.Scenario
	if name == "" {
		name = DefaultScenario
	}
	e, _ := scenario.Lookup(name)
	return e.Text, notices, p.load(e.Text, name, step)
}

// watching is what the page showed before practice began.
type watching struct {
	s    *session.Session
	name string
	undo []snapshot
}

// ShowPractice makes the page show a practice's session (package
// practice's Practice.Session), so that the drawing, the READY line and
// the dead-letter queue follow the practice. What the
// page showed before the first exercise is kept for [Page.Watch].
func (p *Page) ShowPractice(s *session.Session) {
	if !p.practising {
		p.practising = true
		p.watched = nil
		if p.name != "" || p.s.Len() > 0 {
			p.watched = &watching{p.s, p.name, p.undo}
		}
	}
	p.s, p.name, p.undo = s, "", nil
}

// Watch ends practice and returns to what the page showed before it
// began, at the step it was at, Undo's changes with it: a script of one's
// own, typed and acted on, was once lost for the library's default
// scenario. A page that opened in practice mode goes to the default
// scenario. It returns the script shown, for the editor. It panics if the
// default scenario does not run, which TestLibraryRunsClean rules out.
func (p *Page) Watch() (text string) {
	p.practising = false
	if w := p.watched; w != nil {
		p.watched = nil
		p.s, p.name, p.undo = w.s, w.name, w.undo
		return p.s.Text()
	}
	e, _ := scenario.Lookup(DefaultScenario)
	p.undo = nil
	if err := p.load(e.Text, DefaultScenario, 0); err != nil {
		panic("playground: the default scenario does not run: " + err.Error())
	}
	return e.Text
}

// Choose shows a library scenario at step 0, as the scenario picker does.
// It reports false, changing nothing, for a name not in the library, or
// one whose script does not run (TestLibraryRunsClean rules that out).
func (p *Page) Choose(name string) bool {
	e, ok := scenario.Lookup(name)
	if !ok {
		return false
	}
	s, err := session.New(e.Text, p.options())
	if err != nil {
		return false
	}
	p.push()
	p.s, p.name, p.live = s, name, ""
	s.Seek(0)
	return true
}

// load makes a session of text, shows it at step and names it. A text
// that does not run leaves an empty session and returns the error.
func (p *Page) load(text, name string, step int) error {
	s, err := session.New(text, p.options())
	p.unrun, p.unrunOf = "", nil
	if err != nil {
		s, _ = session.New("", p.options())
		name = ""
		p.unrun, p.unrunOf = text, s
	}
	p.s, p.name, p.origin, p.live = s, name, "", ""
	s.Seek(step)
	return err
}

func (p *Page) options() scenario.Options { return scenario.Options{Strategy: p.strategy} }

// Run runs the editor's text as the new script, shown at its last step.
// A text that does not parse changes nothing and returns the
// [*scenario.SyntaxError] (see [ErrorSelection]). A text that is a
// library scenario's, unchanged, is named as that scenario.
func (p *Page) Run(text string) error {
	if p.live != "" {
		return errLive
	}
	s, err := session.New(text, p.options())
	if err != nil {
		return err
	}
	p.push()
	p.s, p.name = s, libraryName(text)
	s.Seek(StepEnd)
	return nil
}

// libraryName returns the name of the library scenario whose text is
// exactly text; "" if none.
func libraryName(text string) string {
	for _, e := range scenario.Library() {
		if e.Text == text {
			return e.Name
		}
	}
	return ""
}

// Stopped returns what to say when a failed expect stopped the run; "" if
// every command ran.
func (p *Page) Stopped() string {
	if err := p.s.Stopped(); err != nil {
		return err.Error() + " — the run stops here; fix the script and Run"
	}
	return ""
}

// Dirty reports whether the editor's text differs from the script run:
// edits that have not run, which acting would drop.
//
// A live view's editor is read-only, whether it shows the placeholder of
// its session or the script given for the Share panel: never dirty.
func (p *Page) Dirty(editor string) bool { return p.live == "" && editor != p.s.Text() }

// SetStrategy runs the script again with another cycle-check strategy,
// keeping the step shown. It fails, changing nothing, for an unknown one.
func (p *Page) SetStrategy(name string) error {
	if err := p.s.SetStrategy(name); err != nil {
		return err
	}
	p.strategy = name
	return nil
}

// Strategy returns the strategy the script runs with.
func (p *Page) Strategy() string { return p.s.Strategy() }

// push keeps the script and the step shown for Undo.
func (p *Page) push() {
	p.undo = append(p.undo, snapshot{text: p.s.Text(), name: p.name, cursor: p.s.Cursor()})
	if len(p.undo) > maxUndo {
		p.undo = p.undo[len(p.undo)-maxUndo:]
	}
}

// CanUndo reports whether there is a change of the script to take back.
func (p *Page) CanUndo() bool { return len(p.undo) > 0 }

// Undo takes back the last change of the script (an action, a Run, a
// scenario chosen), restoring the script and the step shown before it: a
// refused command goes, and the commands a branch dropped come back. It
// reports false when there is nothing to undo.
func (p *Page) Undo() bool {
	if len(p.undo) == 0 {
		return false
	}
	last := p.undo[len(p.undo)-1]
	p.undo = p.undo[:len(p.undo)-1]
	s, err := session.New(last.text, p.options())
	if err != nil {
		return false // cannot happen: the text ran before
	}
	s.Seek(last.cursor)
	p.s, p.name = s, last.name
	return true
}

// Outcome is what an action did, for the page to say.
type Outcome struct {
	// Notice is a sentence to show ("" for none): why a command was
	// refused, or how many later commands a branch dropped.
	Notice string
	// Refused is true when the queue refused the command; it is still
	// recorded, as a script run records it, and Undo takes it back.
	Refused bool
	// Dropped is how many later commands acting at an earlier step dropped.
	Dropped int
}

// Act runs one command at the step shown and adds it to the script; the
// page then shows the step after it. At an earlier step it branches: the
// commands after the step shown are dropped first (Undo brings them back),
// so that every action acts on the state the user is looking at.
//
// A command that does not parse, an expect that does not hold, or a run
// stopped by a failed expect after the step shown change nothing and
// return an error whose text is meant for the command box. A command the
// queue refuses is recorded as a refused step, and said in the Outcome.
func (p *Page) Act(cmd string) (Outcome, error) {
	cmd = strings.TrimSpace(cmd)
	if p.live != "" {
		return Outcome{}, errLive
	}
	if cmd == "" {
		return Outcome{}, errors.New("type a command, e.g. next")
	}
	s := p.s
	k, n := s.Cursor(), s.Len()
	before := snapshot{text: s.Text(), name: p.name, cursor: k}
	target := s
	if k < n {
		fresh, err := session.New(cut(s, k), p.options())
		if err != nil {
			return Outcome{}, err
		}
		fresh.Seek(StepEnd)
		target = fresh
	}
	if err := target.Append(cmd); err != nil {
		var ee *scenario.ExpectError
		if errors.As(err, &ee) {
			return Outcome{}, errors.New("expect " + ee.Task + " " + string(ee.Want) + ": it is " + stateOrNone(ee.Got) + " (not added)")
		}
		return Outcome{}, errors.New(strings.TrimPrefix(err.Error(), "scenario: "))
	}
	p.undo = append(p.undo, before)
	if len(p.undo) > maxUndo {
		p.undo = p.undo[len(p.undo)-maxUndo:]
	}
	if p.name != "" {
		p.origin = p.name
	}
	p.s, p.name = target, ""
	var out Outcome
	last := target.Len()
	if !target.Step(last).OK {
		out.Refused = true
		out.Notice = Explain(target, last) + " It stays in the script as a refused step; Undo takes it back."
	}
	if k < n {
		out.Dropped = n - k
		out.Notice = strings.TrimSpace("Acted at step " + strconv.Itoa(k) + ": " + wording.Plural(n-k, "later command") +
			" " + wasWere(n-k) + " dropped (Undo brings them back). " + out.Notice)
	}
	return out, nil
}

// cut returns the script of s up to and including the command of step k:
// its text up to that command's line, so that comments before it stay.
func cut(s *session.Session, k int) string {
	text := s.Text()
	if k >= s.Len() {
		return text
	}
	// Keep the lines before the command of step k+1.
	line := s.Step(k + 1).Command.Line
	at := 0
	for i := 1; i < line; i++ {
		j := strings.IndexByte(text[at:], '\n')
		if j < 0 {
			return text
		}
		at += j + 1
	}
	return text[:at]
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func stateOrNone(s core.State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}
