package playground

import "time"

// Job is the one piece of work a frame of play too quick to animate does
// (see Frames). On a loaded machine a frame's cost is what decides whether
// it is late: the work of a step is spread over the frames between steps,
// so that no frame both draws a step and rewrites the page's text,
// scrolls the drawing or repaints the minimap.
type Job int

const (
	JobNone    Job = iota // nothing: the frame costs the page nothing
	JobStep               // draw the step due, and only that
	JobFollow             // bring the tasks of the step drawn into view (Pace.Follows)
	JobTell               // tell the step drawn in the page's text, or a part of it (Pace.Tells)
	JobMinimap            // draw the minimap's dots anew for the steps drawn
)

// Chores is what play too quick to animate has left to do for the steps
// it drew: each is done in a frame of its own, after the step.
type Chores struct {
	Follow, Tell, Minimap bool
}

// Job returns what a frame does: the step due, if one is; else the first
// chore left, in the order Follow, Tell, Minimap; else nothing. The one
// exception keeps the chores from waiting for ever when every frame has a
// step due (frames slower than the steps): a frame right after one that
// drew a step does a chore first. The cost is O(1).
func (c Chores) Job(stepDue, lastDrewStep bool) Job {
	chore := JobNone
	switch {
	case c.Follow:
		chore = JobFollow
	case c.Tell:
		chore = JobTell
	case c.Minimap:
		chore = JobMinimap
	}
	if stepDue && (chore == JobNone || !lastDrewStep) {
		return JobStep
	}
	return chore
}

// Done returns the chores left once job is finished.
func (c Chores) Done(job Job) Chores {
	switch job {
	case JobFollow:
		c.Follow = false
	case JobTell:
		c.Tell = false
	case JobMinimap:
		c.Minimap = false
	}
	return c
}

// Empty reports whether no chore is left.
func (c Chores) Empty() bool { return c == Chores{} }

// LateFrame is how long a frame may take before the next frame counts it
// late: a frame at 60 Hz is 16.7 ms.
const LateFrame = 20 * time.Millisecond

// RestAfterLate is how many frames play leaves empty when a frame came
// late, so that the browser's work for the frames before (painting,
// compositing, on threads a loaded machine runs late too) is done before
// it is given more.
const RestAfterLate = 2

// Frames plans the frames of play too quick to animate. Each does one job
// at most (Chores.Job), and some none: the frame after a follow or after
// a tell's last part, and the RestAfterLate frames after one that came
// late. A tell under way goes on before any step, so that its parts,
// told a frame each, tell one step, the one drawn. A step due waits, and
// the step then drawn is the one due (Pace.Due): play skips steps rather
// than frames. On a quiet machine at 16× (three frames a step) that is
// one step in each quarter of a second, for the text told. The zero value
// is ready to use.
type Frames struct {
	Chores
	last    Job           // what the frame before did
	at      time.Duration // when the frame before began
	started bool          // a frame has been planned
	rest    int           // frames left to leave empty
	telling bool          // a tell is under way: a part of it was told
}

// Next returns the job of the frame beginning at now (on the page's
// clock), with a step due or not. The caller does it and clears the chore
// done (Chores.Done) once finished: telling in parts takes a frame a
// part. The cost is O(1).
func (f *Frames) Next(now time.Duration, stepDue bool) Job {
	if f.started && now-f.at > LateFrame {
		f.rest = RestAfterLate
	}
	f.at, f.started = now, true
	told := f.telling && !f.Tell // a tell ended in the frame before
	if !f.Tell {
		f.telling = false
	}
	job := JobNone
	switch {
	case f.rest > 0:
		f.rest--
	case f.last == JobFollow, told && f.last == JobTell:
	case f.telling:
		job = JobTell
	default:
		job = f.Job(stepDue, f.last == JobStep)
	}
	if job == JobTell {
		f.telling = true
	}
	f.last = job
	return job
}
