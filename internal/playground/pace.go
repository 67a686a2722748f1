package playground

import "time"

// Pace is the timing of play: a step every Interval from Start, drawn at
// the browser's frames. A frame shows the step due at its time, whatever
// the steps before it took to draw: a slow frame skips steps rather than
// slowing play down, so that 16× is 16× on any machine.
type Pace struct {
	Start    time.Duration // when play started, on the page's clock
	From     int           // the step shown then
	Interval time.Duration // between steps
}

// Due returns the step to show at now: From plus one step for each
// Interval gone since Start, at most last. The cost is O(1).
func (p Pace) Due(now time.Duration, last int) int {
	if p.Interval <= 0 || now < p.Start {
		return min(p.From, last)
	}
	return min(p.From+int((now-p.Start)/p.Interval), last)
}

// Animated reports whether the steps of play are animated one event after
// another, as a single step is: only when a step lasts long enough for the
// animation to be seen (AnimateAbove); faster, each frame shows its step
// at once.
func (p Pace) Animated() bool { return p.Interval >= AnimateAbove }

// AnimateAbove is the shortest interval between steps at which play
// animates each step's events.
const AnimateAbove = 200 * time.Millisecond

// FollowEvery is how often, at most, play too fast to animate its steps
// scrolls the drawing to the tasks they change (see Pace.Follows).
const FollowEvery = time.Second

// Follows reports whether the step play draws at now is brought into
// view, the last one that was having been drawn at last (negative for
// none yet). Play that animates its steps follows every one; faster, the
// first and then one every FollowEvery at most: at 16× the steps of a big
// graph change tasks far apart twenty times a second, a view that jumps
// too fast to be followed, and every jump draws the graph's window anew.
// The steps between are drawn all the same, where they are.
func (p Pace) Follows(now, last time.Duration) bool {
	return p.Animated() || last < 0 || now-last >= FollowEvery
}

// TellEvery is how often, at most, play too fast to animate its steps
// brings the page's text up to date (see Pace.Tells).
const TellEvery = 250 * time.Millisecond

// Tells reports whether the step play draws at now is told in the page's
// text as well as drawn: its counts, caption, clock, READY line,
// dead-letter queue, event log and timeline; the last tell having ended
// at last (negative for none yet). Play that animates its
// steps tells every one; faster, the first and then one every TellEvery
// at most. At 16× the text would change twenty times a second, too fast
// to read, and on a loaded machine its layout and paint cost a step more
// than its drawing does. The step told is told a part a frame, in frames
// of its own ([Frames]), and a pause tells the step it stops at, whole.
func (p Pace) Tells(now, last time.Duration) bool {
	return p.Animated() || last < 0 || now-last >= TellEvery
}
